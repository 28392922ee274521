import Foundation

/// Open Location Code ("plus code") validation, encoding and decoding.
///
/// Written from the public Open Location Code specification. Encoding converts the coordinate to
/// integers first (degrees × 2.5e7 for latitude, × 8.192e6 for longitude, floored) and derives
/// every digit with integer arithmetic, as the specification recommends; the floor absorbs the
/// binary representation error of decimal inputs, so codes at grid edges match the reference
/// test data exactly.
/// Every function that accepts a code is case-insensitive; every function that returns one
/// returns upper case.
///
/// Shortening and recovering short codes relative to a reference location live in
/// `OpenLocationCode+Shorten.swift`; ``CodeArea`` and ``OpenLocationCodeError`` in
/// `OpenLocationCode+Types.swift`.
public enum OpenLocationCode {
  /// The separator character, "+".
  public static let separator: Character = "+"
  /// The padding character, "0", used before the separator in codes shorter than 8 digits.
  public static let padding: Character = "0"
  /// The 20 code digits in value order.
  public static let alphabet = "23456789CFGHJMPQRVWX"

  /// The number of digits before the separator in a full code.
  public static let separatorPosition = 8
  /// The smallest valid code length.
  public static let minCodeLength = 2
  /// The number of digits encoded as latitude/longitude pairs.
  public static let pairCodeLength = 10
  /// The largest code length; digits beyond it are ignored when decoding.
  public static let maxCodeLength = 15
  /// The default code length of ``encode(latitude:longitude:codeLength:)`` (about 14 m).
  public static let defaultCodeLength = 10

  // MARK: - Integer grid

  /// Latitude units per degree after the last digit: 20^3 × 5^5.
  static let latitudeUnitsPerDegree: Int64 = 25_000_000
  /// Longitude units per degree after the last digit: 20^3 × 4^5.
  static let longitudeUnitsPerDegree: Int64 = 8_192_000
  /// 180° in latitude units.
  static let latitudeUnitRange: Int64 = 180 * latitudeUnitsPerDegree
  /// 360° in longitude units.
  static let longitudeUnitRange: Int64 = 360 * longitudeUnitsPerDegree
  /// Beyond this magnitude a longitude is reduced modulo 360 in floating point before being
  /// scaled, so the scaled value cannot overflow `Int64`.
  static let longitudeReductionThreshold = 1.0e9

  /// The code digits as ASCII bytes, indexed by value.
  static let digitBytes: [UInt8] = Array(alphabet.utf8)

  static let separatorByte = UInt8(ascii: "+")
  static let paddingByte = UInt8(ascii: "0")

  /// The value (0–19) of an ASCII code digit in either case, or -1 for any other byte.
  @inline(__always)
  static func digitValue(_ byte: UInt8) -> Int {
    switch byte | 0x20 {  // ASCII lower-casing; digits are unaffected
    case UInt8(ascii: "2")...UInt8(ascii: "9"): return Int(byte) - Int(UInt8(ascii: "2"))
    case UInt8(ascii: "c"): return 8
    case UInt8(ascii: "f"): return 9
    case UInt8(ascii: "g"): return 10
    case UInt8(ascii: "h"): return 11
    case UInt8(ascii: "j"): return 12
    case UInt8(ascii: "m"): return 13
    case UInt8(ascii: "p"): return 14
    case UInt8(ascii: "q"): return 15
    case UInt8(ascii: "r"): return 16
    case UInt8(ascii: "v"): return 17
    case UInt8(ascii: "w"): return 18
    case UInt8(ascii: "x"): return 19
    default: return -1
    }
  }

  // MARK: - Validation

  /// What a syntactically valid code is.
  enum Kind: Equatable {
    /// A full code whose first two digits are in range.
    case full
    /// A code with fewer than 8 digits before the separator.
    case short
    /// Full-code syntax, but the first latitude or longitude digit is beyond 90° / 180°.
    case outOfRange
  }

  /// Classifies a code, or returns nil when it is not a valid code.
  ///
  /// Rules (from the specification): exactly one "+", at an even position no later than 8; at
  /// least two digits after it, or none; padding "0"s only in full codes, as one even-length run
  /// that starts at an even position after the first pair and reaches the separator, with
  /// nothing after the separator.
  static func classify(_ code: UnsafeBufferPointer<UInt8>) -> Kind? {
    let count = code.count
    guard count >= 2 else { return nil }
    var separatorIndex = -1
    var firstPadding = -1
    var paddingCount = 0
    for index in 0..<count {
      let byte = code[index]
      if byte == separatorByte {
        guard separatorIndex < 0 else { return nil }
        separatorIndex = index
      } else if byte == paddingByte {
        if firstPadding < 0 { firstPadding = index }
        paddingCount += 1
      } else if digitValue(byte) < 0 {
        return nil
      }
    }
    guard separatorIndex >= 0, separatorIndex <= separatorPosition, separatorIndex % 2 == 0
    else { return nil }
    if firstPadding >= 0 {
      // Padding fills a full code from an even position up to the separator, nothing follows.
      guard separatorIndex == separatorPosition, firstPadding > 0, firstPadding % 2 == 0,
        paddingCount == separatorPosition - firstPadding, count == separatorPosition + 1
      else { return nil }
    }
    // A single digit after the separator is never valid.
    if count - separatorIndex - 1 == 1 { return nil }
    if separatorIndex < separatorPosition { return .short }
    // The first digit is latitude in 20° steps from -90, the second longitude from -180.
    if digitValue(code[0]) * 20 >= 180 || digitValue(code[1]) * 20 >= 360 { return .outOfRange }
    return .full
  }

  /// Classifies a code given as a string; nil when it is not valid.
  static func classify(_ code: String) -> Kind? {
    var code = code
    return code.withUTF8 { classify($0) }
  }

  /// Whether `code` is a valid full or short code (case-insensitive).
  public static func isValid(_ code: String) -> Bool {
    classify(code) != nil
  }

  /// Whether `code` is a valid short code: fewer than 8 digits before the "+".
  public static func isShort(_ code: String) -> Bool {
    classify(code) == .short
  }

  /// Whether `code` is a valid full code whose area lies within ±90° / ±180°.
  public static func isFull(_ code: String) -> Bool {
    classify(code) == .full
  }

  // MARK: - Encoding

  /// Encodes a coordinate as a code with `codeLength` digits (default 10).
  ///
  /// - Parameters:
  ///   - latitude: Degrees; clipped to -90...90. Latitude 90 encodes as the cell just south of
  ///     the pole, so the code decodes again.
  ///   - longitude: Degrees; normalized into -180..<180.
  ///   - codeLength: 2, 4, 6, 8, or 10 and more; lengths above 15 produce 15 digits.
  /// - Throws: ``OpenLocationCodeError/invalidLength(_:)`` for other lengths,
  ///   ``OpenLocationCodeError/invalidCoordinate(latitude:longitude:)`` for NaN or infinity.
  public static func encode(
    latitude: Double, longitude: Double, codeLength: Int = defaultCodeLength
  ) throws -> String {
    guard latitude.isFinite, longitude.isFinite else {
      throw OpenLocationCodeError.invalidCoordinate(latitude: latitude, longitude: longitude)
    }
    guard codeLength >= minCodeLength, codeLength >= pairCodeLength || codeLength % 2 == 0 else {
      throw OpenLocationCodeError.invalidLength(codeLength)
    }
    let units = integerUnits(latitude: latitude, longitude: longitude)
    return encode(
      latitudeUnits: units.latitude, longitudeUnits: units.longitude,
      codeLength: min(codeLength, maxCodeLength))
  }

  /// Converts a finite coordinate to the integer grid the digits are read from.
  ///
  /// Latitude: floor(degrees × 2.5e7) + 90 × 2.5e7, clipped to 0..<180 × 2.5e7 (so latitude 90
  /// lands in the last row below the pole). Longitude: floor(degrees × 8.192e6) + 180 × 8.192e6,
  /// reduced modulo 360 × 8.192e6. The multiplication and the floor happen before the offset is
  /// added, as the specification requires; see ``scaledFloor(_:_:)`` for the floor.
  static func integerUnits(latitude: Double, longitude: Double) -> (
    latitude: Int64, longitude: Int64
  ) {
    // Clipping in degrees first gives the same result as clipping the integer afterwards.
    let clippedLatitude = Swift.min(Swift.max(latitude, -90), 90)
    var lat =
      scaledFloor(clippedLatitude, latitudeUnitsPerDegree) + 90 * latitudeUnitsPerDegree
    if lat < 0 {
      lat = 0
    } else if lat >= latitudeUnitRange {
      lat = latitudeUnitRange - 1
    }

    var reducedLongitude = longitude
    if Swift.abs(reducedLongitude) > longitudeReductionThreshold {
      reducedLongitude = reducedLongitude.truncatingRemainder(dividingBy: 360)  // exact
    }
    var lng =
      scaledFloor(reducedLongitude, longitudeUnitsPerDegree) + 180 * longitudeUnitsPerDegree
    lng %= longitudeUnitRange
    if lng < 0 { lng += longitudeUnitRange }
    return (lat, lng)
  }

  /// Relative distance below an integer within which a scaled value counts as that integer.
  static let snapTolerance = 0x1p-51

  /// floor(degrees × unitsPerDegree), taking the degrees as the decimal number they were written
  /// as.
  ///
  /// A decimal such as -34.45 is stored as the nearest binary double (relative error at most
  /// 2^-53), and the product adds at most as much again, so -34.45 × 2.5e7 comes out a hair
  /// below -861250000 and a plain floor would give -861250001: one grid unit off, which changes
  /// the code at cell edges. A product that lies below an integer by no more than 2^-51 of its
  /// magnitude (twice the worst-case error) is therefore taken to be that integer. Genuine
  /// non-integers are much farther away: a value with 13 decimals, scaled, is at least about
  /// 7e-15 of its magnitude from the nearest integer. With this rule the conversion agrees with
  /// exact decimal arithmetic on every row of the reference test data, including its integer
  /// columns.
  @inline(__always)
  static func scaledFloor(_ degrees: Double, _ unitsPerDegree: Int64) -> Int64 {
    let scaled = degrees * Double(unitsPerDegree)
    let nearest = scaled.rounded()
    if nearest > scaled, nearest - scaled <= Swift.abs(scaled) * snapTolerance {
      return Int64(nearest)
    }
    return Int64(scaled.rounded(.down))
  }

  /// Builds the code text from grid integers; `codeLength` is already valid and at most 15.
  static func encode(latitudeUnits: Int64, longitudeUnits: Int64, codeLength: Int) -> String {
    var lat = latitudeUnits
    var lng = longitudeUnits
    // Digits 1...15, computed from the last one backwards.
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &digits) { digitBuffer in
      digitBytes.withUnsafeBufferPointer { symbols in
        if codeLength > pairCodeLength {
          for index in stride(from: maxCodeLength - 1, through: pairCodeLength, by: -1) {
            digitBuffer[index] = symbols[Int(lat % 5) * 4 + Int(lng % 4)]
            lat /= 5
            lng /= 4
          }
        } else {
          lat /= 3125  // 5^5
          lng /= 1024  // 4^5
        }
        for index in stride(from: pairCodeLength - 2, through: 0, by: -2) {
          digitBuffer[index] = symbols[Int(lat % 20)]
          digitBuffer[index + 1] = symbols[Int(lng % 20)]
          lat /= 20
          lng /= 20
        }
      }
      let textLength = Swift.max(codeLength, separatorPosition) + 1
      return String(unsafeUninitializedCapacity: textLength) { text in
        var out = 0
        for index in 0..<separatorPosition {
          text[out] = index < codeLength ? digitBuffer[index] : paddingByte
          out += 1
        }
        text[out] = separatorByte
        out += 1
        var index = separatorPosition
        while index < codeLength {
          text[out] = digitBuffer[index]
          out += 1
          index += 1
        }
        return out
      }
    }
  }

  // MARK: - Decoding

  /// Decodes a full code into the area it stands for.
  ///
  /// Padding is allowed; digits after the 15th are ignored. The area's south-west corner is
  /// inside it, the north-east corner is not (except at the north pole).
  /// - Throws: ``OpenLocationCodeError/invalidCode(_:)`` when the code is not valid,
  ///   ``OpenLocationCodeError/notFull(_:)`` when it is short or its area is out of range.
  public static func decode(_ code: String) throws -> CodeArea {
    var text = code
    let result = text.withUTF8 { bytes -> Result<CodeArea, OpenLocationCodeError> in
      switch classify(bytes) {
      case .full: return .success(decodeValid(bytes))
      case .short, .outOfRange: return .failure(.notFull(code))
      case nil: return .failure(.invalidCode(code))
      }
    }
    return try result.get()
  }

  /// Decodes bytes already classified as a full code.
  static func decodeValid(_ bytes: UnsafeBufferPointer<UInt8>) -> CodeArea {
    var lat: Int64 = 0
    var lng: Int64 = 0
    var digitCount = 0
    for byte in bytes {
      let value = digitValue(byte)
      if value < 0 { continue }  // "+" and padding
      if digitCount < pairCodeLength {
        if digitCount % 2 == 0 {
          lat = lat * 20 + Int64(value)
        } else {
          lng = lng * 20 + Int64(value)
        }
      } else {
        lat = lat * 5 + Int64(value / 4)
        lng = lng * 4 + Int64(value % 4)
      }
      digitCount += 1
      if digitCount == maxCodeLength { break }
    }
    // Scale to the finest grid; the scale factor is also the cell size in grid units.
    var latitudeCell: Int64 = 1
    var longitudeCell: Int64 = 1
    if digitCount < pairCodeLength {
      for _ in stride(from: digitCount, to: pairCodeLength, by: 2) {
        latitudeCell *= 20
        longitudeCell *= 20
      }
      latitudeCell *= 3125
      longitudeCell *= 1024
    } else {
      for _ in digitCount..<maxCodeLength {
        latitudeCell *= 5
        longitudeCell *= 4
      }
    }
    lat = lat * latitudeCell - 90 * latitudeUnitsPerDegree
    lng = lng * longitudeCell - 180 * longitudeUnitsPerDegree
    let latitudeScale = Double(latitudeUnitsPerDegree)
    let longitudeScale = Double(longitudeUnitsPerDegree)
    return CodeArea(
      latitudeLow: Double(lat) / latitudeScale,
      longitudeLow: Double(lng) / longitudeScale,
      latitudeHigh: Double(lat + latitudeCell) / latitudeScale,
      longitudeHigh: Double(lng + longitudeCell) / longitudeScale,
      codeLength: digitCount)
  }
}
