import PlaceCore

/// A circle or rectangle used as a location bias or restriction.
public enum CoordinateRegion: Sendable, Hashable {
  /// A circle: center and radius in meters.
  case circle(center: Coordinate, radiusMeters: Double)
  /// A rectangle from its low (south-west) to its high (north-east) corner. A low longitude
  /// above the high one crosses the antimeridian.
  case rectangle(low: Coordinate, high: Coordinate)

  /// Whether `point` lies inside the region.
  public func contains(_ point: Coordinate) -> Bool {
    switch self {
    case .circle(let center, let radius):
      return center.distance(to: point) <= radius
    case .rectangle(let low, let high):
      guard point.latitude >= low.latitude, point.latitude <= high.latitude else { return false }
      if low.longitude == -180 && high.longitude == 180 { return true }
      if low.longitude <= high.longitude {
        return point.longitude >= low.longitude && point.longitude <= high.longitude
      }
      return point.longitude >= low.longitude || point.longitude <= high.longitude
    }
  }

  /// A point that stands for the region when ranking by distance.
  public var center: Coordinate {
    switch self {
    case .circle(let center, _): return center
    case .rectangle(let low, let high):
      var lon = (low.longitude + high.longitude) / 2
      if low.longitude > high.longitude { lon = lon > 0 ? lon - 180 : lon + 180 }
      return Coordinate(latitude: (low.latitude + high.latitude) / 2, longitude: lon)
    }
  }

  /// Checks the region's rules; `role` is "locationBias" or "locationRestriction".
  func validate(role: String) throws(PlacesError) {
    switch self {
    case .circle(let center, let radius):
      guard center.isValid else {
        throw .invalidArgument(
          "\(role) circle center \(center.latitude),\(center.longitude) is not a valid coordinate")
      }
      guard radius.isFinite, radius >= 0, radius <= 50_000 else {
        throw .invalidArgument("\(role) circle radius \(radius) must be between 0 and 50000 meters")
      }
      if role == "locationRestriction" && radius == 0 {
        throw .invalidArgument("\(role) circle radius must be greater than 0")
      }
    case .rectangle(let low, let high):
      for (name, c) in [("low", low), ("high", high)] where !c.isValid {
        throw .invalidArgument(
          "\(role) rectangle \(name) corner \(c.latitude),\(c.longitude) is not a valid coordinate")
      }
      guard low.latitude <= high.latitude else {
        throw .invalidArgument(
          "\(role) rectangle low latitude \(low.latitude) is above high latitude \(high.latitude)")
      }
      if low.longitude == 180 && high.longitude == -180 {
        throw .invalidArgument(
          "\(role) rectangle is empty (low longitude 180, high longitude -180)")
      }
    }
  }
}
