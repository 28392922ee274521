import Foundation
import PlaceIndexFormat

/// Every token of an index's dictionary decoded into one buffer, for finding the tokens a word
/// lies inside ("bergerhaus" in "rheinbergerhaus") with one pass over plain bytes.
///
/// Built on the first such search (the dictionary is front-coded and Huffman-coded, too slow to
/// decode on every one): each token's bytes plus 5.
struct TokenText: Sendable {
  /// The tokens in id order, each followed by a 0 byte (no folded token holds one).
  private let bytes: [UInt8]
  /// Where token `id` starts in `bytes`.
  private let starts: [Int32]
  /// How often each byte value occurs in `bytes`: a search looks for its needle's rarest byte.
  private let frequency: [Int]

  /// Decodes every token of `dictionary`.
  init(_ dictionary: TokenDictionary) throws(IndexFormatError) {
    var bytes: [UInt8] = []
    var starts: [Int32] = []
    starts.reserveCapacity(dictionary.count)
    try dictionary.forEach { (_, token) throws(IndexFormatError) in
      guard let start = Int32(exactly: bytes.count) else {
        throw IndexFormatError.corrupt(
          path: "", section: "TOKENS", offset: 0, reason: "the tokens' text passes 2 GiB")
      }
      starts.append(start)
      bytes.append(contentsOf: token)
      bytes.append(0)
    }
    var frequency = [Int](repeating: 0, count: 256)
    for b in bytes { frequency[Int(b)] += 1 }
    self.bytes = bytes
    self.starts = starts
    self.frequency = frequency
  }

  /// Ids of the tokens that hold `needle` past their first byte, in order, at most `limit`.
  ///
  /// The bytes are UTF-8: a needle starts with a lead byte, which no continuation byte
  /// equals, so a match starts on a scalar boundary of its token, past its first letter. The
  /// scan jumps (memchr) from one place of the needle's rarest byte to the next, and checks the
  /// needle around each.
  func tokens(holding needle: [UInt8], limit: Int) -> [Int] {
    guard !needle.isEmpty, !needle.contains(0) else { return [] }
    let n = needle.count
    // The needle's byte the text holds least often, and where in the needle it lies.
    let k = needle.indices.min { frequency[Int(needle[$0])] < frequency[Int(needle[$1])] }!
    let pivot = Int32(needle[k])
    var out: [Int] = []
    bytes.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress else { return }
      var i = 0  // the next needle start to consider
      while i + n <= b.count && out.count < limit {
        // The next place of the pivot byte at or after i + k.
        guard let hit = memchr(base + i + k, pivot, b.count - (i + k)) else { return }
        let start = UnsafeRawPointer(hit) - UnsafeRawPointer(base) - k
        guard start + n <= b.count else { return }
        var j = 0
        while j < n && b[start + j] == needle[j] { j += 1 }
        guard j == n else {
          i = start + 1
          continue
        }
        // The token that holds position start: the last one starting at or before it.
        var lo = 0
        var hi = starts.count
        while lo < hi {
          let mid = (lo + hi) >> 1
          if Int(starts[mid]) <= start { lo = mid + 1 } else { hi = mid }
        }
        let id = lo - 1
        guard start > Int(starts[id]) else {
          // At the token's start: it may still hold the needle further on.
          i = start + 1
          continue
        }
        out.append(id)
        // On to the next token: a token counts once.
        i = id + 1 < starts.count ? Int(starts[id + 1]) : b.count
      }
    }
    return out
  }
}
