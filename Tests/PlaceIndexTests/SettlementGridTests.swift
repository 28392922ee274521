import Foundation
import PlaceCore
import Testing

@testable import PlaceIndex

/// The settlements' grid finds what a scan of every settlement finds, in the same order,
/// across the antimeridian and near the poles.
@Suite struct SettlementGridTests {
  @Test func theGridFindsWhatAScanFinds() throws {
    let client = try PlacesClient(indexPaths: [sampleIndexPath])
    let all = client.settlements.all(in: client.indexes)
    try #require(all.count >= 3, "the sample has \(all.count) settlements")
    var rng = SplitMix64(seed: 11)
    var found = 0
    for k in 0..<400 {
      // Points near the sample's settlements, and anywhere on the globe (poles, ±180°).
      let center: Coordinate
      if k % 2 == 0 {
        let s = rng.element(of: all).coordinate
        center = Coordinate(
          latitude: s.latitude + rng.double(in: -0.5...0.5),
          longitude: s.longitude + rng.double(in: -0.5...0.5))
      } else {
        center = Coordinate(
          latitude: rng.double(in: -90...90), longitude: rng.double(in: -180...180))
      }
      let reach = rng.double(in: 0.01...0.6)
      let longitudeReach = k % 7 == 0 ? 180 : rng.double(in: 0.01...3)
      let scan = all.filter {
        abs($0.coordinate.latitude - center.latitude) <= reach
          && PlacesClient.longitudeGap($0.coordinate.longitude, center.longitude)
            <= longitudeReach
      }
      let grid = client.settlements.near(
        center, reach: reach, longitudeReach: longitudeReach, in: client.indexes)
      #expect(grid.map(\.label) == scan.map(\.label), "\(center) ± \(reach), \(longitudeReach)")
      found += grid.count
    }
    #expect(found > 0)
  }

  @Test func columnsWrapAtTheAntimeridian() {
    #expect(Settlements.column(180) == Settlements.column(-180))
    #expect(Settlements.column(179.99) == Settlements.column(-180.01))
    #expect(Settlements.wrap(720) == -720 && Settlements.wrap(-721) == 719)
  }
}
