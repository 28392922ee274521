// Item table layout (the container of STRINGS, CONTEXTS and POSTINGS):
//   u32 count
//   u32 blockSize B                   items per block: a power of two, 1...256
//   u32 blockOffsets[ceil(count / B)] offset of each block's first item from the start of the
//                                     item area; block b holds items bB ..< bB + B
//   item area: per item: varint byte length, then that many bytes; or, in POSTINGS, the items
//   back to back with no lengths (an item's fields say where it ends: Postings.swift)
// Item i is found by reading blockOffsets[i / B] and skipping i % B items by their lengths
// (in POSTINGS, by their fields): 4 / B bytes of table per item instead of a 4-byte offset, for
// at most B - 1 skips per lookup. The writer uses B = 16.

/// How the items of an item table say where they end: the one thing the tables' users
/// differ in.
package protocol ItemFraming {
  /// Whether the writer puts each item's byte length before it.
  static var prefixesLength: Bool { get }
  /// Moves `r` past the framing of the item at its offset (the reader then is at the item's
  /// first byte) and returns the item's byte length.
  static func length(_ r: inout ByteReader) throws(IndexFormatError) -> Int
}

/// Items that start with their byte length (STRINGS, CONTEXTS).
package enum LengthPrefixed: ItemFraming {
  package static let prefixesLength = true

  @inline(__always)
  package static func length(_ r: inout ByteReader) throws(IndexFormatError) -> Int {
    try r.varint(below: r.remaining + 1)
  }
}

/// Reads variable-length items stored in blocks of ``blockSize``, each item prefixed by its
/// byte length or saying itself where it ends.
package struct ItemTable<Framing: ItemFraming>: @unchecked Sendable {
  let reader: ByteReader
  /// Number of items.
  package let count: Int
  /// Items per block.
  package let blockSize: Int
  let blockShift: Int
  let itemStart: Int

  /// Reads the table header at the start of `reader`'s buffer.
  package init(_ reader: ByteReader) throws(IndexFormatError) {
    var r = reader
    let (count, blockSize) = try r.tableHeader(sizeFrom: 1, naming: "block size")
    let blocks = (count + blockSize - 1) / blockSize
    guard count <= r.buffer.count, 8 + 4 * blocks <= r.buffer.count else {
      throw r.fault("item count \(count) does not fit", at: 0)
    }
    self.count = count
    self.blockSize = blockSize
    blockShift = blockSize.trailingZeroBitCount
    itemStart = 8 + 4 * blocks
    self.reader = r
  }

  /// A reader positioned at the first item of `index`'s block.
  @inline(__always)
  private func blockStart(_ index: Int) throws(IndexFormatError) -> ByteReader {
    guard index >= 0, index < count else {
      throw reader.fault("item \(index) out of range (count \(count))", at: 0)
    }
    let block = index >> blockShift
    let blockOffset = Int(try reader.u32(at: 8, index: block))
    var r = reader
    guard blockOffset <= r.buffer.count - itemStart else {
      throw r.fault("block \(block) starts past the end", at: 8 + 4 * block)
    }
    r.offset = itemStart + blockOffset
    return r
  }

  /// Moves `r` past the framing of the item at its offset; returns the item's byte length.
  @inline(__always)
  private func length(_ r: inout ByteReader) throws(IndexFormatError) -> Int {
    let at = r.offset
    let length = try Framing.length(&r)
    guard length >= 0, length <= r.remaining else {
      throw r.fault("item of \(length) bytes runs past the end", at: at)
    }
    return length
  }

  /// The item at `r`'s offset, moving `r` past it.
  @inline(__always)
  private func next(_ r: inout ByteReader) throws(IndexFormatError) -> ByteReader {
    let length = try length(&r)
    defer { r.offset += length }
    return ByteReader(
      UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<(r.offset + length)]),
      section: r.section, fileOffset: r.fileOffset + r.offset)
  }

  /// A reader positioned at item `index`: its block's start, past the items before it.
  @inline(__always)
  private func itemStart(_ index: Int) throws(IndexFormatError) -> ByteReader {
    var r = try blockStart(index)
    for _ in 0..<(index & (blockSize - 1)) { r.offset += try length(&r) }
    return r
  }

  /// A reader over the bytes of item `index`.
  @inline(__always)
  package func item(_ index: Int) throws(IndexFormatError) -> ByteReader {
    var r = try itemStart(index)
    return try next(&r)
  }

  /// Calls `body` with the index and bytes of each item in `range`, in order: one block lookup
  /// and sequential reads, instead of a lookup and up to B - 1 skips per item.
  @inline(__always)
  package func walk(_ range: Range<Int>, _ body: (Int, ByteReader) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    guard let first = range.first else { return }
    guard range.upperBound <= count else {
      throw reader.fault("items \(range) out of range (count \(count))", at: 0)
    }
    var r = try itemStart(first)
    for index in range { try body(index, try next(&r)) }
  }

  /// Calls `body` with each item of `index`'s block up to and including `index`, in order.
  @inline(__always)
  package func walk(to index: Int, _ body: (ByteReader) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    var r = try blockStart(index)
    for _ in 0...(index & (blockSize - 1)) { try body(try next(&r)) }
  }

  /// Walks every item in order, checking that each block offset points at its first item and
  /// that the items fill the area exactly; calls `body` with each item.
  package func forEach(_ body: (Int, ByteReader) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    var r = reader
    r.offset = itemStart
    for i in 0..<count {
      if i & (blockSize - 1) == 0 {
        let block = i >> blockShift
        guard Int(try reader.u32(at: 8, index: block)) == r.offset - itemStart else {
          throw reader.fault("block \(block) offset does not point at item \(i)", at: 8 + 4 * block)
        }
      }
      try body(i, try next(&r))
    }
    guard r.offset == r.buffer.count else {
      throw r.fault("\(r.remaining) bytes after the last item")
    }
  }
}

/// Writes an item table.
package struct ItemTableWriter: Sendable {
  private var blockOffsets: [UInt32] = []
  private var data = ByteWriter()
  /// Items per block.
  package let blockSize: Int
  /// Whether each item is written after its byte length (as its framing says).
  let lengthPrefixed: Bool
  /// Number of items appended.
  package private(set) var count = 0

  /// Creates an empty table with `blockSize` items per block (a power of two, 1...256), for
  /// ``ItemTable`` to read with `framing`.
  package init(blockSize: Int = 16, framing: (some ItemFraming).Type = LengthPrefixed.self) {
    precondition(blockSize >= 1 && blockSize <= 256 && blockSize & (blockSize - 1) == 0)
    self.blockSize = blockSize
    lengthPrefixed = framing.prefixesLength
  }

  /// Appends one item.
  package mutating func append(_ item: [UInt8]) {
    // Past 4 GiB the section is refused as a whole (IndexImageWriter.checkSectionSize).
    if count % blockSize == 0 { blockOffsets.append(UInt32(truncatingIfNeeded: data.count)) }
    if lengthPrefixed { data.varint(item.count) }
    data.append(item)
    count += 1
  }

  /// The table bytes.
  package var bytes: [UInt8] {
    var w = ByteWriter()
    w.u32(UInt32(count))
    w.u32(UInt32(blockSize))
    for o in blockOffsets { w.u32(o) }
    w.append(data.bytes)
    return w.bytes
  }
}

extension ByteReader {
  /// Reads the `u32 count, u32 size` header at the buffer's start that item and record
  /// tables begin with; `size` (items per block, records per group) must be a power of two
  /// from `minimum` to 256, and is named `what` in the error.
  mutating func tableHeader(sizeFrom minimum: Int, naming what: String) throws(IndexFormatError)
    -> (
      count: Int, size: Int
    )
  {
    offset = 0
    let count = Int(try u32())
    let size = Int(try u32())
    guard size >= minimum, size <= 256, size & (size - 1) == 0 else {
      throw fault("\(what) \(size) is not a power of two from \(minimum) to 256", at: 4)
    }
    return (count, size)
  }
}
