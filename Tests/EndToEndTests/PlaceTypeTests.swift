import Foundation
import PlaceCore
import PlaceIndex
import TestSupport
import Testing

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct PlaceTypeTests {
  func types(_ client: PlacesClient, _ id: String) throws -> [String] {
    try client.fetchPlace(with: FetchPlaceRequest(placeID: id, placeProperties: [.types])).types
      ?? []
  }

  @Test func helsinkiRestaurantsCarryARestaurantTypeFirst() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    let restaurants = try namedNodes(
      TestPaths.osm("helsinki-center-2019.osm"), key: "amenity", value: "restaurant")
    try #require(restaurants.count > 50)
    for r in restaurants.prefix(60) {
      let t = try types(client, r.id)
      // "restaurant" itself, or a cuisine type (italian_restaurant, steak_house) followed by it.
      #expect(
        t.first == "restaurant" || (t.count > 1 && t[1] == "restaurant"), "\(r.id) \(r.name): \(t)")
      #expect(t.contains("restaurant") && t.contains("food") && t.last == "establishment", "\(t)")
    }
  }

  @Test func liechtensteinBanksVillagesAndAddresses() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    // The .gz cannot be read by the regex helper; the places come from queries.
    let banks = try client.autocompleteSuggestions(
      for: AutocompleteRequest(
        query: "bank", filter: AutocompleteFilter(countries: ["LI"]), maxResultCount: 20)
    ).compactMap(\.placeSuggestion).filter { $0.primaryText.text.lowercased().contains("bank") }
    #expect(banks.contains { $0.types.first == "bank" }, "\(banks.map(\.types))")
    let villages = try client.autocompleteSuggestions(
      for: AutocompleteRequest(
        query: "triesenberg", filter: AutocompleteFilter(types: ["(cities)"])))
    #expect(villages.first?.placeSuggestion?.types.first == "locality")
    #expect(villages.first?.placeSuggestion?.types.contains("political") == true)
    let address = try client.autocompleteSuggestions(
      for: AutocompleteRequest(
        query: "kirchstrasse 1 vaduz", filter: AutocompleteFilter(types: ["address"])))
    let first = try #require(address.first?.placeSuggestion)
    #expect(
      ["street_address", "premise", "subpremise"].contains(first.types.first ?? ""),
      "\(first.types)")
  }

  @Test func categoryQueriesFindPharmaciesNearestFirst() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    let origin = Coordinate(latitude: 47.166, longitude: 9.51)
    for q in ["pharmacy", "Apotheke", "apoth"] {
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: q, filter: AutocompleteFilter(origin: origin))
      )
      .compactMap(\.placeSuggestion)
      try #require(s.count >= 3, "\(q)")
      #expect(s.allSatisfy { $0.types.first == "pharmacy" }, "\(q): \(s.map(\.types))")
      let d = s.compactMap(\.distanceMeters)
      #expect(d == d.sorted(), "\(q): \(d)")
    }
  }
}
