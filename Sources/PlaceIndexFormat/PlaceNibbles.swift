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

  /// The first rank from `rank` on whose value is at most `k`, or nil when none is. Reads 16
  /// values a word for `k` below 8: a word none of whose values is below `k` + 1 is passed
  /// whole (a nibble below it borrows in `x - (k + 1) · 0x11…1`, and the lowest such nibble
  /// shows its high bit; a borrow it passes up can only mark nibbles above it).
  package func firstAtMost(_ k: Int, from rank: Int) -> Int? {
    var r = max(rank, 0)
    while r < count && (r & 15 != 0 || k >= 8) {
      if self[r] <= k { return r }
      r += 1
    }
    guard k >= 0 else { return nil }
    let ones: UInt64 = 0x1111_1111_1111_1111
    let highs: UInt64 = 0x8888_8888_8888_8888
    let below = ones &* UInt64(k + 1)
    while r + 16 <= count {
      let x = UInt64(
        littleEndian: reader.buffer.loadUnaligned(fromByteOffset: 8 + r >> 1, as: UInt64.self))
      if (x &- below) & ~x & highs != 0 {
        for i in 0..<16 where Int((x >> UInt64(4 * i)) & 15) <= k { return r + i }
      }
      r += 16
    }
    while r < count {
      if self[r] <= k { return r }
      r += 1
    }
    return nil
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

/// A section whose values are ``PlaceNibbles`` (NAME WORDS, NAME STARTS): how it is opened
/// and checked.
package protocol PlaceNibblesSection: Sendable {
  /// The section's name in messages.
  static var sectionName: StaticString { get }
  /// The values, one per place.
  var values: PlaceNibbles { get }
  init(values: PlaceNibbles)
}

extension PlaceNibblesSection {
  /// Reads the header and checks that the values fit; `placeCount` is PLACES' count.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    self.init(
      values: try PlaceNibbles(
        bytes, section: Self.sectionName, fileOffset: fileOffset, placeCount: placeCount))
  }

  /// Number of places.
  package var count: Int { values.count }

  /// Checks every place's value against `expected` (by rank; what a value of 15 stands for
  /// stands for everything from 15 on), with `fault` saying what differs.
  package func verify(
    _ expected: (Int) throws(IndexFormatError) -> Int,
    fault: (_ rank: Int, _ stored: Int, _ expected: Int) -> String
  ) throws(IndexFormatError) {
    for rank in 0..<count {
      let stored = values[rank]
      let want = try expected(rank)
      guard stored == min(max(want, 0), PlaceNibbles.most) else {
        throw values.fault(fault(rank, stored, want), rank: rank)
      }
    }
  }
}
