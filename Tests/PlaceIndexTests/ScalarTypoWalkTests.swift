import TestSupport
import Testing

@testable import PlaceIndex

/// The typo walk over words in several scripts: its distances count Unicode scalars, and the
/// columns it keeps across words sharing a byte prefix that ends inside a scalar are right.
@Suite struct ScalarTypoWalkTests {
  /// Letters of 1 to 4 bytes; the Cyrillic ones share lead bytes (а, п: D0; р, я: D1), the
  /// CJK ones their first two bytes, so sorted words often share a prefix that ends inside a
  /// letter.
  static let letters: [Unicode.Scalar] = [
    "a", "b", "а", "п", "р", "я", "α", "ω", "中", "丰", "丹", "東", "😀", "😁",
  ]

  /// Sorted (bytewise) random words over ``letters``.
  static func words(_ random: inout SplitMix64, count: Int) -> [[UInt8]] {
    var set = Set<[UInt8]>()
    while set.count < count {
      let n = 1 + Int(random.next() % 9)
      var s = String.UnicodeScalarView()
      for _ in 0..<n { s.append(letters[Int(random.next() % UInt64(letters.count))]) }
      set.insert(Array(String(s).utf8))
    }
    return set.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The query seeded from a word with one or two scalar edits.
  static func query(from word: [UInt8], _ random: inout SplitMix64) -> [UInt32] {
    var q = TypoDistance.scalars(word)
    for _ in 0..<(1 + Int(random.next() % 2)) where q.count > 1 {
      let at = 1 + Int(random.next() % UInt64(q.count - 1))
      let letter = letters[Int(random.next() % UInt64(letters.count))].value
      switch random.next() % 4 {
      case 0: q[at] = letter
      case 1: q.remove(at: at)
      case 2: q.insert(letter, at: at)
      default: if at + 1 < q.count { q.swapAt(at, at + 1) }
      }
    }
    return q
  }

  @Test func walkAgreesWithTheDistanceOverScalars() {
    var random = SplitMix64(seed: 23)
    let words = Self.words(&random, count: 3000)
    var matched = 0
    var midScalar = 0
    var skipped = 0
    for _ in 0..<60 {
      let query = Self.query(from: words[Int(random.next() % UInt64(words.count))], &random)
      let limit = max(1, Ranking.allowedEdits(length: query.count))
      var walk = TypoWalk(scalars: query, limit: limit)
      var previous: [UInt8] = []
      for (k, word) in words.enumerated() {
        let shared = zip(previous, word).prefix { $0 == $1 }.count
        if shared < word.count && word[shared] & 0xC0 == 0x80 { midScalar += 1 }
        let expected = TypoDistance.prefixDistance(query, TypoDistance.scalars(word), limit: limit)
        let found = walk.matches(word, shared: shared)
        #expect(found == (expected != nil), "\(String(decoding: word, as: UTF8.self))")
        if found { matched += 1 }
        if !found && walk.deadDepth > 0 {
          // No later word sharing the dead prefix's bytes can match.
          let prefix = word[0..<walk.deadBytes]
          #expect(TypoDistance.scalars(Array(prefix)).count == walk.deadDepth)
          // Sorted: the words that share it follow this one.
          for later in words[(k + 1)...] {
            guard later.starts(with: prefix) else { break }
            skipped += 1
            #expect(
              TypoDistance.prefixDistance(query, TypoDistance.scalars(later), limit: limit) == nil)
          }
        }
        previous = word
      }
    }
    #expect(matched > 100)
    #expect(midScalar > 1000)
    #expect(skipped > 100)
  }

  /// One Cyrillic or CJK letter deleted, substituted or swapped is one edit, not two or more
  /// as its bytes would make it.
  @Test func aLetterBeyondAsciiIsOneEdit() {
    for (word, typo) in [
      ("сбербанк", "сбрбанк"), ("сбербанк", "сбнрбанк"), ("сбербанк", "сбребанк"),
      ("中山纪念图书馆", "中山纪图书馆"), ("ακροπολη", "ακροπλοη"), ("😀😁😀😁😀", "😀😀😀😁😀"),
    ] {
      let w = Array(word.utf8)
      let q = Array(typo.utf8)
      #expect(TypoDistance.prefixDistance(q, w, limit: 1) == 1, "\(typo)")
      var walk = TypoWalk(query: q, limit: 1)
      let found = walk.matches(w, shared: 0)
      #expect(found, "\(typo)")
    }
  }

  /// A word with bytes that are not UTF-8 (a damaged dictionary) is walked without a trap,
  /// and its broken bytes match no query letter.
  @Test func brokenBytesMatchNothing() {
    var walk = TypoWalk(query: Array("сбербанк".utf8), limit: 1)
    let broken: [[UInt8]] = [
      [0xD1], [0xD1, 0x81], [0xD1, 0x81, 0xD0], [0xD1, 0x81, 0xD0, 0x41], [0xFF, 0xFE],
      [0x80, 0x80, 0x80], Array("сбербан".utf8) + [0xD0],
    ]
    var previous: [UInt8] = []
    for word in broken {
      let shared = zip(previous, word).prefix { $0 == $1 }.count
      _ = walk.matches(word, shared: shared)
      previous = word
    }
    // The previous word's last byte (a cut-short letter) is shared, its letter is not.
    let whole = Array("сбербанк".utf8)
    let wholeFound = walk.matches(whole, shared: zip(previous, whole).prefix { $0 == $1 }.count)
    #expect(wholeFound)
    let brokenFound = walk.matches([0xD1, 0x81, 0xD0, 0x41, 0x41, 0x41, 0x41], shared: 0)
    #expect(!brokenFound)
  }
}
