import Foundation
import PlaceCore
import PlaceIndex
import Testing

@testable import PlaceIndexBuilder

/// Postcodes become places of their own (``PostcodeAreas``): one per area of the places that
/// carry the code, with a stable ID, unless the extract maps the code as an area or it is no
/// postcode of its country.
@Suite struct PostcodeTests {
  /// Addresses in Germany: 67433 three times in Neustadt and twice in Altdorf (150 km away),
  /// 12345 once, three codes that are no German postcode ("1234; 5678", "ABC", "1234"), and
  /// 55555 inside a `boundary=postal_code` area that carries it and is a place (it has a name).
  static func extract() -> String {
    var xml = ScaleBuildTests.header
    var id = 1
    func address(_ lat: Double, _ lon: Double, _ code: String, _ city: String) {
      xml +=
        "<node id='\(id)' lat='\(lat)' lon='\(lon)'><tag k='addr:housenumber' v='\(id)'/><tag k='addr:street' v='Hauptstrasse'/><tag k='addr:city' v='\(city)'/><tag k='addr:postcode' v='\(code)'/><tag k='addr:country' v='DE'/></node>\n"
      id += 1
    }
    address(49.000, 8.000, "67433", "Neustadt")
    address(49.010, 8.020, "67433", "Neustadt")
    address(49.020, 8.010, "67 433", "Neustadt")
    address(50.000, 10.000, "67433", "Altdorf")
    address(50.004, 10.004, "67433", "Altdorf")
    address(49.005, 8.005, "12345", "Neustadt")
    address(49.006, 8.006, "1234; 5678", "Neustadt")
    address(49.007, 8.007, "ABC", "Neustadt")
    address(49.008, 8.008, "1234", "Neustadt")
    address(48.001, 7.001, "55555", "Dorf")
    address(48.002, 7.002, "55555", "Dorf")
    // The postcode area 55555 around the last two, a relation (ways alone are no areas).
    let corners = [(47.99, 6.99), (47.99, 7.01), (48.01, 7.01), (48.01, 6.99)]
    var refs = ""
    for (lat, lon) in corners {
      xml += "<node id='\(id)' lat='\(lat)' lon='\(lon)'/>\n"
      refs += "<nd ref='\(id)'/>"
      id += 1
    }
    refs += "<nd ref='\(id - 4)'/>"
    xml += "<way id='900'>\(refs)</way>\n"
    xml +=
      "<relation id='901'><member type='way' ref='900' role='outer'/><tag k='type' v='boundary'/><tag k='boundary' v='postal_code'/><tag k='postal_code' v='55555'/><tag k='name' v='Dorf Mitte'/></relation>\n"
    return xml + "</osm>\n"
  }

  static func postcodes(_ client: PlacesClient, _ query: String) throws
    -> [AutocompletePlaceSuggestion]
  {
    try client.autocompleteSuggestions(for: AutocompleteRequest(query: query))
      .compactMap(\.placeSuggestion).filter { $0.types.first == "postal_code" }
  }

  @Test func aPostcodeIsAPlacePerArea() throws {
    let (report, bytes, index) = try buildXML(Self.extract(), name: "postcodes")
    #expect(report.assemble.postcodes == .init(derived: 2, malformed: 3, tooFew: 1))
    let client = try PlacesClient(indexPaths: [index.path])
    let found = try Self.postcodes(client, "67433")
    #expect(found.map(\.primaryText.text) == ["67433", "67433"])
    // One per town, each ID from the country, the code and the degree of its centre.
    let ids = [(490_100_000, 80_100_000), (500_020_000, 100_020_000)].map { lat, lon in
      "P\(PlaceID.postcodeID(country: "DE", code: "67433", latitudeE7: Int32(lat), longitudeE7: Int32(lon)))"
    }
    #expect(Set(found.map(\.placeID)) == Set(ids) && ids[0] != ids[1])
    let neustadt = try #require(found.first { $0.secondaryText.text.contains("Neustadt") })
    #expect(found.contains { $0.secondaryText.text.contains("Altdorf") })
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(
        placeID: neustadt.placeID,
        placeProperties: [.types, .addressComponents, .coordinate, .viewport]))
    #expect(place.types?.first == "postal_code")
    #expect(
      place.addressComponents?.contains { $0.kind == .postalCode && $0.longText == "67433" } == true
    )
    #expect(place.addressComponents?.contains { $0.shortText == "DE" } == true)
    // At the mean of its three addresses; its viewport holds them (VIEWPORTS keeps a box
    // within 1/8 more).
    let location = try #require(place.coordinate)
    #expect(abs(location.latitude - 49.010) < 1e-6 && abs(location.longitude - 8.010) < 1e-6)
    let viewport = try #require(place.viewport)
    #expect((48.995...49.0).contains(viewport.low.latitude))
    #expect((49.02...49.025).contains(viewport.high.latitude))
    #expect((7.995...8.0).contains(viewport.low.longitude))
    #expect((8.02...8.025).contains(viewport.high.longitude))
    // A code of one address, codes that are no German postcode, a code mapped as an area.
    #expect(try Self.postcodes(client, "12345").isEmpty)
    #expect(try Self.postcodes(client, "1234").isEmpty)
    let area = try Self.postcodes(client, "55555")
    #expect(area.map(\.placeID) == ["R901"])
    // The same extract gives the same bytes.
    let (_, again, _) = try buildXML(Self.extract(), name: "postcodes")
    #expect(again == bytes)
  }

  @Test(arguments: [
    ("00100", true), ("SW1A 1AA", true), ("1012-AB", true), ("36067", true), ("9", false),
    ("ABC", false), ("00100; 00120", false), ("1  2", false), ("12345678901", false),
    (" 123", false), ("١٢٣", false),
  ])
  func plausibleCodes(code: String, plausible: Bool) {
    #expect(PostcodeAreas.isPlausible(code) == plausible)
  }

  @Test func theIDIsTheSameInEveryBuildAndBelowTheLimit() {
    func id(_ country: String, _ code: String, _ lat: Int32, _ lon: Int32) -> Int64 {
      PlaceID.postcodeID(country: country, code: code, latitudeE7: lat, longitudeE7: lon)
    }
    let a = id("fi", "00100", 601_690_460, 249_406_802)
    // Anywhere in the same degree, in either case of the country code.
    #expect(a == id("FI", "00100", 600_000_000, 249_999_999))
    #expect(a != id("FI", "00100", 610_000_000, 249_406_802))
    #expect(a != id("FI", "00120", 601_690_460, 249_406_802))
    #expect(a != id("SE", "00100", 601_690_460, 249_406_802))
    // Degrees round down: -0.5 is in degree -1, not 0.
    #expect(id("US", "1", -5_000_000, 0) == id("US", "1", -10_000_000, 0))
    #expect(id("US", "1", -5_000_000, 0) != id("US", "1", 5_000_000, 0))
    #expect((0..<PlaceID.postcodeIDs).contains(a))
    #expect(PostcodeAreas.compact("sw1a 1aa") == "SW1A1AA")
  }
}
