import Foundation
import TestSupport
import Testing

@testable import PlaceCore

// MARK: - Reference data

/// The Open Location Code reference CSVs (copies of google/open-location-code `test_data`).
///
/// Found at `<package root>/../shared/data/olc`, or at `$PLACEINDEX_SHARED/data/olc` when that
/// variable names the shared folder.
enum OLCReferenceData {
  static let directory: URL = TestPaths.olc

  static let fileNames = [
    "encoding.csv", "decoding.csv", "shortCodeTests.csv", "validityTests.csv",
  ]

  /// Whether all four files are present.
  static var isAvailable: Bool {
    fileNames.allSatisfy {
      FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
    }
  }

  /// The data rows of a file, split on commas (empty fields kept), with comment lines ("#")
  /// and blank lines removed; each row also carries its line number for failure messages.
  static func rows(_ fileName: String) throws -> [(line: Int, fields: [String])] {
    let text = try String(
      contentsOf: directory.appendingPathComponent(fileName), encoding: .utf8)
    var result: [(line: Int, fields: [String])] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      result.append((index + 1, fields))
    }
    return result
  }
}

// The reference tests read the shared data folder. When it is missing (the package checked out
// on its own), they are reported as skipped rather than passing without checking anything (the
// suite has no display name, so that `make test` can count its tests by its type's name).
@Suite(
  .enabled(
    if: OLCReferenceData.isAvailable,
    "Open Location Code CSVs not found in \(OLCReferenceData.directory.path); set PLACEINDEX_SHARED to the shared folder"
  ))
struct OpenLocationCodeReferenceTests {
  /// encoding.csv: latitude, longitude, latitude and longitude as grid integers, code length,
  /// expected code (empty when encoding must fail).
  @Test func encodingCSV() throws {
    var checked = 0
    for (line, fields) in try OLCReferenceData.rows("encoding.csv") {
      try #require(fields.count == 6, "encoding.csv line \(line): \(fields)")
      let latitude = try #require(Double(fields[0]), "line \(line)")
      let longitude = try #require(Double(fields[1]), "line \(line)")
      let latitudeUnits = try #require(Int64(fields[2]), "line \(line)")
      let longitudeUnits = try #require(Int64(fields[3]), "line \(line)")
      let length = try #require(Int(fields[4]), "line \(line)")
      let expected = fields[5]

      let units = OpenLocationCode.integerUnits(latitude: latitude, longitude: longitude)
      #expect(units.latitude == latitudeUnits, "encoding.csv line \(line): latitude integer")
      #expect(units.longitude == longitudeUnits, "encoding.csv line \(line): longitude integer")

      if expected.isEmpty {
        #expect(throws: OpenLocationCodeError.invalidLength(length), "encoding.csv line \(line)") {
          try OpenLocationCode.encode(
            latitude: latitude, longitude: longitude, codeLength: length)
        }
      } else {
        let code = try OpenLocationCode.encode(
          latitude: latitude, longitude: longitude, codeLength: length)
        #expect(code == expected, "encoding.csv line \(line): \(latitude),\(longitude) @\(length)")
      }
      checked += 1
    }
    print("olc encoding.csv: \(checked) rows checked")
    try #require(checked > 0)
  }

  /// decoding.csv: code, length, latLo, lngLo, latHi, lngHi; values agree within 1e-10.
  @Test func decodingCSV() throws {
    let tolerance = 1e-10
    var checked = 0
    for (line, fields) in try OLCReferenceData.rows("decoding.csv") {
      try #require(fields.count == 6, "decoding.csv line \(line): \(fields)")
      let code = fields[0]
      let length = try #require(Int(fields[1]), "line \(line)")
      let bounds = try fields[2...5].map { try #require(Double($0), "line \(line)") }

      let area = try OpenLocationCode.decode(code)
      #expect(area.codeLength == length, "decoding.csv line \(line): \(code) length")
      #expect(abs(area.latitudeLow - bounds[0]) <= tolerance, "line \(line): \(code) latLo")
      #expect(abs(area.longitudeLow - bounds[1]) <= tolerance, "line \(line): \(code) lngLo")
      #expect(abs(area.latitudeHigh - bounds[2]) <= tolerance, "line \(line): \(code) latHi")
      #expect(abs(area.longitudeHigh - bounds[3]) <= tolerance, "line \(line): \(code) lngHi")
      checked += 1
    }
    print("olc decoding.csv: \(checked) rows checked")
    try #require(checked > 0)
  }

  /// shortCodeTests.csv: full code, reference lat, lng, short code, test type (R = recovery
  /// only, S = shorten only, B = both).
  @Test func shortCodeCSV() throws {
    var checked = 0
    for (line, fields) in try OLCReferenceData.rows("shortCodeTests.csv") {
      try #require(fields.count == 5, "shortCodeTests.csv line \(line): \(fields)")
      let fullCode = fields[0]
      let reference = Coordinate(
        latitude: try #require(Double(fields[1]), "line \(line)"),
        longitude: try #require(Double(fields[2]), "line \(line)"))
      let shortCode = fields[3]
      let testType = fields[4]
      try #require(["R", "S", "B"].contains(testType), "line \(line): test type \(testType)")

      if testType == "S" || testType == "B" {
        let shortened = try OpenLocationCode.shorten(fullCode, reference: reference)
        #expect(shortened == shortCode, "shortCodeTests.csv line \(line): shorten \(fullCode)")
      }
      if testType == "R" || testType == "B" {
        let recovered = try OpenLocationCode.recoverNearest(shortCode, reference: reference)
        #expect(recovered == fullCode, "shortCodeTests.csv line \(line): recover \(shortCode)")
      }
      checked += 1
    }
    print("olc shortCodeTests.csv: \(checked) rows checked")
    try #require(checked > 0)
  }

  /// validityTests.csv: code, isValid, isShort, isFull.
  @Test func validityCSV() throws {
    var checked = 0
    for (line, fields) in try OLCReferenceData.rows("validityTests.csv") {
      try #require(fields.count == 4, "validityTests.csv line \(line): \(fields)")
      let code = fields[0]
      let flags = fields[1...3].compactMap { Bool($0) }
      try #require(flags.count == 3, "validityTests.csv line \(line): flags must be true/false")
      #expect(OpenLocationCode.isValid(code) == flags[0], "validityTests.csv line \(line): \(code)")
      #expect(OpenLocationCode.isShort(code) == flags[1], "validityTests.csv line \(line): \(code)")
      #expect(OpenLocationCode.isFull(code) == flags[2], "validityTests.csv line \(line): \(code)")
      checked += 1
    }
    print("olc validityTests.csv: \(checked) rows checked")
    try #require(checked > 0)
  }
}

// MARK: - Hand-written cases

@Suite("Open Location Code edge cases")
struct OpenLocationCodeEdgeCaseTests {
  @Test(arguments: [Int.min, -2, 0, 1, 3, 5, 7, 9])
  func invalidLengthsThrow(length: Int) {
    #expect(throws: OpenLocationCodeError.invalidLength(length)) {
      try OpenLocationCode.encode(latitude: 47.365590, longitude: 8.524997, codeLength: length)
    }
  }

  @Test func lengthsAreClampedAndPadded() throws {
    let encode = { (length: Int) in
      try OpenLocationCode.encode(latitude: 47.365590, longitude: 8.524997, codeLength: length)
    }
    #expect(try encode(2) == "8F000000+")
    #expect(try encode(4) == "8FVC0000+")
    #expect(try encode(6) == "8FVC9G00+")
    #expect(try encode(8) == "8FVC9G8F+")
    #expect(try encode(10) == "8FVC9G8F+6X")
    #expect(try encode(11).count == 12)
    #expect(try encode(15).count == 16)
    #expect(try encode(16) == encode(15))
    #expect(try encode(Int.max) == encode(15))
    #expect(try OpenLocationCode.encode(latitude: 47.365590, longitude: 8.524997) == encode(10))
  }

  @Test func nonFiniteCoordinatesThrow() {
    for (latitude, longitude) in [
      (Double.nan, 0), (0, Double.nan), (Double.infinity, 0), (0, -Double.infinity),
    ] {
      // Pinned to the case: NaN is not equal to itself, so the error cannot be compared whole.
      let bad: @Sendable (any Error) -> Bool = { error in
        guard case .invalidCoordinate = error as? OpenLocationCodeError else { return false }
        return true
      }
      #expect(
        performing: { try OpenLocationCode.encode(latitude: latitude, longitude: longitude) },
        throws: bad)
      let reference = Coordinate(latitude: latitude, longitude: longitude)
      #expect(
        performing: { try OpenLocationCode.shorten("8FVC9G8F+6X", reference: reference) },
        throws: bad)
      #expect(
        performing: { try OpenLocationCode.recoverNearest("9G8F+6X", reference: reference) },
        throws: bad)
    }
    do {
      _ = try OpenLocationCode.encode(latitude: .nan, longitude: 1)
      Issue.record("expected an error")
    } catch let error as OpenLocationCodeError {
      guard case .invalidCoordinate(let latitude, let longitude) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(latitude.isNaN && longitude == 1)
      #expect(error.description.contains("not a finite"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func hugeLongitudesNormalize() throws {
    // Far outside any real value, but must neither trap nor loop.
    let code = try OpenLocationCode.encode(latitude: 10, longitude: 1e300)
    #expect(OpenLocationCode.isFull(code))
    #expect(
      try OpenLocationCode.encode(latitude: 10, longitude: 8 + 360 * 1e6)
        == OpenLocationCode.encode(latitude: 10, longitude: 8))
    #expect(try OpenLocationCode.encode(latitude: 1e300, longitude: 0) == "CFX2X2X2+X2")
  }

  @Test func lowercaseInputIsAccepted() throws {
    #expect(OpenLocationCode.isFull("8fvc9g8f+6x"))
    #expect(OpenLocationCode.isShort("9g8f+6x"))
    let upper = try OpenLocationCode.decode("8FVC9G8F+6X")
    #expect(try OpenLocationCode.decode("8fvc9g8f+6x") == upper)
    let reference = upper.center
    #expect(try OpenLocationCode.shorten("8fvc9g8f+6x", reference: reference) == "+6X")
    #expect(try OpenLocationCode.recoverNearest("9g8f+6x", reference: reference) == "8FVC9G8F+6X")
    #expect(
      try OpenLocationCode.recoverNearest("8fvc9g8f+6x", reference: reference) == "8FVC9G8F+6X")
  }

  @Test func paddedCodes() throws {
    let area = try OpenLocationCode.decode("8FVC0000+")
    #expect(area.codeLength == 4)
    #expect(area.latitudeLow == 47 && area.latitudeHigh == 48)
    #expect(area.longitudeLow == 8 && area.longitudeHigh == 9)
    #expect(area.center == Coordinate(latitude: 47.5, longitude: 8.5))
    #expect(throws: OpenLocationCodeError.padded("8FVC0000+")) {
      try OpenLocationCode.shorten("8FVC0000+", reference: area.center)
    }
    // Padding must be an even run reaching the separator, with nothing after it.
    for invalid in ["8FVC000+", "8FVC0000+22", "8F0C0000+", "8FVC00GG+", "8FV00000+", "00000000+"] {
      #expect(!OpenLocationCode.isValid(invalid), "\(invalid)")
    }
  }

  @Test func decodeErrorsNameTheInput() {
    #expect(throws: OpenLocationCodeError.invalidCode("8FVC9G8F+6")) {
      try OpenLocationCode.decode("8FVC9G8F+6")
    }
    #expect(throws: OpenLocationCodeError.invalidCode("")) { try OpenLocationCode.decode("") }
    #expect(throws: OpenLocationCodeError.notFull("9G8F+6X")) {
      try OpenLocationCode.decode("9G8F+6X")
    }
    // Valid syntax, but the first latitude digit is beyond 90°.
    #expect(OpenLocationCode.isValid("X2222222+") && !OpenLocationCode.isFull("X2222222+"))
    #expect(throws: OpenLocationCodeError.notFull("X2222222+")) {
      try OpenLocationCode.decode("X2222222+")
    }
    #expect(throws: OpenLocationCodeError.notShort("X2222222+")) {
      try OpenLocationCode.recoverNearest(
        "X2222222+", reference: Coordinate(latitude: 0, longitude: 0))
    }
    #expect(throws: OpenLocationCodeError.notFull("9G8F+6X")) {
      try OpenLocationCode.shorten("9G8F+6X", reference: Coordinate(latitude: 47, longitude: 8))
    }
    #expect(
      OpenLocationCodeError.invalidCode("abc").description == "\"abc\" is not a valid plus code.")
    #expect(OpenLocationCodeError.invalidLength(3).description.contains("3"))
  }

  @Test func northPoleAndAntimeridian() throws {
    // Latitude 90 falls in the last row below the pole; longitude 180 wraps to -180.
    let code = try OpenLocationCode.encode(latitude: 90, longitude: 180)
    #expect(code == "C2X2X2X2+X2")
    let area = try OpenLocationCode.decode(code)
    #expect(area.latitudeHigh == 90)
    #expect(area.contains(Coordinate(latitude: 90, longitude: -180)))
    #expect(try OpenLocationCode.encode(latitude: -90, longitude: -180) == "22222222+22")
  }

  @Test func eightDigitCodeKeepsTwoDigitsWhenShortened() throws {
    let area = try OpenLocationCode.decode("8FJFW222+")
    #expect(try OpenLocationCode.shorten("8FJFW222+", reference: area.center) == "22+")
    #expect(try OpenLocationCode.recoverNearest("22+", reference: area.center) == "8FJFW222+")
  }

  @Test func farReferenceKeepsFullCode() throws {
    let reference = Coordinate(latitude: 38.800562, longitude: -9.064937)
    #expect(try OpenLocationCode.shorten("8fvc9g8f+6w", reference: reference) == "8FVC9G8F+6W")
  }
}

// MARK: - Property test

@Suite("Open Location Code properties")
struct OpenLocationCodePropertyTests {
  @Test(arguments: [10, 11])
  func randomCoordinatesRoundTrip(codeLength: Int) throws {
    var generator = SplitMix64(state: 0x0C0D_E5EE_D000 + UInt64(codeLength))
    let iterations = 5_000
    for _ in 0..<iterations {
      let coordinate = Coordinate(
        latitude: generator.double(in: -90...90),
        longitude: -180 + 360 * generator.unit())
      let code = try OpenLocationCode.encode(
        latitude: coordinate.latitude, longitude: coordinate.longitude, codeLength: codeLength)
      #expect(OpenLocationCode.isFull(code), "\(code)")
      let area = try OpenLocationCode.decode(code)
      #expect(area.codeLength == codeLength)
      #expect(area.contains(coordinate), "\(coordinate) not in \(code) \(area)")

      let center = area.center
      let short = try OpenLocationCode.shorten(code, reference: center)
      #expect(OpenLocationCode.isShort(short), "\(code) -> \(short)")
      #expect(try OpenLocationCode.recoverNearest(short, reference: center) == code, "\(short)")
    }
    print("olc property test: \(iterations) coordinates at length \(codeLength) checked")
  }
}
