import Foundation

extension Coordinate {
  /// Mean earth radius in meters (IUGG), used for great-circle distances.
  public static let earthRadiusMeters = 6_371_008.8

  /// Great-circle distance in meters to `other`, by the haversine formula.
  public func distance(to other: Coordinate) -> Double {
    let toRadians = Double.pi / 180
    let phi1 = latitude * toRadians
    let phi2 = other.latitude * toRadians
    let dPhi = (other.latitude - latitude) * toRadians
    let dLambda = (other.longitude - longitude) * toRadians
    let a =
      sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * Coordinate.earthRadiusMeters * asin(min(1, a.squareRoot()))
  }
}
