import Foundation
import PlaceCore
import PlaceIndexBuilder
import TestSupport
import Testing

@testable import PlaceIndex

/// The sample index, built once for the reader tests.
let sampleIndexPath: String = {
  let dir = try! TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("sample.placeidx").path
  let tables = try! BuildTables(directory: TestPaths.data)
  _ = try! IndexBuilder(tables: tables).build(
    IndexBuilder.Options(extract: TestPaths.data + "/sample.osm", output: out))
  return out
}()

func sampleClient() throws -> PlacesClient { try PlacesClient(indexPaths: [sampleIndexPath]) }

func places(_ s: [AutocompleteSuggestion]) -> [AutocompletePlaceSuggestion] {
  s.compactMap(\.placeSuggestion)
}

@Suite struct ReaderTests {
  @Test func prefixFindsThePharmacyWithHighlights() throws {
    let c = try sampleClient()
    let s = places(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "apo")))
    let pharmacy = try #require(s.first)
    #expect(pharmacy.types.first == "pharmacy")
    #expect(pharmacy.primaryText.text == "Apotheke zum Löwen")
    #expect(pharmacy.primaryText.matches == [0..<3])
    #expect(pharmacy.fullText.text.hasPrefix(pharmacy.primaryText.text + ", "))
  }

  @Test func foldingFindsDiacritics() throws {
    let c = try sampleClient()
    for q in ["loewen", "LÖWEN", "lowen"] {
      let s = places(
        try c.autocompleteSuggestions(for: AutocompleteRequest(query: "apotheke " + q)))
      #expect(s.first?.primaryText.text == "Apotheke zum Löwen", "query \(q)")
    }
  }

  @Test func tokensMatchInAnyOrder() throws {
    let c = try sampleClient()
    let a = places(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "zum apotheke")))
    #expect(a.first?.primaryText.text == "Apotheke zum Löwen")
  }

  @Test func emptyAndWhitespaceQueriesReturnNothing() throws {
    let c = try sampleClient()
    #expect(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "")).isEmpty)
    #expect(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "   \t")).isEmpty)
  }

  @Test func resultsNeverExceedTheLimit() throws {
    let c = try sampleClient()
    #expect(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "s")).count == 5)
    #expect(
      try c.autocompleteSuggestions(for: AutocompleteRequest(query: "s", maxResultCount: 8)).count
        == 8)
  }

  @Test func originGivesHaversineDistances() throws {
    let c = try sampleClient()
    let origin = Coordinate(latitude: 47.2, longitude: 9.8)
    let s = places(
      try c.autocompleteSuggestions(
        for: AutocompleteRequest(query: "haupt", filter: AutocompleteFilter(origin: origin))))
    #expect(!s.isEmpty)
    for p in s {
      let place = try c.fetchPlace(
        with: FetchPlaceRequest(placeID: p.placeID, placeProperties: [.coordinate]))
      let expected = origin.distance(to: try #require(place.coordinate))
      #expect(abs(Double(try #require(p.distanceMeters)) - expected) <= 1)
    }
    let none = places(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "haupt")))
    #expect(none.allSatisfy { $0.distanceMeters == nil })
  }

  @Test func inputOffsetCutsTheQuery() throws {
    let c = try sampleClient()
    var f = AutocompleteFilter()
    f.inputOffset = 3
    let s = places(
      try c.autocompleteSuggestions(for: AutocompleteRequest(query: "apoXYZ", filter: f)))
    #expect(s.first?.types.first == "pharmacy")
  }

  @Test func regionCodeDropsTheCountryName() throws {
    let c = try sampleClient()
    let with = places(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "apotheke")))
    #expect(with.first?.secondaryText.text.hasSuffix("Austria") == true)
    let without = places(
      try c.autocompleteSuggestions(
        for: AutocompleteRequest(query: "apotheke", filter: AutocompleteFilter(regionCode: "at"))))
    #expect(without.first?.secondaryText.text.contains("Austria") == false)
  }

  /// A client keeps what it showed of a place per language and region: one request's display
  /// never leaks into another's.
  @Test func keptDisplaysKeepLanguagesAndRegionsApart() throws {
    let c = try sampleClient()
    func first(_ filter: AutocompleteFilter) throws -> AutocompletePlaceSuggestion? {
      places(
        try c.autocompleteSuggestions(for: AutocompleteRequest(query: "apotheke", filter: filter))
      ).first
    }
    for _ in 0..<2 {
      let plain = try first(AutocompleteFilter())
      #expect(plain?.primaryText.text == "Apotheke zum Löwen")
      #expect(plain?.secondaryText.text.hasSuffix("Austria") == true)
      let english = try first(AutocompleteFilter(languageCode: "en"))
      #expect(english?.primaryText.text == "Lion Pharmacy")
      #expect(english?.placeID == plain?.placeID)
      let local = try first(AutocompleteFilter(regionCode: "at"))
      #expect(local?.primaryText.text == "Apotheke zum Löwen")
      #expect(local?.secondaryText.text.contains("Austria") == false)
    }
  }

  @Test func detailsReturnOnlyTheRequestedFields() throws {
    let c = try sampleClient()
    let s = try #require(
      places(try c.autocompleteSuggestions(for: AutocompleteRequest(query: "apotheke"))).first)
    let p = try c.fetchPlace(
      with: FetchPlaceRequest(placeID: s.placeID, placeProperties: [.displayName, .types]))
    #expect(p.displayName == "Apotheke zum Löwen")
    #expect(p.types?.first == "pharmacy")
    #expect(p.coordinate == nil && p.formattedAddress == nil && p.plusCode == nil)
    #expect(throws: PlacesError.notFound("no place with ID 'N1'")) {
      try c.fetchPlace(with: FetchPlaceRequest(placeID: "N1", placeProperties: [.displayName]))
    }
    #expect(
      throws: PlacesError.invalidArgument(
        "'X12' is not a place ID (expected N, W, R or P and digits)")
    ) {
      try c.fetchPlace(with: FetchPlaceRequest(placeID: "X12", placeProperties: [.displayName]))
    }
  }

  static let invalid: [(String, AutocompleteFilter)] = [
    (
      "six types",
      AutocompleteFilter(types: ["bank", "cafe", "bar", "bakery", "pharmacy", "museum"])
    ),
    ("unknown type", AutocompleteFilter(types: ["space_elevator"])),
    ("collection mixed", AutocompleteFilter(types: ["(cities)", "bank"])),
    ("16 countries", AutocompleteFilter(countries: Array(repeating: "at", count: 16))),
    ("bad country", AutocompleteFilter(countries: ["AUT"])),
    ("bad region", AutocompleteFilter(regionCode: "x1")),
    ("origin out of range", AutocompleteFilter(origin: Coordinate(latitude: 91, longitude: 0))),
    ("origin not finite", AutocompleteFilter(origin: Coordinate(latitude: .nan, longitude: 0))),
    (
      "radius too big",
      AutocompleteFilter(
        coordinateRegionBias: .circle(
          center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 50_001))
    ),
    (
      "restriction radius 0",
      AutocompleteFilter(
        coordinateRegionRestriction: .circle(
          center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 0))
    ),
    (
      "empty rectangle",
      AutocompleteFilter(
        coordinateRegionRestriction: .rectangle(
          low: Coordinate(latitude: 0, longitude: 180),
          high: Coordinate(latitude: 1, longitude: -180)))
    ),
    (
      "bias and restriction",
      AutocompleteFilter(
        coordinateRegionBias: .circle(
          center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 10),
        coordinateRegionRestriction: .circle(
          center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 10))
    ),
    ("offset past end", AutocompleteFilter(inputOffset: 99)),
  ]

  /// The entries of ``invalid`` that break a rule of the request as a whole
  /// (``PlacesError/invalidRequest(_:)``); the others give a bad value
  /// (``PlacesError/invalidArgument(_:)``).
  static let brokenRules: Set<String> = [
    "six types", "unknown type", "collection mixed", "16 countries", "bias and restriction",
  ]

  /// Whether `e` is a request error with a message: ``PlacesError/invalidRequest(_:)`` when
  /// `rule`, else ``PlacesError/invalidArgument(_:)``.
  static func isRequestError(_ e: PlacesError, rule: Bool) -> Bool {
    switch e {
    case .invalidRequest(let m): rule && !m.isEmpty
    case .invalidArgument(let m): !rule && !m.isEmpty
    case .notFound, .index: false
    }
  }

  @Test(arguments: 0..<invalid.count)
  func invalidRequestsAreErrors(_ i: Int) throws {
    let c = try sampleClient()
    let (name, filter) = ReaderTests.invalid[i]
    let error = #expect(throws: PlacesError.self, "\(name)") {
      try c.autocompleteSuggestions(for: AutocompleteRequest(query: "haupt", filter: filter))
    }
    let rule = Self.brokenRules.contains(name)
    #expect(
      error.map { Self.isRequestError($0, rule: rule) } == true,
      "\(name): \(String(describing: error))")
  }

  @Test func validEdgeCasesAreAccepted() throws {
    let c = try sampleClient()
    let ok: [AutocompleteFilter] = [
      AutocompleteFilter(types: ["(cities)"]),
      AutocompleteFilter(types: ["bank", "cafe", "bar", "bakery", "pharmacy"]),
      AutocompleteFilter(
        coordinateRegionBias: .circle(
          center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 0)),
      AutocompleteFilter(
        coordinateRegionRestriction: .rectangle(
          low: Coordinate(latitude: -90, longitude: -180),
          high: Coordinate(latitude: 90, longitude: 180))),
      AutocompleteFilter(
        coordinateRegionRestriction: .rectangle(
          low: Coordinate(latitude: 47, longitude: 9.7),
          high: Coordinate(latitude: 47, longitude: 9.7))),
    ]
    for f in ok {
      _ = try c.autocompleteSuggestions(for: AutocompleteRequest(query: "sankt", filter: f))
    }
  }

  @Test func filtersRestrictResults() throws {
    let c = try sampleClient()
    let banks = places(
      try c.autocompleteSuggestions(
        for: AutocompleteRequest(query: "sankt", filter: AutocompleteFilter(types: ["bank"]))))
    #expect(!banks.isEmpty && banks.allSatisfy { $0.types.first == "bank" })
    let cities = places(
      try c.autocompleteSuggestions(
        for: AutocompleteRequest(query: "sankt", filter: AutocompleteFilter(types: ["(cities)"]))))
    #expect(cities.first?.types.first == "locality")
    let elsewhere = try c.autocompleteSuggestions(
      for: AutocompleteRequest(query: "sankt", filter: AutocompleteFilter(countries: ["LI"])))
    #expect(elsewhere.isEmpty)
    let far = try c.autocompleteSuggestions(
      for: AutocompleteRequest(
        query: "sankt",
        filter: AutocompleteFilter(
          coordinateRegionRestriction: .circle(
            center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 1000))))
    #expect(far.isEmpty)
  }

  @Test func jsonProtocolDecodesAndRejects() throws {
    let r = try PlacesJSONProtocol.decodeRequest(
      #"{"input":"apo","origin":{"latitude":47.2,"longitude":9.8},"includedPrimaryTypes":["pharmacy"],"locationBias":{"circle":{"center":{"latitude":47.2,"longitude":9.8},"radius":500}}}"#
    )
    #expect(r.query == "apo")
    #expect(r.filter.origin == Coordinate(latitude: 47.2, longitude: 9.8))
    #expect(r.filter.types == ["pharmacy"])
    for bad in [
      "{", "[]", #"{"input":3}"#, #"{"input":"a","bogus":1}"#,
      #"{"input":"a","origin":{"latitude":95,"longitude":0}}"#,
      #"{"input":"a","locationBias":{"square":{}}}"#,
    ] {
      let error = #expect(throws: PlacesError.self, "\(bad)") {
        try PlacesJSONProtocol.decodeRequest(bad)
      }
      #expect(
        error.map { Self.isRequestError($0, rule: false) } == true,
        "\(bad): \(String(describing: error))")
    }
    let line = PlacesJSONProtocol.encodeResponse(try sampleClient().autocompleteSuggestions(for: r))
    let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    let first =
      ((decoded?["suggestions"] as? [[String: Any]])?.first?["placePrediction"]) as? [String: Any]
    #expect((first?["placeId"] as? String)?.first == "N")
    #expect(first?["distanceMeters"] != nil)
  }

  @Test func concurrentQueriesAgreeWithSerialOnes() async throws {
    let c = try sampleClient()
    let queries = ["apo", "haupt", "sankt", "kirch", "bahnhof", "café", "mühl", "linden"]
    let serial = try queries.map {
      try c.autocompleteSuggestions(for: AutocompleteRequest(query: $0))
    }
    try await withThrowingTaskGroup(of: (Int, [AutocompleteSuggestion]).self) { group in
      for round in 0..<20 {
        for (i, q) in queries.enumerated() {
          group.addTask {
            (
              i,
              try c.autocompleteSuggestions(
                for: AutocompleteRequest(query: q + (round < 0 ? "" : "")))
            )
          }
        }
      }
      for try await (i, got) in group { #expect(got == serial[i]) }
    }
  }
}

/// Field masks as the Place Details (New) API takes them.
@Suite struct FieldMaskTests {
  @Test(arguments: [
    ("displayName,location", [PlaceProperty.displayName, .coordinate]),
    (" types , plusCode ", [.types, .plusCode]),
    ("coordinate", [.coordinate]),
    ("id,*", PlaceProperty.allCases),
  ])
  func namesFieldsOrAll(mask: String, expected: [PlaceProperty]) throws {
    #expect(try PlaceProperty.parseFieldMask(mask) == Set(expected))
  }

  @Test(arguments: [
    ("displayName,bogus", "unknown field 'bogus'"), ("", "empty field"),
    ("displayName,,types", "empty field"), ("places.displayName", "'places.displayName'"),
  ])
  func refusesUnknownAndEmptyFields(mask: String, named: String) {
    #expect {
      try PlaceProperty.parseFieldMask(mask)
    } throws: { error in
      guard case .invalidArgument(let message) = error as? PlacesError else { return false }
      return message.contains(named)
    }
  }
}
