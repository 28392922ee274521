import Foundation
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// One value per place (NAME WORDS, NAME STARTS): the search for the next place whose value
/// is small enough, which reads 16 values a word, finds what reading them one by one finds.
@Suite struct PlaceNibblesTests {
  /// A section of `values`, opened as NAME WORDS is.
  func opened(_ values: [Int], _ body: (PlaceNibbles) throws -> Void) throws {
    let bytes = PlaceNibbles.serialize(values)
    try bytes.withUnsafeBytes { raw in
      try body(
        try PlaceNibbles(raw, section: "NAME WORDS", fileOffset: 0, placeCount: values.count))
    }
  }

  @Test(arguments: [0, 1, 15, 16, 17, 31, 33, 200, 1_000])
  func theFirstValueAtMostKIsTheOneAScanFinds(_ count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count) &* 13 &+ 5)
    // Mostly long names (large values), a few short ones, as NAME WORDS holds them for the
    // places of a word; and runs of one value.
    let values = (0..<count).map { i -> Int in
      if i % 37 < 5 { return 4 }
      return rng.below(10) == 0 ? rng.below(16) : 3 + rng.below(13)
    }
    var checked = 0
    var found = 0
    try opened(values) { nibbles in
      for k in [-1, 0, 1, 2, 3, 4, 7, 8, 14, 15] {
        for from in Set([
          0, 1, 15, 16, count / 2, count - 1, count, count + 3, rng.below(count + 1),
        ]) {
          let expected = values.indices.first { $0 >= from && values[$0] <= k }
          #expect(
            nibbles.firstAtMost(k, from: from) == expected, "k \(k) from \(from) of \(count)")
          checked += 1
          if expected != nil { found += 1 }
        }
      }
    }
    #expect(checked >= 40)
    if count >= 200 { #expect(found > 20) }
  }
}
