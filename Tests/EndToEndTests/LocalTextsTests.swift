import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// The details of a place with the given properties and language.
func details(
  _ client: PlacesClient, _ id: String, _ properties: Set<PlaceProperty>,
  language: String? = nil
) throws -> Place {
  try client.fetchPlace(
    with: FetchPlaceRequest(placeID: id, placeProperties: properties, languageCode: language))
}

/// The suggestions for a query with a language and region.
func suggestions(
  _ client: PlacesClient, _ query: String, language: String? = nil, region: String? = nil
) throws -> [AutocompletePlaceSuggestion] {
  var filter = AutocompleteFilter()
  filter.languageCode = language
  filter.regionCode = region
  return try client.autocompleteSuggestions(
    for: AutocompleteRequest(query: query, filter: filter)
  ).compactMap(\.placeSuggestion)
}

/// Texts as the hosted service writes them (issue 22): the formatted address without an
/// establishment's name, districts with their city, every address part in the requested
/// language, and the language of the display name.
@Suite struct LocalTextsTests {
  @Test func theFormattedAddressOfAnEstablishmentIsItsAddressWithoutItsName() throws {
    let client = try PlacesClient(indexPaths: [try sampleBuild.get()])
    let p = try details(client, "N7100074", [.displayName, .formattedAddress])
    #expect(p.displayName == "Apotheke zum Löwen")
    #expect(p.formattedAddress == "Hauptstraße 17, 6799 Sankt Quirin, Austria")
  }

  @Test func thePlainNamesLanguageIsTheCountrysMainLanguageAndAbsentRatherThanEmpty() throws {
    let client = try PlacesClient(indexPaths: [try sampleBuild.get()])
    let p = try details(client, "N7100074", [.displayName])
    #expect(p.displayNameLanguage == "de")
    let json = PlacesJSONProtocol.encodePlace(p)
    #expect(json.contains(#""languageCode":"de""#), "\(json)")
    var unknown = p
    unknown.displayNameLanguage = nil
    let bare = PlacesJSONProtocol.encodePlace(unknown)
    #expect(!bare.contains("languageCode") && bare.contains(#""text":"Apotheke zum Löwen""#))
  }

  @Test func countryNamesComeFromTheTableInTheRequestedLanguage() throws {
    let client = try PlacesClient(indexPaths: [try sampleBuild.get()])
    let fr = try details(
      client, "N7100074", [.formattedAddress, .addressComponents], language: "fr")
    #expect(fr.formattedAddress == "Hauptstraße 17, 6799 Sankt Quirin, Autriche")
    let country = try #require(fr.addressComponents?.first { $0.kind == .country })
    #expect(country.longText == "Autriche" && country.shortText == "AT")
    // A language the data does not have leaves every text as it is.
    let xx = try details(client, "N7100074", [.formattedAddress], language: "xx")
    #expect(xx.formattedAddress == "Hauptstraße 17, 6799 Sankt Quirin, Austria")
  }
}

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct LocalTextsRealDataTests {
  @Test func formattedAddressesLeaveTheNameOut() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    let p = try details(client, "N606996900", [.displayName, .formattedAddress])
    #expect(p.displayName == "Café Strindberg")
    #expect(p.formattedAddress == "Pohjoisesplanadi 33, 00130 Helsinki, Finland")
    // A street's address is its name.
    let street = try details(client, "W14472962", [.formattedAddress])
    #expect(street.formattedAddress == "Kaivokatu, Helsinki, Finland")
  }

  @Test func districtsShowTheirCity() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    for (query, id) in [("kamppi", "R184714"), ("hakaniemi", "N673773964")] {
      let s = try #require(try suggestions(client, query).first { $0.placeID == id }, "\(query)")
      #expect(s.secondaryText.text == "Helsinki, Finland", "\(query)")
    }
  }

  @Test func aStationNamedAfterItsCityShowsTheStreetThenTheCity() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    let s = try #require(
      try suggestions(client, "helsinki kaivokatu").first { $0.placeID == "N25389429" })
    #expect(s.primaryText.text == "Helsinki")
    #expect(s.secondaryText.text == "Kaivokatu 1, 00100 Helsinki, Finland")
  }

  @Test func swedishTextsInHelsinki() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    let p = try details(
      client, "W419479428", [.displayName, .formattedAddress, .addressComponents], language: "sv")
    #expect(p.displayName == "Helsingfors domkyrka")
    #expect(p.displayNameLanguage == "sv")
    #expect(p.formattedAddress == "Unionsgatan 29, 00170 Helsingfors, Finland")
    let parts = p.addressComponents ?? []
    #expect(parts.first { $0.kind == .route }?.longText == "Unionsgatan")
    #expect(parts.first { $0.kind == .locality }?.longText == "Helsingfors")
    let s = try #require(
      try suggestions(client, "tuomiokirkko", language: "sv").first { $0.placeID == "W419479428" })
    #expect(s.fullText.text == "Helsingfors domkyrka, Unionsgatan 29, 00170 Helsingfors, Finland")
    // The region's country is left out, in any language.
    let local = try #require(
      try suggestions(client, "tuomiokirkko", language: "sv", region: "FI").first {
        $0.placeID == "W419479428"
      })
    #expect(local.secondaryText.text == "Unionsgatan 29, 00170 Helsingfors")
    // German: the city has no name:de, the country comes from the table.
    let de = try details(client, "W419479428", [.formattedAddress], language: "de")
    #expect(de.formattedAddress == "Unioninkatu 29, 00170 Helsinki, Finnland")
  }

  @Test func displayNameLanguageIsTheLanguageOfTheNameGiven() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    // name = name:fi.
    #expect(try details(client, "W419479428", [.displayName]).displayNameLanguage == "fi")
    // Asked for a language the place has no name in: the plain name, and its language.
    let p = try details(client, "W419479428", [.displayName], language: "ja")
    #expect(p.displayName == "Helsingin tuomiokirkko" && p.displayNameLanguage == "fi")
  }
}
