import Foundation
@_spi(Testing) import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct ShardTests {
  @Test func countryShardsQueriedTogetherAnswerLikeOneIndex() throws {
    let dir = try TestPaths.temporaryDirectory().appendingPathComponent("shards").path
    var options = IndexBuilder.Options(
      extract: TestPaths.osm("liechtenstein-autauga-2021.osm.gz").path, output: dir)
    options.splitByCountry = true
    let report = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(options)
    let codes = report.shards.map(\.country)
    #expect(codes.contains("LI") && codes.contains("US"), "\(codes)")
    #expect(report.shards.map(\.places).reduce(0, +) == report.places)
    let shards = try PlacesClient(indexPaths: report.shards.map(\.path))
    let whole = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    for q in ["vaduz", "prattville", "schaan", "autauga", "apotheke", "main st"] {
      let a = try shards.autocompleteSuggestions(for: AutocompleteRequest(query: q)).compactMap(
        \.placeSuggestion)
      let b = try whole.autocompleteSuggestions(for: AutocompleteRequest(query: q)).compactMap(
        \.placeSuggestion)
      #expect(
        a.first?.placeID == b.first?.placeID, "\(q): \(a.map(\.placeID)) vs \(b.map(\.placeID))")
      #expect(Set(a.map(\.placeID)) == Set(b.map(\.placeID)), "\(q)")
    }
    let li = try PlacesClient(indexPaths: report.shards.filter { $0.country == "LI" }.map(\.path))
    #expect(try li.autocompleteSuggestions(for: AutocompleteRequest(query: "prattville")).isEmpty)
    try expectSameAnswers(shards, whole)
    // The folder stands for its shards.
    let folder = try PlacesClient(indexPaths: [dir])
    #expect(folder.indexes.count == report.shards.count)
    let request = AutocompleteRequest(query: "Lori S")
    #expect(
      PlacesJSONProtocol.encodeResponse(try folder.autocompleteSuggestions(for: request))
        == PlacesJSONProtocol.encodeResponse(try whole.autocompleteSuggestions(for: request)))
  }

  @Test func aFolderWithNoIndexIsAnErrorNamingIt() throws {
    let dir = try TestPaths.temporaryDirectory().path
    #expect {
      try PlacesClient(indexPaths: [dir])
    } throws: { error in
      guard case .index(let path, .cannotOpen, let reason) = error as? PlacesError else {
        return false
      }
      return path == dir && reason.contains("no .placeidx")
    }
  }

  /// Every keystroke of a seeded draw of place names, without and with an origin, and the
  /// requests that once differed ("Lori S" near Prattville: the LI shard, finding no prefix of
  /// "lori", looked inside longer words and offered Sankt Florinsgasse), get the same JSON
  /// response from the shards as from the one index.
  func expectSameAnswers(_ shards: PlacesClient, _ whole: PlacesClient) throws {
    let index = whole.indexes[0]
    var random = SplitMix64(seed: 19)
    var texts: [(String, Coordinate?)] = [
      ("Lori S", Coordinate(latitude: 32.4637, longitude: -86.4597)), ("E B Ha", nil),
      ("Co Li", Coordinate(latitude: 47.14, longitude: 9.52)), ("Sankt Flor", nil),
      // Addresses typed whole: the places there are looked for over all shards at once.
      ("Bergstrasse 1", nil), ("Landstrasse 8", Coordinate(latitude: 47.1, longitude: 9.5)),
      // Postcodes, derived in each shard from its own places: the same places and IDs.
      ("9490", nil), ("36067", Coordinate(latitude: 32.46, longitude: -86.46)),
    ]
    for _ in 0..<80 {
      let rank = Int(random.next() % UInt64(index.placeCount))
      let place = try whole.fetchPlace(
        with: FetchPlaceRequest(
          placeID: try index.placeIDForTesting(rank: rank),
          placeProperties: [.displayName, .coordinate]))
      guard let name = place.displayName, let at = place.coordinate else { continue }
      let origin =
        random.next() % 2 == 0
        ? nil
        : Coordinate(
          latitude: at.latitude + 0.01, longitude: at.longitude - 0.01)
      texts.append((String(name.prefix(14)), origin))
    }
    var compared = 0
    var nonEmpty = 0
    for (text, origin) in texts {
      let chars = Array(text)
      for n in 1...chars.count {
        let request = AutocompleteRequest(
          query: String(chars[0..<n]), filter: AutocompleteFilter(origin: origin))
        let a = PlacesJSONProtocol.encodeResponse(try shards.autocompleteSuggestions(for: request))
        let b = PlacesJSONProtocol.encodeResponse(try whole.autocompleteSuggestions(for: request))
        #expect(a == b, "\(request.query) near \(String(describing: origin))")
        // On the shards the explanation sums to the score as well (it takes the same
        // decisions over all shards as the search).
        if n == chars.count {
          for e in try shards.explainedSuggestions(for: request) {
            #expect(
              abs(e.breakdown.total - e.score) < 1e-9, "\(request.query) \(e.suggestion.placeID)")
          }
        }
        compared += 1
        if b.count > 30 { nonEmpty += 1 }
      }
    }
    #expect(compared > 500)
    #expect(nonEmpty > compared / 2)
    let lori = AutocompleteRequest(
      query: "Lori S",
      filter: AutocompleteFilter(origin: Coordinate(latitude: 32.4637, longitude: -86.4597)))
    #expect(
      try shards.autocompleteSuggestions(for: lori).compactMap(\.placeSuggestion).allSatisfy {
        !$0.primaryText.text.contains("Florinsgasse")
      })
  }
}
