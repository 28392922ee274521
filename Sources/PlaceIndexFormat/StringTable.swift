// STRINGS section layout: an item table (ItemTable.swift) of the strings, sorted bytewise and
// each stored once; a string's id is its position. Strings are front-coded within each block
// of 16: an item is a varint k, the number of leading bytes shared with the previous string
// of the block (0 for a block's first string), then the remaining UTF-8 bytes.

/// Reads the deduplicated strings of an index by id.
public struct StringTable: @unchecked Sendable {
  let items: ItemTable
  /// Number of strings.
  public var count: Int { items.count }

  /// Reads the section's table header.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int) throws {
    items = try ItemTable(ByteReader(bytes, section: "STRINGS", fileOffset: fileOffset))
  }

  /// The string with id `id`.
  public func string(_ id: Int) throws -> String {
    String(decoding: try utf8(id), as: UTF8.self)
  }

  /// The text a reference names: one string, or two joined by a space.
  public func string(_ ref: TextRef) throws -> String {
    guard let second = ref.second else { return try string(ref.first) }
    return try string(ref.first) + " " + string(second)
  }

  /// The UTF-8 bytes of string `id`.
  public func utf8(_ id: Int) throws -> [UInt8] {
    guard id >= 0, id < count else {
      throw items.reader.fault("string id \(id) out of range", at: 0)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    try items.walk(to: id) { r in try StringTable.apply(r, to: &bytes) }
    return bytes
  }

  /// Replaces `bytes`, the previous string, by the string item `r` front-codes.
  @inline(__always)
  static func apply(_ r: ByteReader, to bytes: inout [UInt8]) throws {
    var r = r
    let shared = try r.varint(below: bytes.count + 1)
    bytes.removeSubrange(shared...)
    bytes.append(contentsOf: try r.bytes(r.remaining))
  }

  /// Checks every item, the front coding and the strict bytewise order of the strings.
  public func verify() throws {
    var previous: [UInt8] = []
    var bytes: [UInt8] = []
    try items.forEach { i, r in
      if i % items.blockSize == 0 { bytes.removeAll(keepingCapacity: true) }
      try StringTable.apply(r, to: &bytes)
      if i > 0, !previous.lexicographicallyPrecedes(bytes) {
        throw r.fault("string \(i) is not after string \(i - 1) in bytewise order", at: 0)
      }
      previous = bytes
    }
  }
}

/// Collects strings and assigns each a stable id (its rank in bytewise order).
public struct StringTableBuilder {
  private var set: Set<String> = []
  private var ids: [String: Int] = [:]
  private var sorted: [String] = []

  /// Creates an empty builder.
  public init() {}

  /// Registers a string.
  public mutating func insert(_ s: String) {
    precondition(sorted.isEmpty, "insert after freeze")
    set.insert(s)
  }

  /// Whether `s` is registered.
  public func contains(_ s: String) -> Bool { set.contains(s) }

  /// Fixes the ids; call after all inserts.
  public mutating func freeze() {
    sorted = set.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for (i, s) in sorted.enumerated() { ids[s] = i }
  }

  /// The id of a registered string.
  public func id(_ s: String) -> Int {
    guard let id = ids[s] else { preconditionFailure("string not registered: \(s)") }
    return id
  }

  /// The section bytes.
  public func serialize() -> [UInt8] {
    var table = ItemTableWriter()
    var previous: [UInt8] = []
    for (i, s) in sorted.enumerated() {
      let bytes = Array(s.utf8)
      let shared =
        i % table.blockSize == 0
        ? 0 : zip(previous, bytes).prefix { $0 == $1 }.count
      var item = ByteWriter()
      item.varint(shared)
      item.append(bytes[shared...])
      table.append(item.bytes)
      previous = bytes
    }
    return table.bytes
  }
}
