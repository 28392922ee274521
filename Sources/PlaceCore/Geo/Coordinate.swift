/// A WGS 84 position in degrees.
///
/// The library's own coordinate type: the reader must build where CoreLocation does not exist.
public struct Coordinate: Sendable, Hashable, Codable {
  /// Degrees north of the equator, -90 to 90.
  public var latitude: Double
  /// Degrees east of Greenwich, -180 to 180.
  public var longitude: Double

  /// Creates a coordinate; use ``isValid`` to check the range.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether both values are finite and in range.
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude)
      && (-180...180).contains(longitude)
  }
}
