import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

let liechtenstein: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("liechtenstein-autauga-2021.osm.gz")
}

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct RankingTests {
  func client() throws -> PlacesClient {
    try PlacesClient(indexPaths: [try liechtenstein.get().path])
  }

  func top(
    _ c: PlacesClient, _ q: String, _ f: AutocompleteFilter = AutocompleteFilter(), max: Int = 5
  ) throws
    -> [AutocompletePlaceSuggestion]
  {
    try c.autocompleteSuggestions(
      for: AutocompleteRequest(query: q, filter: f, maxResultCount: max)
    )
    .compactMap(\.placeSuggestion)
  }

  @Test func theNearerOfTwoSameNamedPlacesWinsWithAnOrigin() throws {
    let c = try client()
    // Every restaurant the index returns for "restaurant": for pairs far apart, an origin next
    // to either one must put that one first.
    let all = try top(c, "restaurant", AutocompleteFilter(types: ["restaurant"]), max: 40)
    try #require(all.count >= 10)
    var checked = 0
    for s in all.prefix(10) {
      let place = try c.fetchPlace(
        with: FetchPlaceRequest(placeID: s.placeID, placeProperties: [.coordinate]))
      let here = try #require(place.coordinate)
      let origin = Coordinate(latitude: here.latitude + 0.0003, longitude: here.longitude)
      let ranked = try top(c, s.primaryText.text, AutocompleteFilter(origin: origin))
      #expect(ranked.first?.placeID == s.placeID, "\(s.primaryText.text)")
      checked += 1
    }
    #expect(checked == 10)
  }

  @Test func aCapitalOutranksAHamletWhenNothingIsNear() throws {
    let c = try client()
    let s = try top(c, "vaduz")
    #expect(s.first?.types.first == "locality")
    #expect(s.first?.primaryText.text == "Vaduz")
  }

  @Test func anExactWordOutranksAPrefix() throws {
    let c = try client()
    // "Balzers" is a municipality; names that merely start with "balz" must come after it.
    let s = try top(c, "balzers")
    #expect(s.first?.primaryText.text == "Balzers")
  }

  @Test func oneTypoStillFindsSixLetterNames() throws {
    let c = try client()
    let restaurants = try top(c, "restaurant", AutocompleteFilter(types: ["restaurant"]), max: 30)
    var tried = 0
    var found = 0
    for s in restaurants {
      let words = s.primaryText.text.split(separator: " ").map(String.init)
      guard
        let word = words.first(where: {
          $0.count >= 6 && $0.allSatisfy(\.isLetter) && $0.lowercased() != "restaurant"
        })
      else { continue }
      // Swap two letters after the first: one edit.
      var chars = Array(word)
      chars.swapAt(2, 3)
      let typo = String(chars)
      guard typo.lowercased() != word.lowercased() else { continue }
      let query = s.primaryText.text.replacingOccurrences(of: word, with: typo)
      tried += 1
      if try top(c, query).contains(where: { $0.placeID == s.placeID }) { found += 1 }
    }
    print("liechtenstein: \(found) of \(tried) restaurant names with a transposed pair found")
    #expect(tried >= 5)
    #expect(Double(found) / Double(tried) >= 0.8)
  }
}
