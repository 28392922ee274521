import Testing

@testable import PlaceIndexBuilder

/// Sidewalks, crossings and signals named after their street are parts of it, not places.
@Suite struct StreetPartTests {
  @Test(arguments: [
    (["highway": "footway", "footway": "sidewalk", "name": "Orchard Street"], true),
    (["highway": "footway", "footway": "crossing", "name": "Orchard Street"], true),
    (["highway": "cycleway", "cycleway": "crossing", "name": "Allen Street"], true),
    (["highway": "crossing", "name": "Delancey Street"], true),
    (["highway": "traffic_signals", "name": "Essex Street"], true),
    // A footpath with a name of its own is a place; so is a sidewalk with an address.
    (["highway": "footway", "name": "Lönnrotin puistikko"], false),
    (["highway": "footway", "footway": "sidewalk", "addr:housenumber": "5", "name": "X"], false),
    (["amenity": "cafe", "name": "Orchard Cafe"], false),
  ])
  func streetPartsAreRecognized(tags: [String: String], isPart: Bool) {
    #expect(PlaceAssembler.isStreetPart(tags) == isPart)
  }
}
