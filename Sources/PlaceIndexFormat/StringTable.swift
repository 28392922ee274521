// STRINGS section layout:
//   u32 count
//   u32 offsets[count + 1]   byte offsets into the blob; offsets[i+1] >= offsets[i]
//   blob                     UTF-8 bytes of all strings, sorted bytewise, each stored once

/// Reads the deduplicated strings of an index by id.
public struct StringTable: @unchecked Sendable {
  let reader: ByteReader
  /// Number of strings.
  public let count: Int
  let blobStart: Int

  /// Reads the section's table header.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int) throws {
    var r = ByteReader(bytes, section: "STRINGS", fileOffset: fileOffset)
    let count = Int(try r.u32())
    guard count < bytes.count else { throw r.fault("string count \(count) does not fit") }
    self.count = count
    blobStart = 4 + 4 * (count + 1)
    guard blobStart <= bytes.count else { throw r.fault("offset table runs past the end") }
    reader = r
  }

  /// The string with id `id`.
  public func string(_ id: Int) throws -> String {
    let raw = try rawBytes(id)
    return String(decoding: raw, as: UTF8.self)
  }

  /// The UTF-8 bytes of string `id`.
  public func rawBytes(_ id: Int) throws -> UnsafeRawBufferPointer {
    guard id >= 0, id < count else { throw reader.fault("string id \(id) out of range", at: 0) }
    let start = Int(try reader.u32(at: 4, index: id))
    let end = Int(try reader.u32(at: 4, index: id + 1))
    guard start <= end, blobStart + end <= reader.buffer.count else {
      throw reader.fault("string \(id) spans [\(start), \(end)) outside the blob", at: 4 + 4 * id)
    }
    return UnsafeRawBufferPointer(rebasing: reader.buffer[(blobStart + start)..<(blobStart + end)])
  }

  /// Checks every offset.
  public func verify() throws {
    for i in 0..<count { _ = try rawBytes(i) }
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
    var w = ByteWriter()
    w.u32(UInt32(sorted.count))
    var offset: UInt32 = 0
    w.u32(0)
    for s in sorted {
      offset += UInt32(s.utf8.count)
      w.u32(offset)
    }
    for s in sorted { w.append(s.utf8) }
    return w.bytes
  }
}
