// Item table layout (the container of STRINGS, CONTEXTS, PLACES and POSTINGS):
//   u32 count
//   u32 blockOffsets[ceil(count / 16)]   offset of each block's first item from the start of
//                                        the item area; block b holds items 16b ..< 16b + 16
//   item area: per item: varint byte length, then that many bytes
// Item i is found by reading blockOffsets[i / 16] and skipping i % 16 items by their lengths:
// 0.25 bytes of table per item instead of a 4-byte offset, for at most 15 skips per lookup.

/// Reads variable-length items stored in blocks of ``blockSize``, each item prefixed by its
/// byte length.
public struct ItemTable: @unchecked Sendable {
  /// Items per block.
  public static let blockSize = 16
  let reader: ByteReader
  /// Number of items.
  public let count: Int
  let itemStart: Int

  /// Reads the table header at the start of `reader`'s buffer.
  public init(_ reader: ByteReader) throws {
    var r = reader
    r.offset = 0
    let count = Int(try r.u32())
    let blocks = (count + ItemTable.blockSize - 1) / ItemTable.blockSize
    guard count <= r.buffer.count, 4 + 4 * blocks <= r.buffer.count else {
      throw r.fault("item count \(count) does not fit", at: 0)
    }
    self.count = count
    itemStart = 4 + 4 * blocks
    self.reader = r
  }

  /// A reader over the bytes of item `index`.
  @inline(__always)
  public func item(_ index: Int) throws -> ByteReader {
    guard index >= 0, index < count else {
      throw reader.fault("item \(index) out of range (count \(count))", at: 0)
    }
    let block = index / ItemTable.blockSize
    let blockOffset = Int(try reader.u32(at: 4, index: block))
    var r = reader
    guard blockOffset <= r.buffer.count - itemStart else {
      throw r.fault("block \(block) starts past the end", at: 4 + 4 * block)
    }
    r.offset = itemStart + blockOffset
    for _ in 0..<(index % ItemTable.blockSize) {
      let length = try r.varint(below: r.remaining + 1)
      r.offset += length
      guard r.offset <= r.buffer.count else { throw r.fault("item runs past the end") }
    }
    let at = r.offset
    let length = try r.varint(below: r.remaining + 1)
    guard length <= r.remaining else {
      throw r.fault("item \(index) of \(length) bytes runs past the end", at: at)
    }
    return ByteReader(
      UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<(r.offset + length)]),
      section: r.section, fileOffset: r.fileOffset + r.offset)
  }

  /// Calls `body` with each item of `index`'s block up to and including `index`, in order.
  @inline(__always)
  public func walk(to index: Int, _ body: (ByteReader) throws -> Void) throws {
    guard index >= 0, index < count else {
      throw reader.fault("item \(index) out of range (count \(count))", at: 0)
    }
    let block = index / ItemTable.blockSize
    let blockOffset = Int(try reader.u32(at: 4, index: block))
    var r = reader
    guard blockOffset <= r.buffer.count - itemStart else {
      throw r.fault("block \(block) starts past the end", at: 4 + 4 * block)
    }
    r.offset = itemStart + blockOffset
    for _ in 0...(index % ItemTable.blockSize) {
      let at = r.offset
      let length = try r.varint(below: r.remaining + 1)
      guard length <= r.remaining else {
        throw r.fault("item of \(length) bytes runs past the end", at: at)
      }
      try body(
        ByteReader(
          UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<(r.offset + length)]),
          section: r.section, fileOffset: r.fileOffset + r.offset))
      r.offset += length
    }
  }

  /// Walks every item in order, checking that each block offset points at its first item and
  /// that the items fill the area exactly; calls `body` with each item.
  public func forEach(_ body: (Int, ByteReader) throws -> Void) throws {
    var r = reader
    r.offset = itemStart
    for i in 0..<count {
      if i % ItemTable.blockSize == 0 {
        let block = i / ItemTable.blockSize
        guard Int(try reader.u32(at: 4, index: block)) == r.offset - itemStart else {
          throw reader.fault("block \(block) offset does not point at item \(i)", at: 4 + 4 * block)
        }
      }
      let at = r.offset
      let length = try r.varint(below: r.remaining + 1)
      guard length <= r.remaining else {
        throw r.fault("item \(i) of \(length) bytes runs past the end", at: at)
      }
      try body(
        i,
        ByteReader(
          UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<(r.offset + length)]),
          section: r.section, fileOffset: r.fileOffset + r.offset))
      r.offset += length
    }
    guard r.offset == r.buffer.count else {
      throw r.fault("\(r.remaining) bytes after the last item")
    }
  }
}

/// Writes an item table.
public struct ItemTableWriter: Sendable {
  private var blockOffsets: [UInt32] = []
  private var data = ByteWriter()
  /// Number of items appended.
  public private(set) var count = 0

  /// Creates an empty table.
  public init() {}

  /// Appends one item.
  public mutating func append(_ item: [UInt8]) {
    if count % ItemTable.blockSize == 0 { blockOffsets.append(UInt32(data.count)) }
    data.varint(item.count)
    data.append(item)
    count += 1
  }

  /// The table bytes.
  public var bytes: [UInt8] {
    var w = ByteWriter()
    w.u32(UInt32(count))
    for o in blockOffsets { w.u32(o) }
    w.append(data.bytes)
    return w.bytes
  }
}
