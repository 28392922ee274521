import Foundation
import PlaceIndex
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
  }
}
