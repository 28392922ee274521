import Foundation
import PlaceCore
import TestSupport
import Testing

@testable import PlaceIndex
@testable import PlaceIndexFormat

/// PREFIX UNIONS on a real extract. The builder holds the ranges of
/// ``PrefixUnionsWriter/minimumTokens`` tokens or more, which a city's dictionary has few of;
/// here the Helsinki index's section is written again for every range of 8 tokens or more, so
/// that hundreds are read: each is what its typed prefix resolves to, the merge that reads the
/// union gives every place the hits that reading the range's tokens one by one gives, and
/// whole searches answer as the index without unions does.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct PrefixUnionSearchTests {
  /// The Helsinki index, its tokens, and the same index with unions of 8 tokens or more.
  static let indexes: Result<(plain: LoadedIndex, tokens: [String], unions: LoadedIndex), Error> =
    Result {
      let plain = try LoadedIndex(path: try helsinkiSearchIndex.get())
      var tokens: [String] = []
      try plain.tokens.forEach { _, t in tokens.append(String(decoding: t, as: UTF8.self)) }
      var lists: [[[UInt32]]] = []
      try plain.postings.forEachList(of: 0..<plain.postings.tokenCount) {
        (_, l) throws(IndexFormatError) in
        lists.append(
          try PostingsPart.allCases.map { (part) throws(IndexFormatError) in
            var c = l[part]
            var places: [UInt32] = []
            while let p = try c.next() { places.append(UInt32(p)) }
            return places
          })
      }
      let section = PrefixUnionsWriter.serialize(PrefixUnionsWriter.ranges(tokens, minimum: 8)) {
        (lists[$0][0][...], lists[$0][1][...], lists[$0][2][...])
      }
      let bytes = try Data(contentsOf: URL(fileURLWithPath: try helsinkiSearchIndex.get()))
      let file = try IndexFile(bytes: MappedBytes(copying: [UInt8](bytes)), path: "helsinki")
      var writer = IndexFileWriter()
      writer.dataTimestamp = file.dataTimestamp
      writer.optionsHash = file.optionsHash
      for s in file.sections where s.kind != SectionKind.prefixUnions.rawValue {
        writer.add(rawKind: s.kind, Array(file.bytes(of: s)))
      }
      writer.add(rawKind: SectionKind.prefixUnions.rawValue, section)
      let unions = try LoadedIndex(
        file: IndexFile(bytes: MappedBytes(copying: writer.image()), path: "helsinki-unions"))
      try unions.verify()
      return (plain, tokens, unions)
    }

  /// The longest prefix shared by the first and last tokens of `range`, in whole letters.
  func prefix(of range: Range<Int>, _ tokens: [String]) -> String {
    let (a, b) = (tokens[range.lowerBound], tokens[range.upperBound - 1])
    return String(zip(a, b).prefix { $0 == $1 }.map(\.0))
  }

  @Test func everyHeldPrefixMergesAsItsTokensOneByOne() throws {
    let (_, tokens, index) = try Self.indexes.get()
    let unions = index.postings.unions
    #expect(unions.count > 100, "\(unions.count) unions")
    var compared = 0
    for i in 0..<unions.count {
      let e = try unions.entry(i)
      let typed = prefix(of: e.first..<e.end, tokens)
      let word = try index.resolve(typed, limit: 5)
      #expect(word.range == e.first..<e.end, "\(typed)")
      let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
      for (windowFrom, shift) in [(Int.max, 12), (0, 6)] {
        var merger = try PostingsMerger(
          postings: index.postings, words: [word], windowFrom: windowFrom, windowShift: shift,
          ringSize: 2)
        var fromMerger: [Int: UInt16] = [:]
        while let rank = try merger.next() { fromMerger[rank] = merger.hits.rawValue }
        var fromMap: [Int: UInt16] = [:]
        for rank in 0..<index.places.count where map[rank] != [] {
          fromMap[rank] = map[rank].rawValue
        }
        #expect(fromMerger == fromMap, "\(typed)")
        compared += fromMap.count
      }
    }
    #expect(compared > 10_000, "\(compared) places compared")
  }

  @Test func searchesAnswerAsWithoutUnions() throws {
    let (plain, tokens, unions) = try Self.indexes.get()
    let a = PlacesClient(indexes: [plain])
    let b = PlacesClient(indexes: [unions])
    var random = SplitMix64(seed: 71)
    var answered = 0
    var asked = 0
    for _ in 0..<300 {
      let t = tokens[random.below(tokens.count)]
      let other = tokens[random.below(tokens.count)]
      let cut = String(t.prefix(1 + random.below(3)))
      let query = random.below(3) == 0 ? "\(other.prefix(2)) \(cut)" : cut
      let origin =
        random.below(2) == 0
        ? Coordinate(
          latitude: 60.16 + Double(random.below(40)) / 1000,
          longitude: 24.92 + Double(random.below(60)) / 1000) : nil
      let request = AutocompleteRequest(query: query, filter: AutocompleteFilter(origin: origin))
      let expected = try a.autocompleteSuggestions(for: request)
      #expect(try b.autocompleteSuggestions(for: request) == expected, "\(query)")
      asked += 1
      if !expected.isEmpty { answered += 1 }
    }
    #expect(answered > asked / 2, "\(answered) of \(asked) answered")
  }
}
