import Foundation
import PlaceCore
import PlaceIndexFormat

extension LoadedIndex {
  /// The places that may lie in `region` from the GEO section, by rank (in curve order when
  /// `sorted` is false); nil when there are more than `limit` (then scanning the text matches
  /// is cheaper). A superset: the caller checks each position against the region.
  func placesNear(_ region: CoordinateRegion, limit: Int, sorted: Bool = true)
    throws(IndexFormatError) -> [Int]?
  {
    let box = region.boundingBoxE7
    return try geo.candidates(
      southE7: box.south, northE7: box.north, westE7: box.west, eastE7: box.east, limit: limit,
      sorted: sorted)
  }
}
