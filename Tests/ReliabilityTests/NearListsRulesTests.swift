import Foundation
import PlaceIndexFormat
import Testing

@testable import PlaceIndex

/// NEAR LISTS (format 7.2): a section written for the sample's tokens of two places or more
/// and its prefix ranges (the builder holds only tokens of ``NearListsWriter/minimumPlaces``,
/// which the small sample has none of) passes `verify` and answers as the sample without it;
/// a list that is not its tokens' GEO positions, or an entry out of order, is refused with its
/// named fault.
@Suite("NEAR LISTS: the places of many-place tokens in GEO order")
struct NearListsRulesTests {
  /// The sample's places' GEO positions, by rank.
  static func geoPositions() throws -> [Int] {
    let index = FuzzHarness.sampleClient.indexes[0]
    var position = [Int](repeating: -1, count: index.placeCount)
    try index.geo.forEachEntry { (at, rank) throws(IndexFormatError) in position[rank] = at }
    return position
  }

  /// The sample's tokens with two places or more, as ranges, and the ranges of two tokens or
  /// more that share a prefix.
  static func ranges() throws -> [Range<Int>] {
    let (tokens, lists) = try PrefixUnionsRulesTests.sampleLists()
    let heavy = lists.indices.filter { lists[$0].joined().count >= 2 }.map { $0..<($0 + 1) }
    return heavy + PrefixUnionsWriter.ranges(tokens, minimum: 2)
  }

  /// The sample with a NEAR LISTS section for `ranges`, each range's GEO positions changed by
  /// `change` before they are written.
  static func withNear(
    _ ranges: [Range<Int>], change: (Range<Int>, inout [Int]) -> Void = { _, _ in }
  )
    throws -> [UInt8]
  {
    let (_, lists) = try PrefixUnionsRulesTests.sampleLists()
    let position = try geoPositions()
    let count = position.count
    let section = NearListsWriter.serialize(ranges, placeCount: count) { range in
      let tokens = range.clamped(to: 0..<lists.count)
      var out = Array(Set(tokens.flatMap { lists[$0].joined().map { position[Int($0)] } })).sorted()
      change(range, &out)
      return out
    }
    return try CorruptIndexTests.replacingSection(.nearLists, of: FuzzHarness.sampleIndexBytes) {
      _ in section
    }
  }

  @Test("the sample's tokens and prefixes as lists: verified, and the same answers")
  func listsAnswerAsWithout() throws {
    let ranges = try Self.ranges()
    #expect(ranges.count > 50, "\(ranges.count) ranges")
    let bytes = try Self.withNear(ranges)
    #expect(try PrefixUnionsRulesTests.fault(bytes) == nil)
    let near = try PrefixUnionsRulesTests.open(bytes)
    #expect(near.near.count == ranges.count)
    let plain = FuzzHarness.sampleClient
    let client = PlacesClient(indexes: [near])
    let (tokens, _) = try PrefixUnionsRulesTests.sampleLists()
    var queries = Set<String>()
    for t in tokens { for n in 1...min(3, t.count) { queries.insert(String(t.prefix(n))) } }
    var answered = 0
    for q in queries.sorted() {
      for origin in [nil, Coordinate(latitude: 47.185, longitude: 9.9)] {
        let request = AutocompleteRequest(query: q, filter: AutocompleteFilter(origin: origin))
        let a = try plain.autocompleteSuggestions(for: request)
        #expect(a == (try client.autocompleteSuggestions(for: request)), "\(q)")
        if !a.isEmpty { answered += 1 }
      }
    }
    #expect(answered > 100, "\(answered) answered")
  }

  @Test("a list missing a place, holding one more, or out of GEO order is refused")
  func listsThatAreNotTheirPlacesAreRefused() throws {
    let ranges = try Self.ranges()
    let sorted = ranges.sorted {
      $0.lowerBound < $1.lowerBound
        || ($0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound)
    }
    let target = sorted[3]
    let entry = 3
    let placeCount = FuzzHarness.sampleClient.indexes[0].placeCount
    let full = try Self.withNear(ranges)
    let index = try PrefixUnionsRulesTests.open(full)
    let list = try index.near.list(entry)
    let (first, second) = (try list.value(0), try list.value(1))
    // The first place left out: the list holds the second where the first should come.
    let missing = try Self.withNear(ranges) { r, p in if r == target { p.removeFirst() } }
    let f = try #require(try PrefixUnionsRulesTests.fault(missing))
    #expect(f.section == "NEAR LISTS", "\(f.fault)")
    #expect(
      f.fault == .nearListMismatch(entry: entry, position: second, expected: first),
      "\(f.fault)")
    // A place more, after its last.
    let extra = try Self.withNear(ranges) { r, p in
      if r == target, let last = p.last, last + 1 < placeCount { p.append(last + 1) }
    }
    let g = try #require(try PrefixUnionsRulesTests.fault(extra))
    guard case .nearListMismatch(entry, _, nil) = g.fault else {
      Issue.record("\(g.fault)")
      return
    }
  }

  @Test("entries out of order, repeated or past the dictionary are refused")
  func entriesOutOfOrderAreRefused() throws {
    let ranges = try Self.ranges().sorted {
      $0.lowerBound < $1.lowerBound
        || ($0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound)
    }
    let (tokens, _) = try PrefixUnionsRulesTests.sampleLists()
    // The writer sorts its ranges: a repeated one stays repeated.
    let repeated = [ranges[0], ranges[0]]
    let f = try #require(try PrefixUnionsRulesTests.fault(try Self.withNear(repeated)))
    #expect(
      f.fault
        == .nearListOutOfOrder(entry: 1, first: ranges[0].lowerBound, end: ranges[0].upperBound))
    let past = [(tokens.count - 1)..<(tokens.count + 1)]
    let g = try #require(
      try PrefixUnionsRulesTests.fault(try Self.withNear(past) { _, p in p = [] }))
    #expect(
      g.fault == .nearListOutOfOrder(entry: 0, first: tokens.count - 1, end: tokens.count + 1))
  }
}
