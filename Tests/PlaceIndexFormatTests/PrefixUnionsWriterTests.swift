import Foundation
import Testing

@testable import PlaceIndexFormat

/// Which prefixes' ranges PREFIX UNIONS holds: checked against every prefix of a seeded
/// dictionary (fst's `prop_emits_inputs` style), multi-byte letters included.
@Suite struct PrefixUnionsWriterTests {
  /// A seeded dictionary over a few letters, one of them two bytes long (é), sorted by bytes.
  static func dictionary(seed: UInt64, count: Int) -> [String] {
    var state = seed
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let letters: [String] = ["a", "b", "é", "c"]
    var words = Set<String>()
    while words.count < count {
      let n = 1 + Int(next() % 5)
      words.insert((0..<n).map { _ in letters[Int(next() % 4)] }.joined())
    }
    return words.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  @Test(arguments: [(1, 2), (2, 5), (3, 40)])
  func theRangesAreThePrefixesOfManyTokens(seed: Int, minimum: Int) {
    let tokens = Self.dictionary(seed: UInt64(seed), count: 300)
    let ranges = PrefixUnionsWriter.ranges(tokens, minimum: minimum)
    // Every prefix a user can type (whole letters), its range by brute force.
    var expected = Set<Range<Int>>()
    var prefixes = Set<String>()
    for t in tokens {
      for n in 1...t.count { prefixes.insert(String(t.prefix(n))) }
    }
    for p in prefixes {
      let ids = tokens.indices.filter { tokens[$0].utf8.starts(with: p.utf8) }
      guard ids.count >= minimum else { continue }
      #expect(ids.last! - ids.first! + 1 == ids.count, "\(p)'s tokens are consecutive")
      expected.insert(ids.first!..<(ids.last! + 1))
    }
    #expect(Set(ranges) == expected)
    #expect(ranges.count == expected.count, "each range once")
    #expect(!ranges.isEmpty)
    // The section's order: first token ascending, then end descending.
    for (a, b) in zip(ranges, ranges.dropFirst()) {
      #expect(
        a.lowerBound < b.lowerBound || (a.lowerBound == b.lowerBound && a.upperBound > b.upperBound)
      )
    }
  }

  @Test func aWrittenSectionFindsEachRangeAndItsSum() throws {
    let tokens = Self.dictionary(seed: 9, count: 200)
    let ranges = PrefixUnionsWriter.ranges(tokens, minimum: 3)
    // Token t's places: a seeded handful of 1,000.
    let placeCount = 1_000
    var lists: [[[UInt32]]] = []
    for t in tokens.indices {
      lists.append(
        (0..<3).map { part in
          Array(Set((0..<(t % 7)).map { UInt32((t * 37 + $0 * 101 + part * 13) % placeCount) }))
            .sorted()
        })
    }
    let bytes = PrefixUnionsWriter.serialize(ranges) { t in
      (lists[t][0][...], lists[t][1][...], lists[t][2][...])
    }
    let mapped = MappedBytes(copying: bytes)
    let unions = try PrefixUnions(mapped.buffer, fileOffset: 0)
    #expect(unions.count == ranges.count)
    for (i, r) in ranges.enumerated() {
      #expect(try unions.find(r) == i)
      let e = try unions.entry(i)
      #expect(e.sum == r.reduce(0) { $0 + lists[$1].reduce(0) { $0 + $1.count } })
    }
    // Ranges it does not hold are not found.
    #expect(try unions.find(0..<1) == nil)
    #expect(try unions.find(0..<tokens.count + 1) == nil)
  }

  @Test func sortedDuplicatesAreRemovedAsASetWould() {
    var state: UInt64 = 5
    for n in [0, 1, 2, 50, 500] {
      let values = (0..<n).map { _ -> Int in
        state = state &* 6_364_136_223_846_793_005 &+ 1
        return Int(state >> 58)
      }
      var kept = values.sorted()
      kept.removeDuplicatesOfSorted()
      #expect(kept == Array(Set(values)).sorted(), "\(n) values")
    }
  }
}
