import OSMReader
import PlaceIndexFormat

/// An OSM element that may become a place: its id, representative point and tags.
struct ExtractedElement: Sendable {
  var kind: OSMElementKind
  var id: Int64
  var latitudeE7: Int32
  var longitudeE7: Int32
  var tags: PackedTags
  /// Whether the element is an area (closed way or multipolygon/boundary relation).
  var isArea: Bool
  /// The bounding box of a way's or relation's geometry (nil for a node).
  var box: GeoBoxE7? = nil
}

/// An administrative or place area assembled from a relation or closed way, for the admin stage.
struct AreaElement: Sendable {
  var kind: OSMElementKind
  var id: Int64
  var tags: [String: String]
  /// Closed rings in 1e-7 degrees (outer rings only; holes are ignored at this scale).
  var rings: [[(Int32, Int32)]]
}
