import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

@testable import PlaceIndex

/// "category place" and "category near place" (issue #21): a query no place carries every
/// word of is read as what is sought and an area it is sought in, on the Helsinki extract.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct NearAreaTests {
  func client() throws -> PlacesClient { try PlacesClient(indexPaths: [try helsinki.get().path]) }

  func top(_ c: PlacesClient, _ q: String) throws -> [AutocompletePlaceSuggestion] {
    try c.autocompleteSuggestions(for: AutocompleteRequest(query: q, maxResultCount: 5))
      .compactMap(\.placeSuggestion)
  }

  /// The box of place `id`.
  func box(_ c: PlacesClient, _ id: String) throws -> Viewport {
    try #require(
      try c.fetchPlace(with: FetchPlaceRequest(placeID: id, placeProperties: [.viewport])).viewport)
  }

  func inside(_ c: PlacesClient, _ id: String, _ v: Viewport) throws -> Bool {
    let p = try #require(
      try c.fetchPlace(with: FetchPlaceRequest(placeID: id, placeProperties: [.coordinate]))
        .coordinate)
    // The area's box, widened to about 300 m each way for an area mapped as a point.
    return p.latitude >= v.low.latitude - 0.003 && p.latitude <= v.high.latitude + 0.003
      && p.longitude >= v.low.longitude - 0.006 && p.longitude <= v.high.longitude + 0.006
  }

  @Test(
    "cafés in Kamppi, however the query puts it",
    arguments: ["cafe kamppi", "cafe near kamppi", "kamppi cafe", "cafe in Kamppi"])
  func cafesInKamppi(_ query: String) throws {
    let c = try client()
    // Kamppi, the neighbourhood (R184714): no place carries both words.
    let kamppi = try box(c, "R184714")
    let s = try top(c, query)
    #expect(s.count >= 3, "\(s.map(\.fullText.text))")
    for p in s {
      #expect(try inside(c, p.placeID, kamppi), "\(p.fullText.text) lies outside Kamppi")
      #expect(
        p.types.contains { ["cafe", "coffee_shop"].contains($0) }
          || TextNormalizer.fold(p.primaryText.text).contains("cafe"),
        "\(p.fullText.text) is not a café")
    }
    // The explanation names the area it was read as.
    let explained = try c.explainedSuggestions(for: AutocompleteRequest(query: query))
    #expect(explained.first?.area?.placeID == "R184714")
  }

  @Test func pharmaciesInAPostcode() throws {
    let c = try client()
    let s = try top(c, "pharmacy 00100")
    #expect(s.count >= 2, "\(s.map(\.fullText.text))")
    for p in s {
      #expect(p.types.first == "pharmacy", "\(p.fullText.text)")
    }
  }

  @Test func aPlaceThatCarriesEveryWordIsShownAsItIs() throws {
    // "Hotel Kluuvi" names a hotel (GLO Hotel Kluuvi): no reading is needed, and none moves it.
    let c = try client()
    let s = try top(c, "hotel kluuvi")
    #expect(s.first?.primaryText.text == "GLO Hotel Kluuvi", "\(s.map(\.fullText.text))")
    let explained = try c.explainedSuggestions(for: AutocompleteRequest(query: "hotel kluuvi"))
    #expect(explained.allSatisfy { $0.area == nil })
  }

  @Test func nothingSoughtInAnAreaIsNothing() throws {
    // A word nothing carries, beside an area: no reading holds, and only what the search finds
    // without it is shown (places that carry all words but one).
    let c = try client()
    let s = try top(c, "zzqx kamppi")
    let explained = try c.explainedSuggestions(for: AutocompleteRequest(query: "zzqx kamppi"))
    #expect(explained.allSatisfy { $0.area == nil })
    #expect(s.allSatisfy { !$0.types.contains("cafe") })
  }
}
