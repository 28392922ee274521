import Foundation
import PlaceCore
import PlaceIndexFormat

extension LoadedIndex {
  /// The places that may lie in `region`, by rank, from the GEO section; nil when there are
  /// more than `limit` (then scanning the text matches is cheaper). A superset: the
  /// caller checks each position against the region.
  func placesNear(_ region: CoordinateRegion, limit: Int) throws -> [Int]? {
    let box = region.boundingBoxE7
    return try geo.candidates(
      southE7: box.south, northE7: box.north, westE7: box.west, eastE7: box.east, limit: limit)
  }
}
