/// A set of place ranks as a bitmap.
struct PlaceSet {
  private var words: [UInt64]

  init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

  /// The set whose bitmap is `words` (64 ranks a word, low bit first).
  init(words: [UInt64]) { self.words = words }

  @inline(__always)
  func contains(_ rank: Int) -> Bool { words[rank >> 6] & (1 << UInt64(rank & 63)) != 0 }

  @inline(__always)
  mutating func insert(_ rank: Int) { words[rank >> 6] |= 1 << UInt64(rank & 63) }

  /// The smallest rank from `start` on in this set or in `other` (when given), or nil.
  func first(from start: Int, orIn other: PlaceSet?) -> Int? {
    var w = start >> 6
    guard w < words.count else { return nil }
    var bits = (words[w] | (other?.words[w] ?? 0)) & (~0 << UInt64(start & 63))
    while bits == 0 {
      w += 1
      guard w < words.count else { return nil }
      bits = words[w] | (other?.words[w] ?? 0)
    }
    return w << 6 | bits.trailingZeroBitCount
  }
}
