import Foundation
import PlaceCore
import PlaceIndexBuilder
import TestSupport
import Testing

@testable import PlaceIndex

/// Two copies of one church, alike but for their id and their distance from the origin, in
/// one index and split over two shards. Typed with a last word that matches nothing, both are
/// found by the relaxed pass: the nearer one's score is higher by the last bit alone (its
/// nearness at 286 km is 1.5e-15, the other's, past 300 km, 0), which the relaxed penalty's
/// rounding would erase.
@Suite struct RelaxedShardOrderTests {
  static let origin = Coordinate(latitude: 30.0, longitude: -89.0)

  /// An index of the churches `ids` (id 1: 360 km north of the origin; id 2: 286 km).
  static func build(_ ids: [Int], name: String) throws -> String {
    try buildFixtureIndex(
      ids.map { id in
        FixtureNode(
          id: id, latitude: id == 1 ? 33.2375 : 32.5721, longitude: -89.0,
          tags: [
            ("amenity", "place_of_worship"), ("religion", "christian"),
            ("name", "Pleasant Hill Baptist Church"),
          ])
      }, name: name)
  }

  @Test func shardsOrderRelaxedPlacesAsOneIndexDoes() throws {
    let whole = try PlacesClient(indexPaths: [try Self.build([1, 2], name: "whole")])
    let shards = try PlacesClient(indexPaths: [
      try Self.build([1], name: "far"), try Self.build([2], name: "near"),
    ])
    func ids(_ c: PlacesClient) throws -> [String] {
      try c.autocompleteSuggestions(
        for: AutocompleteRequest(
          query: "Pleasant Hill Baptist Chuq", filter: AutocompleteFilter(origin: Self.origin))
      ).compactMap { $0.placeSuggestion?.placeID }
    }
    let one = try ids(whole)
    // The nearer church first: its nearness, a last bit of its score, counts.
    #expect(one == ["N2", "N1"])
    #expect(try ids(shards) == one)
    // Found by the relaxed pass: "chuq" is left out.
    let explained = try whole.explainedSuggestions(
      for: AutocompleteRequest(
        query: "Pleasant Hill Baptist Chuq", filter: AutocompleteFilter(origin: Self.origin)))
    #expect(explained.count == 2 && explained.allSatisfy { $0.breakdown.penalty > 0 })
  }
}
