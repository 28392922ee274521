// The layout of a section of one 4-bit value per place, by rank (NAME WORDS since 7.2, NAME
// STARTS since 7.3):
//   u32 count      equals the place count
//   u32 zero
//   count × 4 bits, place i in the low half of byte i / 2 when i is even, the high half when
//   odd

/// One value of 0...15 per place, by rank: the storage of NAME WORDS and NAME STARTS.
package struct PlaceNibbles: @unchecked Sendable {
  // @unchecked: the reader points into the file's bytes, which never change while mapped.
  /// The largest value a place holds.
  package static let most = 15
  let reader: ByteReader
  /// Number of places.
  package let count: Int

  /// Reads the header of section `section` and checks that the values fit; `placeCount` is
  /// PLACES' count.
  package init(
    _ bytes: UnsafeRawBufferPointer, section: StaticString, fileOffset: Int, placeCount: Int
  ) throws(IndexFormatError) {
    var r = ByteReader(bytes, section: section, fileOffset: fileOffset)
    count = Int(try r.u32())
    _ = try r.u32()
    guard count == placeCount else {
      throw r.fault("\(count) values for \(placeCount) places", at: 0)
    }
    guard (count + 1) / 2 <= r.remaining else {
      throw r.fault("\(count) values run past the end", at: 0)
    }
    reader = r
  }

  /// Place `rank`'s value.
  @inline(__always)
  package subscript(rank: Int) -> Int {
    let byte = Int(reader.buffer[8 + rank >> 1])
    return rank & 1 == 0 ? byte & 15 : byte >> 4
  }

  /// An error at place `rank`'s value.
  package func fault(_ message: String, rank: Int) -> IndexFormatError {
    reader.fault(message, at: 8 + rank >> 1)
  }

  /// The section for `values` in rank order, each clamped to 0...``most``.
  package static func serialize<Values: Collection>(_ values: Values) -> [UInt8]
  where Values.Element: BinaryInteger {
    var w = ByteWriter()
    w.u32(UInt32(values.count))
    w.u32(0)
    var packed = [UInt8](repeating: 0, count: (values.count + 1) / 2)
    for (i, n) in values.enumerated() {
      packed[i >> 1] |= UInt8(min(max(Int(n), 0), most)) << (i & 1 == 0 ? 0 : 4)
    }
    w.append(packed)
    return w.bytes
  }
}
