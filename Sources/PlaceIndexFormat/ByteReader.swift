/// Reads little-endian integers and varints from a byte range, checking every bound.
///
/// Every read that would pass the end of the range throws ``IndexFormatError/corrupt(path:section:offset:reason:)``
/// instead of reading out of bounds; the offset reported is relative to the file start.
package struct ByteReader {
  /// The bytes being read.
  package let buffer: UnsafeRawBufferPointer
  /// Where `buffer` starts in the file, for error messages.
  package let fileOffset: Int
  /// The section name, for error messages.
  package let section: StaticString
  /// The next byte to read, relative to `buffer`.
  package var offset: Int

  /// Creates a reader over `buffer`, starting at `offset`.
  package init(
    _ buffer: UnsafeRawBufferPointer, section: StaticString, fileOffset: Int = 0, offset: Int = 0
  ) {
    self.buffer = buffer
    self.section = section
    self.fileOffset = fileOffset
    self.offset = offset
  }

  /// Bytes left after the current offset.
  package var remaining: Int { buffer.count - offset }

  /// An error for a fault at `at` (relative to the buffer).
  package func fault(_ reason: String, at: Int? = nil) -> IndexFormatError {
    .corrupt(
      path: "", section: "\(section)", offset: fileOffset + (at ?? offset), reason: reason)
  }

  @inline(__always)
  mutating func need(_ n: Int) throws(IndexFormatError) {
    guard n >= 0, n <= buffer.count - offset, offset >= 0 else {
      throw fault("needs \(n) bytes, \(max(0, buffer.count - offset)) left")
    }
  }

  /// Reads one byte.
  @inline(__always)
  package mutating func u8() throws(IndexFormatError) -> UInt8 {
    try need(1)
    defer { offset += 1 }
    return buffer[offset]
  }

  /// Reads 2 little-endian bytes.
  package mutating func u16() throws(IndexFormatError) -> UInt16 {
    try need(2)
    defer { offset += 2 }
    return UInt16(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  /// Reads 4 little-endian bytes.
  package mutating func u32() throws(IndexFormatError) -> UInt32 {
    try need(4)
    defer { offset += 4 }
    return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// Reads 8 little-endian bytes.
  package mutating func u64() throws(IndexFormatError) -> UInt64 {
    try need(8)
    defer { offset += 8 }
    return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// Reads an unsigned LEB128 varint of at most 10 bytes.
  @inline(__always)
  package mutating func varint() throws(IndexFormatError) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < buffer.count else { throw fault("varint runs past the end") }
      let b = buffer[offset]
      offset += 1
      if shift == 63 && b > 1 { throw fault("varint overflows 64 bits", at: offset - 1) }
      result |= UInt64(b & 0x7F) << shift
      if b < 0x80 { return result }
      shift += 7
    }
  }

  /// Moves past a varint without decoding it (a reader skipping fields it does not need).
  @inline(__always)
  package mutating func skipVarint() throws(IndexFormatError) {
    while true {
      guard offset < buffer.count else { throw fault("varint runs past the end") }
      let b = buffer[offset]
      offset += 1
      if b < 0x80 { return }
    }
  }

  /// Reads a varint that must be below `limit` (a count or an index).
  @inline(__always)
  package mutating func varint(below limit: Int) throws(IndexFormatError) -> Int {
    let start = offset
    let v = try varint()
    guard v < UInt64(limit) else {
      throw fault("value \(v) out of range (limit \(limit))", at: start)
    }
    return Int(v)
  }

  /// Reads a zigzag-encoded signed varint.
  package mutating func zigzag() throws(IndexFormatError) -> Int64 {
    let v = try varint()
    return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
  }

  /// The same reader, its bytes ending at `end` (an offset in `buffer`, at least `offset`):
  /// offsets and the file offset stay those of this reader, so errors name the same bytes.
  package func limited(to end: Int) -> ByteReader {
    ByteReader(
      UnsafeRawBufferPointer(rebasing: buffer[0..<end]), section: section,
      fileOffset: fileOffset, offset: offset)
  }

  /// Reads `count` raw bytes.
  package mutating func bytes(_ count: Int) throws(IndexFormatError) -> UnsafeRawBufferPointer {
    try need(count)
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
  }

  /// Reads the little-endian UInt32 at `index` of a table that starts at `tableOffset`.
  @inline(__always)
  package func u32(at tableOffset: Int, index: Int) throws(IndexFormatError) -> UInt32 {
    try entry(at: tableOffset, index: index)
  }

  /// Reads the little-endian UInt64 at `index` of a table that starts at `tableOffset`.
  @inline(__always)
  package func u64(at tableOffset: Int, index: Int) throws(IndexFormatError) -> UInt64 {
    try entry(at: tableOffset, index: index)
  }

  /// Reads the little-endian UInt16 at `index` of a table that starts at `tableOffset`.
  @inline(__always)
  package func u16(at tableOffset: Int, index: Int) throws(IndexFormatError) -> UInt16 {
    try entry(at: tableOffset, index: index)
  }

  /// Reads the little-endian `T` at `index` of a table of them that starts at `tableOffset`.
  @inline(__always)
  private func entry<T: FixedWidthInteger>(at tableOffset: Int, index: Int) throws(IndexFormatError)
    -> T
  {
    let size = MemoryLayout<T>.size
    let at = tableOffset + size * index
    guard index >= 0, at >= 0, at <= buffer.count - size else {
      throw fault("table entry \(index) out of range", at: at)
    }
    return T(littleEndian: buffer.loadUnaligned(fromByteOffset: at, as: T.self))
  }
}
