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
