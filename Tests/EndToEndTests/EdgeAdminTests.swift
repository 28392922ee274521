import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// The hand-made extract whose second country's boundary is cut in half, built once.
let cutBorder: Result<(path: String, report: BuildReport), Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("cut-border.placeidx").path
  let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/cut-border.osm").path
  let report = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
    IndexBuilder.Options(extract: fixture, output: out))
  return (out, report)
}

/// The sample extract (Data/sample.osm), built once.
let sampleBuild: Result<String, Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("sample.placeidx").path
  _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
    IndexBuilder.Options(extract: TestPaths.sample.path, output: out))
  return out
}

/// The components of a place (`nil` when it is not in the index).
func components(_ client: PlacesClient, _ id: String, language: String? = nil) throws
  -> [AddressComponent]?
{
  do {
    return try client.fetchPlace(
      with: FetchPlaceRequest(
        placeID: id, placeProperties: [.addressComponents], languageCode: language)
    ).addressComponents
  } catch .notFound {
    return nil
  }
}

/// The country code of a place ("" when it has none).
func country(_ client: PlacesClient, _ id: String) throws -> String? {
  try components(client, id).map { $0.first { $0.kind == .country }?.shortText ?? "" }
}

/// Countries at an extract's edge (issue 22): a country comes from a closed boundary, a
/// subdivision code, the place's own tags, a cut boundary's shared ways, the neighbours or the
/// postcode, and never from a closed boundary that does not hold the place.
@Suite struct EdgeCountryTests {
  /// Each place of the fixture, the country it must get, and the source that gives it.
  static let expected: [(id: String, country: String, source: String)] = [
    ("R1", "LI", "country boundary"),  // the closed country itself
    ("N110", "LI", "country boundary"),  // inside LI, although it says addr:country=AT
    ("N111", "LI", "country boundary"),  // Litown
    ("R2", "AT", "ISO 3166-2 code"),  // the cut country: its own ISO 3166-1 code
    ("R3", "AT", "ISO 3166-2 code"),  // the state: its own AT-8
    ("N101", "AT", "ISO 3166-2 code"),  // inside the closed state AT-8
    ("N102", "AT", "own addr:country"),
    ("N103", "AT", "own addr:country"),  // is_in:country_code
    ("N105", "AT", "own addr:country"),
    ("N106", "AT", "own addr:country"),
    ("N107", "DE", "own addr:country"),
    ("N112", "AT", "own addr:country"),
    ("N114", "AT", "own addr:country"),
    ("R4", "AT", "shared borders"),  // Cutville: its point lies in LI, its ways do not
    ("N104", "AT", "neighbours' addr:country"),  // two AT neighbours, one DE
    ("N108", "AT", "postcode format"),  // 6800: AT's format, not DE's (LI is ruled out)
    ("N113", "AT", "region's addr:country"),  // 5 km from Far Neighbour, the only one near
    ("N109", "", "none"),  // says LI, lies outside LI's closed boundary
  ]

  @Test func eachPlaceOnTheCutOffSideGetsItsCountryFromTheNextSource() throws {
    let (path, _) = try cutBorder.get()
    let client = try PlacesClient(indexPaths: [path])
    for (id, code, source) in EdgeCountryTests.expected {
      #expect(try country(client, id) == code, "\(id) (\(source))")
    }
  }

  @Test func theBuildReportCountsEachSource() throws {
    let (_, report) = try cutBorder.get()
    var want: [String: Int] = [:]
    for e in EdgeCountryTests.expected { want[e.source, default: 0] += 1 }
    let got = Dictionary(uniqueKeysWithValues: report.countrySources.map { ($0.source, $0.places) })
    #expect(report.places == EdgeCountryTests.expected.count)
    // No postcode of this extract is carried by two places: none is derived.
    #expect(got == want.merging(["ISO 3166-2 code": 3, "postcode's places": 0]) { a, _ in a })
    #expect(
      report.lines(verbose: false).contains {
        $0.hasPrefix("countries country boundary 3, ISO 3166-2 code 3, own addr:country 7,")
      })
  }

  @Test func aSettlementAcrossTheBorderIsNotTheLocality() throws {
    let client = try PlacesClient(indexPaths: [try cutBorder.get().path])
    // Borderplace lies 2.3 km from Litown (a town reaches 8 km), on the other side of LI's
    // closed boundary; Insideplace, in LI, takes it.
    let border = try #require(try components(client, "N112"))
    #expect(!border.contains { $0.kind == .locality })
    let inside = try #require(try components(client, "N110"))
    #expect(inside.first { $0.kind == .locality }?.longText == "Litown")
  }

  @Test func aRegionsShortTextIsItsLetterCodeOrItsName() throws {
    let client = try PlacesClient(indexPaths: [try cutBorder.get().path])
    let state = try #require(try components(client, "N101"))
    let region = try #require(state.first { $0.kind == .adminArea1 })
    #expect(region.longText == "Vorarlberg")
    #expect(region.shortText == "Vorarlberg")  // AT-8: not "8"
    // The sample's Vorarlberg (AT-8) closes too: its places carry it as their region.
    let sample = try PlacesClient(indexPaths: [try sampleBuild.get()])
    let sampleRegion = try #require(
      try components(sample, "N7100074")?.first { $0.kind == .adminArea1 })
    #expect(sampleRegion.longText == "Vorarlberg" && sampleRegion.shortText == "Vorarlberg")
  }
}

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct EdgeCountryRealDataTests {
  @Test func feldkirchIsInAustriaAndFoundWithIncludedRegionCodes() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    // Bezirk Feldkirch and Stadt Feldkirch: boundaries cut by the extract; Stadt Feldkirch's
    // point (the middle of its ways' box) lies inside Liechtenstein.
    for id in ["R75152", "R75155"] { #expect(try country(client, id) == "AT", "\(id)") }
    var filter = AutocompleteFilter()
    filter.countries = ["AT"]
    let found = try client.autocompleteSuggestions(
      for: AutocompleteRequest(query: "feldkirch", filter: filter)
    ).compactMap(\.placeSuggestion)
    let ids = found.map(\.placeID)
    #expect(ids.contains("R75152") && ids.contains("R75155"), "\(ids)")
    #expect(found.allSatisfy { $0.secondaryText.text.hasSuffix("Austria") })
  }

  @Test func altstaettenIsInSwitzerland() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    #expect(try country(client, "R1683857") == "CH")
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "R1683857", placeProperties: [.formattedAddress]))
    #expect(place.formattedAddress == "Altstätten, Switzerland")
  }

  @Test func appenzellerAlpenIsNoAdminAreaOfLiechtenstein() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(
        placeID: "R11342353", placeProperties: [.types, .addressComponents]))
    #expect(place.types?.first == "natural_feature", "\(place.types ?? [])")
    #expect(place.addressComponents?.contains { $0.shortText == "LI" } == false)
    // Nor the region of the places it overlaps.
    let altstaetten = try #require(try components(client, "R1683857"))
    #expect(!altstaetten.contains { $0.longText == "Appenzeller Alpen" })
  }

  @Test func vorarlbergIsInAustriaByItsCodeAndItsShortTextIsItsName() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    #expect(try country(client, "R74942") == "AT")
  }

  @Test func theReportCountsEveryPlaceOnce() throws {
    let (_, report) = try liechtenstein.get()
    let counts = Dictionary(
      uniqueKeysWithValues: report.countrySources.map { ($0.source, $0.places) })
    #expect(counts.values.reduce(0, +) == report.places)
    #expect((counts["country boundary"] ?? 0) > 5_000)
    #expect((counts["shared borders"] ?? 0) > 0)
    #expect((counts["ISO 3166-2 code"] ?? 0) > 0)
  }
}
