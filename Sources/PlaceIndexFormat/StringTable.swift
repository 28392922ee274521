// STRINGS section layout:
//   u8 codeLengths[257]   the code length of each byte value 0...255, then of the end symbol
//                         (0 = not used; at most 24 bits)
//   an item table (ItemTable.swift) of the strings, sorted bytewise and each stored once; a
//   string's id is its position
// Strings are front-coded within each block of 16: an item is a varint k, the number of leading
// bytes shared with the previous string of the block (0 for a block's first string), then the
// remaining UTF-8 bytes in a canonical Huffman code (HuffmanCode.swift): shorter codes first,
// codes of one length in symbol order, most significant bit first. The end symbol's code is
// the last, all 1 bits; the code is padded to a byte with 1 bits, which ends the string.

/// Reads the deduplicated strings of an index by id.
package struct StringTable: @unchecked Sendable {
  let items: ItemTable<LengthPrefixed>
  /// The code of the strings' bytes.
  let code: HuffmanCode
  /// Number of strings.
  package var count: Int { items.count }

  /// Reads the code lengths and the table header.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int) throws(IndexFormatError) {
    var r = ByteReader(bytes, section: "STRINGS", fileOffset: fileOffset)
    code = try HuffmanCode(reading: &r)
    let table = UnsafeRawBufferPointer(rebasing: bytes[r.offset...])
    items = try ItemTable(
      ByteReader(table, section: "STRINGS", fileOffset: fileOffset + r.offset))
  }

  /// The string with id `id`.
  package func string(_ id: Int) throws(IndexFormatError) -> String {
    String(decoding: try utf8(id), as: UTF8.self)
  }

  /// The text a reference names: one string, or two joined by a space.
  package func string(_ ref: TextRef) throws(IndexFormatError) -> String {
    guard let second = ref.second else { return try string(ref.first) }
    return try string(ref.first) + " " + string(second)
  }

  /// The UTF-8 bytes of string `id`.
  package func utf8(_ id: Int) throws(IndexFormatError) -> [UInt8] {
    guard id >= 0, id < count else {
      throw items.reader.fault("string id \(id) out of range", at: 0)
    }
    // The items from the block's first string to this one, and how many leading bytes each
    // shares with the one before.
    var block: [(shared: Int, rest: ByteReader)] = []
    block.reserveCapacity(items.blockSize)
    try items.walk(to: id) { (r) throws(IndexFormatError) in
      var r = r
      let shared = try r.varint()
      guard shared <= UInt64(Int32.max) else { throw r.fault("shared length \(shared)", at: 0) }
      block.append((Int(shared), r))
    }
    // A string before the last is needed only as far as the strings after it share it.
    var needed = [Int](repeating: .max, count: block.count)
    for j in stride(from: block.count - 2, through: 0, by: -1) {
      needed[j] = min(needed[j + 1], block[j + 1].shared)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for (j, item) in block.enumerated() {
      if item.shared <= bytes.count {
        bytes.removeSubrange(item.shared...)
        if bytes.count < needed[j] { try code.decode(item.rest, into: &bytes, upTo: needed[j]) }
      } else if bytes.count < needed[j] {
        // The string before was read whole, and is shorter than what this one shares.
        throw item.rest.fault(
          "shares \(item.shared) bytes with a string of \(bytes.count)", at: 0)
      }
      // Otherwise `bytes`, a prefix of the shared part, is all that is needed of this string.
    }
    return bytes
  }

  /// Replaces `bytes`, the previous string, by the string item `r` front-codes.
  @inline(__always)
  func apply(_ r: ByteReader, to bytes: inout [UInt8]) throws(IndexFormatError) {
    var r = r
    let shared = try r.varint(below: bytes.count + 1)
    bytes.removeSubrange(shared...)
    try code.decode(r, into: &bytes, upTo: .max)
  }

  /// Checks every item, the front coding and the strict bytewise order of the strings.
  package func verify() throws(IndexFormatError) {
    var previous: [UInt8] = []
    var bytes: [UInt8] = []
    try items.forEach { (i, r) throws(IndexFormatError) in
      if i % items.blockSize == 0 { bytes.removeAll(keepingCapacity: true) }
      try apply(r, to: &bytes)
      if i > 0, !previous.lexicographicallyPrecedes(bytes) {
        throw r.fault("string \(i) is not after string \(i - 1) in bytewise order", at: 0)
      }
      previous = bytes
    }
  }
}

/// Collects strings and assigns each a stable id (its rank in bytewise order). Each distinct
/// string is kept once, as bytes in one buffer (``ByteInterner``).
package struct StringTableBuilder {
  private var strings = ByteInterner()
  /// The interned strings in bytewise order, once frozen.
  private var sorted: [Int32] = []
  /// Each interned string's id (its position in `sorted`).
  private var ids: [Int32] = []

  /// Creates an empty builder.
  package init() {}

  /// Registers a string.
  package mutating func insert(_ s: String) {
    precondition(sorted.isEmpty, "insert after freeze")
    strings.insert(s)
  }

  /// Whether `s` is registered.
  package func contains(_ s: String) -> Bool { strings.find(s) != nil }

  /// Fixes the ids; call after all inserts.
  package mutating func freeze() {
    sorted = strings.sortedIndexes()
    ids = [Int32](repeating: 0, count: sorted.count)
    for (rank, i) in sorted.enumerated() { ids[Int(i)] = Int32(rank) }
  }

  /// The id of a registered string.
  package func id(_ s: String) -> Int {
    guard let i = strings.find(s), i < ids.count else {
      preconditionFailure("string not registered: \(s)")
    }
    return Int(ids[i])
  }

  /// The section bytes.
  package func serialize() -> [UInt8] {
    var table = ItemTableWriter()
    let blockSize = table.blockSize
    // Front coding first: the code fits the bytes that remain.
    func forEachItem(_ body: (Int, ArraySlice<UInt8>) -> Void) {
      var previous: ArraySlice<UInt8> = []
      for (i, k) in sorted.enumerated() {
        let bytes = strings.string(Int(k))
        let shared =
          i % blockSize == 0 ? 0 : zip(previous, bytes).prefix { $0 == $1 }.count
        body(shared, bytes.dropFirst(shared))
        previous = bytes
      }
    }
    var frequencies = [Int](repeating: 0, count: 256)
    forEachItem { _, rest in for b in rest { frequencies[Int(b)] += 1 } }
    let code = HuffmanCode.fitting(frequencies)
    forEachItem { shared, rest in
      var item = ByteWriter()
      item.varint(shared)
      code.encode(rest, into: &item)
      table.append(item.bytes)
    }
    return code.lengths + table.bytes
  }
}
