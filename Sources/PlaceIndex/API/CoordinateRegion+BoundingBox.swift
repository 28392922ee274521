import Foundation
import PlaceCore

extension CoordinateRegion {
  /// The region's bounding box in 1e-7 degrees; west > east when it crosses the antimeridian.
  var boundingBoxE7: (south: Int64, north: Int64, west: Int64, east: Int64) {
    func e7(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }
    switch self {
    case .rectangle(let low, let high):
      return (e7(low.latitude), e7(high.latitude), e7(low.longitude), e7(high.longitude))
    case .circle(let center, let radius):
      // A degree of latitude is at least 110,574 m; 1% margin for the sphere's rounding.
      let dLat = radius * 1.01 / 110_574
      let south = max(-90, center.latitude - dLat)
      let north = min(90, center.latitude + dLat)
      let widest = max(abs(south), abs(north))
      let cosine = cos(widest * .pi / 180)
      guard widest < 89, cosine > 0.01 else { return (e7(south), e7(north), e7(-180), e7(180)) }
      let dLon = radius * 1.01 / (111_320 * cosine)
      guard dLon < 180 else { return (e7(south), e7(north), e7(-180), e7(180)) }
      var west = center.longitude - dLon
      var east = center.longitude + dLon
      if west < -180 { west += 360 }
      if east > 180 { east -= 360 }
      return (e7(south), e7(north), e7(west), e7(east))
    }
  }

  /// The farthest a point of the region lies from `point`, in meters, with a margin; infinite
  /// for a rectangle that crosses the antimeridian.
  func reach(from point: Coordinate) -> Double {
    switch self {
    case .circle(let center, let radius):
      return (point.distance(to: center) + radius) * 1.01 + 10
    case .rectangle(let low, let high):
      guard low.longitude <= high.longitude else { return .infinity }
      let corners = [
        low, high, Coordinate(latitude: low.latitude, longitude: high.longitude),
        Coordinate(latitude: high.latitude, longitude: low.longitude),
      ]
      // A small rectangle's farthest point from a point is a corner; a wide one's edges may
      // bulge past its corners on the sphere, hence the larger margin.
      let farthest = corners.map { point.distance(to: $0) }.max() ?? .infinity
      return farthest * 1.05 + 100
    }
  }
}
