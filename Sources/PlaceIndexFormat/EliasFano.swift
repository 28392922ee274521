// An Elias–Fano sequence: k strictly increasing values below a universe u in about
// k × (2 + log2(u / k)) bits, read forward from any value on (NEAR LISTS holds one per list).
//   u8  lowBits L              0...32; the writer takes floor(log2(u / k)) (0 when u < 2k)
//   3 bytes zero
//   u32 count k
//   u32 highWords W            the high bits' length in 64-bit words
//   u32 samples[ceil(k / 64)]  sample s: the position in the high bits of value 64s's bit
//   u64 high[W]                value i sets bit (v_i >> L) + i, counting from bit 0 of word 0;
//                              no other bit is set
//   low bits                   k × L bits, low bits first: v_i & (2^L - 1)
// A value is its bit's position minus its index, shifted, and its low field; a seek is a
// binary search over the samples, then at most 64 steps along the high bits.

/// One Elias–Fano sequence in a section, checked to fit when opened.
package struct EliasFano {
  /// Values per sample.
  static let sampleEvery = 64
  /// Bytes before the samples.
  static let headerSize = 12
  let reader: ByteReader
  /// Where the sequence starts in `reader`'s buffer.
  let start: Int
  /// Number of values.
  package let count: Int
  let lowBits: Int
  let highWords: Int
  let highStart: Int
  let lowStart: Int
  /// One past the sequence's last byte, relative to the buffer.
  package let end: Int

  /// The sequence at `start` of `reader`'s buffer, which must end by `limit`.
  package init(_ reader: ByteReader, at start: Int, limit: Int) throws(IndexFormatError) {
    var r = reader
    r.offset = start
    guard start >= 0, limit <= reader.buffer.count, start + Self.headerSize <= limit else {
      throw reader.fault("a sequence's header runs past its end", at: max(0, start))
    }
    lowBits = Int(try r.u8())
    _ = try r.u8()
    _ = try r.u16()
    count = Int(try r.u32())
    highWords = Int(try r.u32())
    guard lowBits <= 32 else { throw reader.fault("\(lowBits) low bits, more than 32", at: start) }
    // Every value sets one bit: the high bits hold at least `count`.
    guard count <= 64 * highWords else {
      throw reader.fault("\(count) values do not fit \(highWords) words", at: start + 8)
    }
    highStart = start + Self.headerSize + 4 * ((count + Self.sampleEvery - 1) / Self.sampleEvery)
    lowStart = highStart + 8 * highWords
    end = lowStart + (count * lowBits + 7) / 8
    guard end <= limit else {
      throw reader.fault("a sequence of \(count) values runs past its end", at: start)
    }
    self.reader = reader
    self.start = start
  }

  /// The position in the high bits of value `i`'s bit, from the sample before it.
  @inline(__always)
  private func highPosition(_ i: Int) throws(IndexFormatError) -> Int {
    try Self.bitPosition(
      reader, samples: start + Self.headerSize, highStart: highStart, highWords: highWords,
      of: i, naming: "value")
  }

  /// The position of the `i`-th set bit of high bits of `highWords` 64-bit words at
  /// `highStart`, from the u32 table at `samples` that holds the position of every 64th one
  /// (as PLACE IDS and these sequences keep them); `naming` names an item in an error.
  @inline(__always)
  static func bitPosition(
    _ reader: ByteReader, samples: Int, highStart: Int, highWords: Int, of i: Int,
    naming: StaticString
  ) throws(IndexFormatError) -> Int {
    let s = i / sampleEvery
    let sample = Int(try reader.u32(at: samples, index: s))
    var skip = i % sampleEvery
    var w = sample >> 6
    guard w < highWords else {
      throw reader.fault("sample \(s) points past the high bits", at: samples + 4 * s)
    }
    var word = try reader.u64(at: highStart, index: w) & (~0 << UInt64(sample & 63))
    while true {
      let ones = word.nonzeroBitCount
      if skip < ones { break }
      skip -= ones
      w += 1
      guard w < highWords else {
        throw reader.fault("\(naming) \(i) runs past the high bits", at: highStart)
      }
      word = try reader.u64(at: highStart, index: w)
    }
    for _ in 0..<skip { word &= word - 1 }
    return w << 6 + word.trailingZeroBitCount
  }

  /// The low field of value `i`.
  @inline(__always)
  func low(_ i: Int) throws(IndexFormatError) -> Int {
    lowBits == 0
      ? 0 : try BitPacking.value(reader, start: lowStart, index: i, bits: lowBits, limit: .max)
  }

  /// Value `i` (no check that the sequence increases: ``verify(universe:)`` does).
  package func value(_ i: Int) throws(IndexFormatError) -> Int {
    guard i >= 0, i < count else { throw reader.fault("value \(i) of \(count)", at: start) }
    let high = try highPosition(i) - i
    guard high >= 0 else { throw reader.fault("value \(i)'s bit lies before it", at: highStart) }
    return high << lowBits | (try low(i))
  }

  /// A cursor at the first value at least `value` (at the end when there is none).
  package func cursor(from value: Int) throws(IndexFormatError) -> EliasFanoCursor {
    var cursor = EliasFanoCursor(self)
    try cursor.seek(to: value)
    return cursor
  }

  /// Checks that the sequence holds exactly `count` set bits, that the samples point at
  /// theirs, and that the values strictly increase below `universe`.
  package func verify(universe: Int) throws(IndexFormatError) {
    var i = 0
    var previous = -1
    for w in 0..<highWords {
      var word = try reader.u64(at: highStart, index: w)
      while word != 0 {
        let position = w << 6 + word.trailingZeroBitCount
        word &= word - 1
        guard i < count else {
          throw reader.fault("more than \(count) bits set in the high bits", at: highStart + 8 * w)
        }
        if i % Self.sampleEvery == 0 {
          let s = i / Self.sampleEvery
          guard Int(try reader.u32(at: start + Self.headerSize, index: s)) == position else {
            throw reader.fault(
              "sample \(s) is not value \(i)'s bit \(position)", at: start + Self.headerSize + 4 * s
            )
          }
        }
        let v = (position - i) << lowBits | (try low(i))
        guard v > previous, v < universe else {
          throw reader.fault(
            "value \(i), \(v), is not above \(previous) and below \(universe)", at: highStart)
        }
        previous = v
        i += 1
      }
    }
    guard i == count else {
      throw reader.fault("\(i) bits set in the high bits for \(count) values", at: highStart)
    }
  }
}

/// Reads an ``EliasFano`` sequence forward.
package struct EliasFanoCursor {
  let list: EliasFano
  /// The index of the next value.
  private(set) var index = 0
  /// The high word being read, with the bits before the next value's cleared.
  private var word: UInt64 = 0
  private var w = -1

  init(_ list: EliasFano) { self.list = list }

  /// Positions the cursor at value `i`, a multiple of the sample spacing.
  mutating func jump(to i: Int) throws(IndexFormatError) {
    index = i
    guard i < list.count else { return }
    let sample = Int(try list.reader.u32(at: list.start + EliasFano.headerSize, index: i / 64))
    w = sample >> 6
    guard w < list.highWords else {
      throw list.reader.fault("sample \(i / 64) points past the high bits", at: list.start)
    }
    word = try list.reader.u64(at: list.highStart, index: w) & (~0 << UInt64(sample & 63))
  }

  /// The next value's bit position, without moving past it.
  @inline(__always)
  private mutating func position() throws(IndexFormatError) -> Int {
    while word == 0 {
      w += 1
      guard w < list.highWords else {
        throw list.reader.fault("value \(index) runs past the high bits", at: list.highStart)
      }
      word = try list.reader.u64(at: list.highStart, index: w)
    }
    return w << 6 + word.trailingZeroBitCount
  }

  /// The next value, without moving past it; nil at the end.
  @inline(__always)
  package mutating func peek() throws(IndexFormatError) -> Int? {
    guard index < list.count else { return nil }
    let high = try position() - index
    guard high >= 0 else {
      throw list.reader.fault("value \(index)'s bit lies before it", at: list.highStart)
    }
    return high << list.lowBits | (try list.low(index))
  }

  /// Moves past the next value.
  @inline(__always)
  package mutating func advance() throws(IndexFormatError) {
    _ = try position()
    word &= word - 1
    index += 1
  }

  /// Moves to the first value at least `value`, never back: through the samples after the
  /// cursor's (a binary search), then along at most 64 values.
  package mutating func seek(to value: Int) throws(IndexFormatError) {
    guard let v = try peek(), v < value else { return }
    let every = EliasFano.sampleEvery
    var (lo, hi) = (index / every + 1, (list.count - 1) / every + 1)
    while lo < hi {
      let mid = (lo + hi) / 2
      if try list.value(mid * every) < value { lo = mid + 1 } else { hi = mid }
    }
    // Sample lo - 1 is the last below `value`; one after the cursor's is worth the jump.
    if lo - 1 > index / every { try jump(to: (lo - 1) * every) }
    while let v = try peek(), v < value { try advance() }
  }

  /// The next value, or nil at the end.
  @inline(__always)
  package mutating func next() throws(IndexFormatError) -> Int? {
    guard let v = try peek() else { return nil }
    try advance()
    return v
  }
}

/// Writes ``EliasFano`` sequences.
package enum EliasFanoWriter {
  /// The bytes of the sequence of `values`, strictly increasing and below `universe`.
  package static func encode(_ values: [Int], universe: Int) -> [UInt8] {
    var w = ByteWriter()
    encode(values, universe: universe, into: &w)
    return w.bytes
  }

  /// Appends the sequence of `values` (strictly increasing and below `universe`) to `w`,
  /// holding no more than its high bits besides (a list of a country's places is millions).
  package static func encode<Values: RandomAccessCollection>(
    _ values: Values, universe: Int, into w: inout ByteWriter
  ) where Values.Element: BinaryInteger {
    let k = values.count
    precondition(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    precondition(values.allSatisfy { $0 >= 0 && $0 < universe })
    let ratio = k == 0 ? 0 : universe / k
    let lowBits = ratio < 2 ? 0 : min(32, Int.bitWidth - 1 - ratio.leadingZeroBitCount)
    let highBits = k + (Int(values.last ?? 0) >> lowBits) + 1
    var high = [UInt64](repeating: 0, count: (highBits + 63) / 64)
    w.u8(UInt8(lowBits))
    w.append([0, 0, 0])
    w.u32(UInt32(k))
    w.u32(UInt32(high.count))
    for (i, v) in values.enumerated() {
      let position = (Int(v) >> lowBits) + i
      high[position >> 6] |= 1 << UInt64(position & 63)
      if i % EliasFano.sampleEvery == 0 { w.u32(UInt32(position)) }
    }
    high.forEach { w.u64($0) }
    // The low fields, low bits first.
    let mask = UInt64(1) << UInt64(lowBits) - 1
    var (pending, have) = (UInt64(0), 0)
    for v in values {
      pending |= (UInt64(v) & mask) << UInt64(have)
      have += lowBits
      while have >= 8 {
        w.u8(UInt8(truncatingIfNeeded: pending))
        pending >>= 8
        have -= 8
      }
    }
    if have > 0 { w.u8(UInt8(truncatingIfNeeded: pending)) }
  }
}

extension Array where Element: Comparable {
  /// Sorts the values and keeps each once, as an ``EliasFano`` sequence takes them.
  /// Inlinable, so that each caller's element type gets its own sort: called across modules
  /// without it, the sort ran generic over value witnesses, a third of a one-letter search
  /// with an origin (its near places' sort).
  @inlinable
  package mutating func sortAndRemoveDuplicates() {
    sort()
    var unique = 0
    for i in indices where unique == 0 || self[unique - 1] != self[i] {
      self[unique] = self[i]
      unique += 1
    }
    removeLast(count - unique)
  }
}
