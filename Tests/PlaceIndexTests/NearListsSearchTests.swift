import Foundation
import PlaceCore
import TestSupport
import Testing

@testable import PlaceIndex
@testable import PlaceIndexFormat

/// NEAR LISTS on a real extract. The builder holds lists for tokens of
/// ``NearListsWriter/minimumPlaces`` places or more, which a city has few of; here the Helsinki
/// index's section is written again for every token of 4 places or more and every prefix range
/// of 2 tokens or more, so that the rings of most searches with an origin read the word's
/// places from the lists: they find what scoring every place finds, and answer as the index
/// without the lists, whose rings read every place around the focus.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct NearListsSearchTests {
  /// The Helsinki index without NEAR LISTS, the same with dense ones, and its tokens.
  static let indexes: Result<(plain: LoadedIndex, near: LoadedIndex, tokens: [String]), Error> =
    Result {
      let bytes = try [UInt8](
        Data(contentsOf: URL(fileURLWithPath: try helsinkiSearchIndex.get())))
      let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: "helsinki")
      let source = try LoadedIndex(file: file)
      var tokens: [String] = []
      try source.tokens.forEach { _, t in tokens.append(String(decoding: t, as: UTF8.self)) }
      var position = [Int](repeating: 0, count: source.placeCount)
      try source.geo.forEachEntry { (at, rank) throws(IndexFormatError) in position[rank] = at }
      var places: [[Int]] = []
      try source.postings.forEachList(of: 0..<source.postings.tokenCount) {
        (_, l) throws(IndexFormatError) in
        var out: [Int] = []
        for part in PostingsPart.allCases {
          var c = l[part]
          while let p = try c.next() { out.append(position[p]) }
        }
        places.append(out)
      }
      let heavy = places.indices.filter { places[$0].count >= 4 }.map { $0..<($0 + 1) }
      let ranges = heavy + PrefixUnionsWriter.ranges(tokens, minimum: 2)
      let section = NearListsWriter.serialize(ranges, placeCount: source.placeCount) { r in
        Array(Set(r.flatMap { places[$0] })).sorted()
      }
      func image(near: [UInt8]?) -> [UInt8] {
        var writer = IndexFileWriter()
        writer.dataTimestamp = file.dataTimestamp
        writer.optionsHash = file.optionsHash
        for s in file.sections where s.kind != SectionKind.nearLists.rawValue {
          writer.add(rawKind: s.kind, Array(file.bytes(of: s)))
        }
        if let near { writer.add(rawKind: SectionKind.nearLists.rawValue, near) }
        return writer.image()
      }
      let plain = try LoadedIndex(
        file: IndexFile(bytes: MappedBytes(copying: image(near: nil)), path: "helsinki-plain"))
      let near = try LoadedIndex(
        file: IndexFile(bytes: MappedBytes(copying: image(near: section)), path: "helsinki-near"))
      try near.verify()
      return (plain, near, tokens)
    }

  @Test func theRingsOfTheListsFindWhatScoringEveryPlaceFinds() throws {
    let (plain, index, _) = try Self.indexes.get()
    #expect(plain.near.count == 0)
    #expect(index.near.count > 1000, "\(index.near.count) lists")
    let oracle = SearchOracleTests()
    let texts = [
      "Kaivokatu", "Stockmann", "Esplanadi 3", "Hotel K", "Suomen Pankki", "Fi", "ravintola",
      "Mannerheimintie", "Kluuvi", "pharmacy", "k m s", "Su Pa", "Helsinki Stockmann",
    ]
    let center = Coordinate(latitude: 60.1699, longitude: 24.9384)
    let filters = [
      AutocompleteFilter(origin: center),
      AutocompleteFilter(origin: Coordinate(latitude: 60.1589, longitude: 24.9555)),
      AutocompleteFilter(coordinateRegionBias: .circle(center: center, radiusMeters: 400)),
    ]
    var compared = 0
    // Searches whose driving word is read from both ends with lists.
    var throughLists = 0
    for text in texts {
      let chars = Array(text)
      for n in 1...chars.count {
        let query = String(chars[0..<n])
        let plan = QueryPlan(query: query, inputOffset: nil)
        for filter in filters {
          let expected = try oracle.everyPlace(index, query, filter: filter, limit: 10)
          let found = try index.search(plan, filter: filter, typeFilter: .any, limit: 10)
            .filter { $0.score > -Ranking.relaxedPenalty / 2 }
          #expect(found.map(\.rank) == expected.map(\.rank), "\(query) with \(filter)")
          #expect(found.map(\.score) == expected.map(\.score))
          compared += expected.count
          let (words, _) = try LoadedIndex.resolveWords([index], plan, limit: 10)
          if words[0].count == 1, words[0][0].cost > Ranking.nearFirstMinimumCost,
            try index.nearPlaces(words[0][0], otherPlaces: Ranking.nearOtherPlaces) != nil
          {
            throughLists += 1
          }
        }
      }
    }
    #expect(compared > 2000, "\(compared) compared")
    #expect(throughLists > 30, "\(throughLists) searches read their rings from the lists")
  }

  @Test func searchesAnswerAsWithoutTheLists() throws {
    let (plain, near, tokens) = try Self.indexes.get()
    let a = PlacesClient(indexes: [plain])
    let b = PlacesClient(indexes: [near])
    var random = SplitMix64(seed: 72)
    var answered = 0
    for _ in 0..<400 {
      let t = tokens[random.below(tokens.count)]
      let other = tokens[random.below(tokens.count)]
      let cut = String(t.prefix(1 + random.below(3)))
      let query = random.below(3) == 0 ? "\(other.prefix(2)) \(cut)" : cut
      let origin = Coordinate(
        latitude: 60.15 + Double(random.below(40)) / 1000,
        longitude: 24.90 + Double(random.below(80)) / 1000)
      let request = AutocompleteRequest(query: query, filter: AutocompleteFilter(origin: origin))
      let expected = try a.autocompleteSuggestions(for: request)
      #expect(try b.autocompleteSuggestions(for: request) == expected, "\(query)")
      if !expected.isEmpty { answered += 1 }
    }
    #expect(answered > 200, "\(answered) of 400 answered")
  }
}
