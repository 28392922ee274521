/// The area a plus code stands for: a latitude/longitude box in degrees.
///
/// The south-west corner (`latitudeLow`, `longitudeLow`) belongs to the area, the north-east
/// corner does not, except where `latitudeHigh` is 90.
public struct CodeArea: Sendable, Hashable {
  /// Southern edge in degrees.
  public var latitudeLow: Double
  /// Western edge in degrees.
  public var longitudeLow: Double
  /// Northern edge in degrees.
  public var latitudeHigh: Double
  /// Eastern edge in degrees.
  public var longitudeHigh: Double
  /// The number of significant digits of the decoded code (2...15).
  public var codeLength: Int

  /// Creates an area from its edges and the code length it came from.
  public init(
    latitudeLow: Double, longitudeLow: Double, latitudeHigh: Double, longitudeHigh: Double,
    codeLength: Int
  ) {
    self.latitudeLow = latitudeLow
    self.longitudeLow = longitudeLow
    self.latitudeHigh = latitudeHigh
    self.longitudeHigh = longitudeHigh
    self.codeLength = codeLength
  }

  /// The middle of the area, capped at latitude 90 and longitude 180.
  public var center: Coordinate {
    Coordinate(
      latitude: min(latitudeLow + (latitudeHigh - latitudeLow) / 2, 90),
      longitude: min(longitudeLow + (longitudeHigh - longitudeLow) / 2, 180))
  }

  /// The south-west corner.
  public var low: Coordinate { Coordinate(latitude: latitudeLow, longitude: longitudeLow) }

  /// The north-east corner.
  public var high: Coordinate { Coordinate(latitude: latitudeHigh, longitude: longitudeHigh) }

  /// Whether the area contains `coordinate`: edges south and west inclusive, north and east
  /// exclusive, except that the northern edge at latitude 90 is inclusive.
  public func contains(_ coordinate: Coordinate) -> Bool {
    let latitudeInside =
      coordinate.latitude >= latitudeLow
      && (coordinate.latitude < latitudeHigh
        || (latitudeHigh >= 90 && coordinate.latitude <= latitudeHigh))
    return latitudeInside && coordinate.longitude >= longitudeLow
      && coordinate.longitude < longitudeHigh
  }
}

/// Why an Open Location Code operation failed; each case carries the offending input.
public enum OpenLocationCodeError: Error, Equatable, CustomStringConvertible {
  /// The text is not a valid plus code (bad character, "+" missing or misplaced, bad padding).
  case invalidCode(String)
  /// The requested code length is not 2, 4, 6, 8, or at least 10.
  case invalidLength(Int)
  /// The code is valid but not a full code (it is short, or its area is beyond ±90°/±180°).
  case notFull(String)
  /// The code is valid but neither a short code nor a full code that could be returned as is.
  case notShort(String)
  /// The code contains padding ("0") and so cannot be shortened.
  case padded(String)
  /// A latitude or longitude is NaN or infinite.
  case invalidCoordinate(latitude: Double, longitude: Double)

  /// A sentence naming the problem and the input.
  public var description: String {
    switch self {
    case .invalidCode(let code):
      return "\"\(code)\" is not a valid plus code."
    case .invalidLength(let length):
      return
        "Plus code length \(length) is not valid: use 2, 4, 6, 8, or 10 and more (15 at most are encoded)."
    case .notFull(let code):
      return
        "\"\(code)\" is not a full plus code: it is short or lies beyond latitude 90 or longitude 180."
    case .notShort(let code):
      return "\"\(code)\" is neither a short nor a full plus code, so it cannot be recovered."
    case .padded(let code):
      return "\"\(code)\" is padded with \"0\" and cannot be shortened."
    case .invalidCoordinate(let latitude, let longitude):
      return "Coordinate (\(latitude), \(longitude)) is not a finite latitude and longitude."
    }
  }
}
