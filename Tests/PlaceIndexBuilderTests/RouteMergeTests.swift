import Foundation
import PlaceIndex
import Testing

@testable import PlaceIndexBuilder

/// Ways of one street join into one route place; a street of the same name in another town of
/// the same name stays its own.
@Suite struct RouteMergeTests {
  /// Two towns called Neustadt 170 km apart, each with a Hauptstrasse of two ways.
  static func twoNeustadts() -> String {
    var xml = ScaleBuildTests.header
    var id = 1
    var ways = ""
    for (n, (lat, lon)) in [(49.0, 8.0), (50.0, 10.0)].enumerated() {
      xml +=
        "<node id='\(100 + n)' lat='\(lat)' lon='\(lon)'><tag k='place' v='town'/><tag k='name' v='Neustadt'/></node>\n"
      // Two ways of the street, 300 m apart, near the town's node.
      for w in 0..<2 {
        let a = id
        let b = id + 1
        id += 2
        let la = lat + 0.001 + 0.003 * Double(w)
        xml += "<node id='\(a)' lat='\(la)' lon='\(lon + 0.001)'/>\n"
        xml += "<node id='\(b)' lat='\(la + 0.002)' lon='\(lon + 0.001)'/>\n"
        ways +=
          "<way id='\(1000 + 10 * n + w)'><nd ref='\(a)'/><nd ref='\(b)'/><tag k='highway' v='residential'/><tag k='name' v='Hauptstrasse'/></way>\n"
      }
    }
    return xml + ways + "</osm>\n"
  }

  @Test func aStreetOfTheSameNameInAnotherTownOfTheSameNameStaysItsOwn() throws {
    let (report, _, index) = try buildXML(RouteMergeTests.twoNeustadts(), name: "neustadt")
    // Each town's two ways are one street: two merges, two streets.
    #expect(report.assemble.routesMerged == 2)
    let client = try PlacesClient(indexPaths: [index.path])
    let streets = try client.autocompleteSuggestions(
      for: AutocompleteRequest(query: "Hauptstrasse")
    ).compactMap(\.placeSuggestion).filter { $0.types.contains("route") }
    #expect(streets.count == 2, "\(streets.map(\.placeID))")
    #expect(streets.allSatisfy { $0.secondaryText.text.contains("Neustadt") })
  }
}
