// Record table layout (the container of PLACES):
//   u32 count
//   u32 groupSize G                   records per group: a power of two, 4...256
//   u32 groupOffsets[ceil(count / G)] offset of each group's first record from the start of
//                                     the record area
//   u16 blockOffsets[ceil(count / 4)] offset of each block of 4 records from its group's first
//                                     record; block k holds records 4k ..< 4k + 4
//   record area: the records back to back, with no lengths (a record's fields say where it
//   ends)
// Record i is found by reading groupOffsets[i / G] and blockOffsets[i / 4] and reading past the
// i % 4 records before it, field by field: 2 / 4 + 4 / G bytes of table per record. The
// writer takes the largest G up to 64 whose groups each span less than 65,536 bytes.

/// Finds records stored back to back without lengths, in blocks of 4 within groups.
package struct RecordTable: @unchecked Sendable {
  let reader: ByteReader
  /// Number of records.
  package let count: Int
  /// Records per group.
  package let groupSize: Int
  /// Records per block.
  package static let blockSize = 4
  let groupShift: Int
  let blockTable: Int
  let recordStart: Int

  /// Reads the table header at the start of `reader`'s buffer.
  package init(_ reader: ByteReader) throws(IndexFormatError) {
    var r = reader
    let (count, groupSize) = try r.tableHeader(sizeFrom: Self.blockSize, naming: "group size")
    let groups = (count + groupSize - 1) / groupSize
    let blocks = (count + Self.blockSize - 1) / Self.blockSize
    guard count <= r.buffer.count, 8 + 4 * groups + 2 * blocks <= r.buffer.count else {
      throw r.fault("record count \(count) does not fit", at: 0)
    }
    self.count = count
    self.groupSize = groupSize
    groupShift = groupSize.trailingZeroBitCount
    blockTable = 8 + 4 * groups
    recordStart = blockTable + 2 * blocks
    self.reader = r
  }

  /// The offset of block `block` (of 4 records) from the start of the section.
  @inline(__always)
  private func blockOffset(_ block: Int) throws(IndexFormatError) -> Int {
    let group = (block * Self.blockSize) >> groupShift
    let groupOffset = Int(try reader.u32(at: 8, index: group))
    let inGroup = Int(try reader.u16(at: blockTable, index: block))
    return recordStart + groupOffset + inGroup
  }

  /// A reader at the first record of `index`'s block, over the rest of the record area, and
  /// the number of records before `index` in it.
  @inline(__always)
  package func blockStart(_ index: Int) throws(IndexFormatError) -> (ByteReader, before: Int) {
    guard index >= 0, index < count else {
      throw reader.fault("record \(index) out of range (count \(count))", at: 0)
    }
    let block = index / Self.blockSize
    let offset = try blockOffset(block)
    var r = reader
    guard offset <= r.buffer.count else {
      throw r.fault("block \(block) starts past the end", at: blockTable + 2 * block)
    }
    r.offset = offset
    return (r, index % Self.blockSize)
  }

  /// Reads every record in order with `read`, which must move the reader past one record,
  /// checking that each block starts where the records before it end and that the records
  /// fill the area exactly.
  package func forEach(_ read: (Int, inout ByteReader) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    var r = reader
    r.offset = recordStart
    for i in 0..<count {
      if i % Self.blockSize == 0 {
        let block = i / Self.blockSize
        guard try blockOffset(block) == r.offset else {
          throw reader.fault(
            "block \(block) offset does not point at record \(i)", at: blockTable + 2 * block)
        }
      }
      try read(i, &r)
    }
    guard r.offset == r.buffer.count else {
      throw r.fault("\(r.remaining) bytes after the last record")
    }
  }
}

/// Writes a record table.
package struct RecordTableWriter: Sendable {
  /// The records back to back, and where each ends (one buffer, not an array per record;
  /// 4 bytes a record: past 4 GiB the section is refused as a whole).
  private var data: [UInt8] = []
  private var ends: [UInt32] = []

  /// Creates an empty table.
  package init() {}

  /// Appends one record.
  package mutating func append(_ record: [UInt8]) {
    data.append(contentsOf: record)
    ends.append(UInt32(truncatingIfNeeded: data.count))
  }

  /// Where record `i` starts in `data`.
  private func start(_ i: Int) -> Int { i == 0 ? 0 : Int(ends[i - 1]) }

  /// The largest group size up to 64 whose groups each span less than 65,536 bytes to their
  /// last block's start (down to 4, one block per group, which always fits a block's offset:
  /// 0).
  var groupSize: Int {
    var size = 64
    while size > RecordTableWriter.minimumGroupSize {
      var fits = true
      var start = 0
      while start < ends.count && fits {
        let lastBlock = min(start + size, ends.count) - 1
        let span = self.start(lastBlock - lastBlock % RecordTable.blockSize) - self.start(start)
        fits = span < 1 << 16
        start += size
      }
      if fits { break }
      size /= 2
    }
    return size
  }

  static let minimumGroupSize = RecordTable.blockSize

  /// The table bytes.
  package var bytes: [UInt8] {
    let groupSize = self.groupSize
    var groupOffsets: [UInt32] = []
    var blockOffsets: [UInt16] = []
    var groupStart = 0
    for i in ends.indices {
      let offset = start(i)
      if i % groupSize == 0 {
        groupStart = offset
        // Past 4 GiB the section is refused as a whole (IndexImageWriter.checkSectionSize).
        groupOffsets.append(UInt32(truncatingIfNeeded: offset))
      }
      if i % RecordTable.blockSize == 0 { blockOffsets.append(UInt16(offset - groupStart)) }
    }
    var w = ByteWriter()
    w.reserveCapacity(8 + 4 * groupOffsets.count + 2 * blockOffsets.count + data.count)
    w.u32(UInt32(ends.count))
    w.u32(UInt32(groupSize))
    for o in groupOffsets { w.u32(o) }
    for o in blockOffsets { w.u16(o) }
    w.append(data)
    return w.bytes
  }
}
