extension OpenLocationCode {
  /// Cell sizes in degrees after 2, 4, 6 and 8 digits.
  static let pairResolutions: [Double] = [20, 1, 0.05, 0.0025]

  /// Shortening uses this fraction of a cell instead of the theoretical 0.5, as a safety margin
  /// against references that are placed slightly differently when the code is recovered.
  static let shortenSafetyFactor = 0.3

  /// Removes as many leading digits (4, 6 or 8) from a full code as `reference` allows.
  ///
  /// Digits are removed while the reference lies within 0.3 of the cell size of the remaining
  /// prefix from the code's center, so that ``recoverNearest(_:reference:)`` with a nearby
  /// reference restores the code. Returns the upper-cased full code when nothing can be removed.
  /// A code with only 8 digits keeps at least its last two ("22+"), since "+" alone is not a
  /// code.
  /// - Throws: ``OpenLocationCodeError/invalidCode(_:)``, ``OpenLocationCodeError/notFull(_:)``,
  ///   ``OpenLocationCodeError/padded(_:)``, or
  ///   ``OpenLocationCodeError/invalidCoordinate(latitude:longitude:)`` for a non-finite
  ///   reference.
  public static func shorten(_ code: String, reference: Coordinate) throws -> String {
    guard reference.latitude.isFinite, reference.longitude.isFinite else {
      throw OpenLocationCodeError.invalidCoordinate(
        latitude: reference.latitude, longitude: reference.longitude)
    }
    switch classify(code) {
    case .full: break
    case .short, .outOfRange: throw OpenLocationCodeError.notFull(code)
    case nil: throw OpenLocationCodeError.invalidCode(code)
    }
    if code.utf8.contains(paddingByte) { throw OpenLocationCodeError.padded(code) }

    let upper = code.uppercased()
    let center = try decode(upper).center
    let latitude = clipLatitude(reference.latitude)
    let longitude = normalizeLongitude(reference.longitude)
    let range = max(abs(center.latitude - latitude), abs(center.longitude - longitude))
    let digitsAfterSeparator = upper.utf8.count - separatorPosition - 1
    // Try removing 8, then 6, then 4 digits.
    for prefixPairs in stride(from: 4, through: 2, by: -1) {
      let removed = prefixPairs * 2
      if removed == separatorPosition && digitsAfterSeparator == 0 { continue }
      if range < pairResolutions[prefixPairs - 1] * shortenSafetyFactor {
        return String(upper.dropFirst(removed))
      }
    }
    return upper
  }

  /// Recovers the full code nearest to `reference` that ends with the given short code.
  ///
  /// The missing leading digits are taken from the reference, then the area is moved by one
  /// cell north, south, east or west when that puts it closer to the reference (never beyond the
  /// poles). A full code is returned upper-cased, unchanged otherwise.
  /// - Throws: ``OpenLocationCodeError/invalidCode(_:)`` when the code is not valid,
  ///   ``OpenLocationCodeError/notShort(_:)`` when it is valid but neither short nor full, or
  ///   ``OpenLocationCodeError/invalidCoordinate(latitude:longitude:)`` for a non-finite
  ///   reference.
  public static func recoverNearest(_ shortCode: String, reference: Coordinate) throws -> String {
    guard reference.latitude.isFinite, reference.longitude.isFinite else {
      throw OpenLocationCodeError.invalidCoordinate(
        latitude: reference.latitude, longitude: reference.longitude)
    }
    switch classify(shortCode) {
    case .full: return shortCode.uppercased()
    case .short: break
    case .outOfRange: throw OpenLocationCodeError.notShort(shortCode)
    case nil: throw OpenLocationCodeError.invalidCode(shortCode)
    }
    let latitude = clipLatitude(reference.latitude)
    let longitude = normalizeLongitude(reference.longitude)
    let upper = shortCode.uppercased()
    let separatorIndex = upper.utf8.firstIndex(of: separatorByte)!
    let missingDigits =
      separatorPosition
      - upper.utf8.distance(
        from: upper.utf8.startIndex, to: separatorIndex)
    // The size of the cell the missing digits select, and half of it.
    let resolution = pairResolutions[missingDigits / 2 - 1]
    let halfResolution = resolution / 2

    let referenceCode = try encode(latitude: latitude, longitude: longitude)
    let area = try decode(String(referenceCode.prefix(missingDigits)) + upper)
    var centerLatitude = area.center.latitude
    var centerLongitude = area.center.longitude
    if latitude + halfResolution < centerLatitude && centerLatitude - resolution >= -90 {
      centerLatitude -= resolution  // more than half a cell north: one cell south is closer
    } else if latitude - halfResolution > centerLatitude && centerLatitude + resolution <= 90 {
      centerLatitude += resolution
    }
    if longitude + halfResolution < centerLongitude {
      centerLongitude -= resolution
    } else if longitude - halfResolution > centerLongitude {
      centerLongitude += resolution
    }
    return try encode(
      latitude: centerLatitude, longitude: centerLongitude, codeLength: area.codeLength)
  }

  /// Clips a latitude into -90...90.
  static func clipLatitude(_ latitude: Double) -> Double {
    min(max(latitude, -90), 90)
  }

  /// Normalizes a finite longitude into -180..<180.
  static func normalizeLongitude(_ longitude: Double) -> Double {
    guard longitude < -180 || longitude >= 180 else { return longitude }
    var result = longitude.truncatingRemainder(dividingBy: 360)  // exact, within ±360
    if result >= 180 {
      result -= 360
    } else if result < -180 {
      result += 360
    }
    if result >= 180 { result -= 360 }  // rounding of a tiny negative remainder plus 360
    return result
  }
}
