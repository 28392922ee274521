import Foundation
import PlaceCore
import PlaceIndexFormat
import TestSupport
import Testing

@testable import PlaceIndex

/// A restriction region answered from the GEO section gives what scanning the text matches
/// gives.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct RegionLookupTests {
  @Test func restrictedSearchesEqualTheTextScan() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var random = SplitMix64(seed: 99)
    var lookups = 0
    var nonEmpty = 0
    let queries = ["a", "k", "s", "ra", "cafe", "mann", "hel", "ko 1"]
    for _ in 0..<120 {
      var m = PlaceMatch()
      try index.places.match(Int(random.next() % UInt64(index.placeCount)), into: &m)
      let center = Coordinate(
        latitude: Double(m.latitudeE7) / 1e7, longitude: Double(m.longitudeE7) / 1e7)
      let radius = Double(50 + random.next() % 1500)
      let region: CoordinateRegion =
        random.next() % 2 == 0
        ? .circle(center: center, radiusMeters: radius)
        : .rectangle(
          low: Coordinate(latitude: center.latitude - 0.004, longitude: center.longitude - 0.008),
          high: Coordinate(latitude: center.latitude + 0.004, longitude: center.longitude + 0.008))
      let query = queries[Int(random.next() % UInt64(queries.count))]
      let plan = QueryPlan(query: query, inputOffset: nil)
      let filter = AutocompleteFilter(coordinateRegionRestriction: region)
      let viaRegion = try index.search(plan, filter: filter, typeFilter: .any, limit: 10)
      let viaText = try index.search(
        plan, filter: filter, typeFilter: .any, limit: 10, regionLookup: false)
      #expect(viaRegion.map(\.rank) == viaText.map(\.rank), "\(query) in \(region)")
      #expect(viaRegion.map(\.score) == viaText.map(\.score))
      if let near = try index.placesNear(region, limit: index.placeCount) {
        lookups += 1
        #expect(Set(viaRegion.map(\.rank)).isSubset(of: near))
      }
      if !viaRegion.isEmpty { nonEmpty += 1 }
      for p in viaRegion {
        let point = Coordinate(
          latitude: Double(p.latitudeE7) / 1e7, longitude: Double(p.longitudeE7) / 1e7)
        #expect(region.contains(point))
      }
    }
    #expect(lookups == 120)
    #expect(nonEmpty >= 30)
  }
}

/// The bounding boxes that region lookups start from.
@Suite struct RegionBoundingBoxTests {
  @Test func aCircleOverTheAntimeridianWrapsAndHoldsItsEdges() {
    let center = Coordinate(latitude: -17, longitude: 179.999)
    let box = CoordinateRegion.circle(center: center, radiusMeters: 5_000).boundingBoxE7
    #expect(box.west > box.east)  // crosses the antimeridian
    #expect(box.west < 1_799_990_000 && box.east > -1_800_000_000)
    // A point 4.9 km east, across the line, lies in the box.
    let eastLon = 179.999 + 4_900 / (111_320 * cos(17 * Double.pi / 180)) - 360
    #expect(Int64(eastLon * 1e7) <= box.east)
    #expect(box.south < -170_000_000 && box.north > -170_000_000)
  }

  @Test func aCircleNearThePoleTakesEveryLongitude() {
    let box = CoordinateRegion.circle(
      center: Coordinate(latitude: 89.99, longitude: 10), radiusMeters: 2_000
    ).boundingBoxE7
    #expect(box.west == -1_800_000_000 && box.east == 1_800_000_000)
    #expect(box.north == 900_000_000)
  }
}
