/// Fixed-width unsigned integers packed low bits first, as PLACE IDS and GEO store place
/// indexes and keys.
enum BitPacking {
  /// The bytes holding `values`, each in `bits` bits.
  static func pack(_ values: [Int], bits: Int) -> [UInt8] {
    var packed = [UInt8](repeating: 0, count: (values.count * bits + 7) / 8)
    for (i, value) in values.enumerated() {
      let bit = i * bits
      for k in 0..<bits where (value >> k) & 1 == 1 {
        packed[(bit + k) / 8] |= 1 << ((bit + k) % 8)
      }
    }
    return packed
  }

  /// The width that holds every place index below `count`: at least 1 bit.
  static func width(for count: Int) -> Int {
    max(1, Int.bitWidth - max(0, count - 1).leadingZeroBitCount)
  }

  /// Value `i` of the packed array that starts at offset `start` of `reader`'s buffer; it must
  /// be below `limit`.
  @inline(__always)
  static func value(_ reader: ByteReader, start: Int, index i: Int, bits: Int, limit: Int)
    throws(IndexFormatError) -> Int
  {
    let bit = i * bits
    let shift = bit & 7
    let first = start + bit >> 3
    let bytes = (shift + bits + 7) >> 3
    guard i >= 0, first >= 0, first <= reader.buffer.count - bytes else {
      throw reader.fault("packed value \(i) runs past the end", at: max(0, first))
    }
    // Read from the buffer in place: no reader is copied per value.
    var value: UInt64 = 0
    for k in 0..<bytes { value |= UInt64(reader.buffer[first + k]) << (8 * k) }
    let v = Int((value >> shift) & ((1 << bits) - 1))
    guard v < limit else {
      throw reader.fault("place index \(v) out of range", at: start + bit / 8)
    }
    return v
  }

  /// Reads GEO's header, `u32 count, u8 bits`, checking that the count is the place count and
  /// that the width holds every place index.
  static func header(_ r: inout ByteReader, placeCount: Int) throws(IndexFormatError) -> (
    count: Int, bits: Int
  ) {
    let count = Int(try r.u32())
    let bits = Int(try r.u8())
    guard count == placeCount else {
      throw r.fault("\(count) entries for \(placeCount) places", at: 0)
    }
    guard bits >= 1, bits <= 32, count == 0 || (count - 1) >> bits == 0 else {
      throw r.fault("entry width \(bits) bits cannot hold \(count) places", at: 4)
    }
    return (count, bits)
  }
}
