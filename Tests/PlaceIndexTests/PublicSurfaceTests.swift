// Imports PlaceIndex alone, as an app does: every type a request needs must be nameable through
// it (this file does not compile otherwise).
import Foundation
import PlaceIndex
import Testing

/// What an app that imports only PlaceIndex can write.
@Suite struct PublicSurfaceTests {
  @Test func aRequestWithAnOriginNeedsOnlyThePlaceIndexImport() throws {
    let client = try PlacesClient(indexPaths: [sampleIndexPath])
    let origin = Coordinate(latitude: 47.2692, longitude: 11.4041)
    let filter = AutocompleteFilter(origin: origin)
    let s = try client.autocompleteSuggestions(
      for: AutocompleteRequest(query: "apo", filter: filter))
    let first = try #require(s.first?.placeSuggestion)
    #expect(first.distanceMeters != nil)
    let vocabulary: PlaceTypeVocabulary = try client.indexes[0].vocabulary
    #expect(vocabulary.group(of: "pharmacy") != nil)
  }
}

/// An app-like client over the whole public surface, written with the `PlaceIndex` import alone:
/// if a public type's signature names a type an app cannot name (as `[AddressComponent]` once
/// did), this file stops compiling.
@Suite struct AppLikeClientTests {
  final class Delegate: AutocompleteFetcherDelegate, @unchecked Sendable {
    var texts: [String] = []
    func fetcher(_ fetcher: AutocompleteFetcher, didRequestFor text: String) { texts.append(text) }
    func fetcher(
      _ fetcher: AutocompleteFetcher, didUpdate suggestions: [AutocompleteSuggestion],
      for text: String
    ) {}
    func fetcher(_ fetcher: AutocompleteFetcher, didFailWith error: PlacesError, for text: String) {
    }
  }

  @Test func everyPublicTypeIsNameableAndUsable() async throws {
    let index: LoadedIndex = try LoadedIndex(path: sampleIndexPath)
    try index.verify()
    let client = PlacesClient(indexes: [index])
    #expect(client.attributions == [index.attribution])
    let token = AutocompleteSessionToken()
    var filter = AutocompleteFilter(origin: Coordinate(latitude: 47.185, longitude: 9.9))
    let bias: CoordinateRegion = .circle(center: filter.origin!, radiusMeters: 5_000)
    filter.coordinateRegionBias = bias
    #expect(bias.contains(filter.origin!))
    let request = AutocompleteRequest(query: "hauptstr 1", sessionToken: token, filter: filter)
    let suggestions: [AutocompleteSuggestion] = try client.autocompleteSuggestions(for: request)
    let first: AutocompletePlaceSuggestion = try #require(suggestions.first?.placeSuggestion)
    let text: MatchedText = first.primaryText
    #expect(!text.matchedRanges.isEmpty)
    #expect(try PlacesJSONProtocol.decodeRequest(#"{"input":"hauptstr 1"}"#).query == "hauptstr 1")
    #expect(PlacesJSONProtocol.encodeResponse(suggestions).contains(first.placeID))
    let all: Set<PlaceProperty> = try PlaceProperty.parseFieldMask("*")
    let details = FetchPlaceRequest(
      placeID: first.placeID, placeProperties: all, sessionToken: token)
    let place: Place = try client.fetchPlace(with: details)
    // The async form ends the session.
    #expect(try await client.fetchPlace(with: details).get() == place)
    let components: [AddressComponent] = try #require(place.addressComponents)
    let kinds: [AddressComponentKind] = components.map(\.kind)
    #expect(kinds.contains(.route))
    let code: PlusCode = try #require(place.plusCode)
    let viewport: Viewport = try #require(place.viewport)
    #expect(viewport.low.latitude < viewport.high.latitude)
    #expect(!code.globalCode.isEmpty)
    let session: SessionStatistics.Session = try #require(client.sessions.finishedSessions.last)
    #expect(session.selectedPlaceID == first.placeID)
    switch await client.fetchAutocompleteSuggestions(with: request) {
    case .success(let s): #expect(s == suggestions)
    case .failure(let e): Issue.record("\(e)")
    }
    var tooMany = request
    tooMany.maxResultCount = RequestLimits.maxResults + 1
    #expect(
      throws: PlacesError.invalidArgument(
        "maxResultCount \(tooMany.maxResultCount) must be between 1 and \(RequestLimits.maxResults)"
      )
    ) { try client.autocompleteSuggestions(for: tooMany) }
    let fetcher = AutocompleteFetcher(filter: filter, sessionToken: token) {
      r throws(PlacesError) in
      try client.autocompleteSuggestions(for: r)
    }
    let delegate = Delegate()
    fetcher.delegate = delegate
    fetcher.onEvent { (_: AutocompleteFetcher.Event) in }
    let prediction: AutocompletePrediction? = await withCheckedContinuation { done in
      client.findAutocompletePredictions(
        fromQuery: "apo", queue: .global()
      ) { predictions, _ in done.resume(returning: predictions?.first) }
    }
    #expect(prediction?.attributedPrimaryText.text.isEmpty == false)
    let vocabulary: PlaceTypeVocabulary = try index.vocabulary
    #expect(vocabulary.group(of: "pharmacy") != nil)
    #expect {
      _ = try PlaceTypeVocabulary(tsv: "type\ttable\tgroup\tgeneric\nbank\tZ\tfinance\t\n")
    } throws: { error in
      guard let tableError = error as? TableError else { return false }
      return tableError.table == "place_types.tsv" && tableError.line == 2
    }
  }

  /// What the file is, without reaching its bytes: ``IndexInfo``.
  @Test func anIndexDescribesItselfWithIndexInfo() throws {
    let index = try LoadedIndex(path: sampleIndexPath)
    let info: IndexInfo = index.info
    #expect(info.path == sampleIndexPath)
    #expect(info.placeCount == index.placeCount && info.placeCount > 0)
    #expect(info.formatVersion == "\(info.formatMajor).\(info.formatMinor)")
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: sampleIndexPath)[.size] as? Int)
    #expect(info.byteSize == size)
    let sections: [IndexInfo.Section] = info.sections
    #expect(sections.map(\.name).contains("META") && sections.map(\.name).contains("PLACES"))
    #expect(sections.allSatisfy { $0.offset >= 0 && $0.offset + $0.length <= info.byteSize })
    #expect(info.attribution == index.attribution && !info.attribution.isEmpty)
    #expect(info.source == "sample.osm")
    #expect(info.license?.contains("ODbL") == true)
    #expect(info.options != nil)
    #expect(info.dataTimestamp != nil)
  }

  /// An index that cannot be used is a ``PlacesError/index(path:problem:reason:)`` naming
  /// the file, with an ``IndexProblem`` an app can switch over and the reason in words.
  @Test func indexErrorsNameThePathTheProblemAndTheReason() throws {
    let missing = sampleIndexPath + ".missing"
    #expect {
      _ = try LoadedIndex(path: missing)
    } throws: { error in
      guard case .index(let path, let problem, let reason) = error as? PlacesError else {
        return false
      }
      let kind: IndexProblem = problem
      return path == missing && kind == .cannotOpen && reason.hasPrefix("cannot open index: ")
    }
    let garbage = FileManager.default.temporaryDirectory
      .appendingPathComponent("public-surface-\(getpid()).placeidx").path
    try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: garbage))
    defer { try? FileManager.default.removeItem(atPath: garbage) }
    let expected = PlacesError.index(
      path: garbage, problem: .notAnIndex, reason: "not a PlaceIndex file (bad magic bytes)")
    #expect(throws: expected) { _ = try PlacesClient(indexPaths: [garbage]) }
    #expect(expected.code == 500 && expected.status == "INTERNAL")
    #expect(expected.message == "\(garbage): not a PlaceIndex file (bad magic bytes)")
  }
}

/// Place Details JSON lives beside the autocomplete JSON.
@Suite struct PlaceDetailsJSONTests {
  @Test func aPlaceEncodesWithOnlyTheFieldsItHas() throws {
    let client = try PlacesClient(indexPaths: [sampleIndexPath])
    let id = try #require(
      try client.autocompleteSuggestions(for: AutocompleteRequest(query: "hauptstr 1")).first?
        .placeSuggestion?.placeID)
    let full = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: id, placeProperties: Set(PlaceProperty.allCases)))
    let json = PlacesJSONProtocol.encodePlace(full)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["id"] as? String == id)
    #expect(
      Set(object.keys) == [
        "id", "displayName", "formattedAddress", "addressComponents", "location", "viewport",
        "types", "plusCode", "attributions",
      ])
    // The viewport holds the place's location.
    let viewport = try #require(object["viewport"] as? [String: [String: Double]])
    let location = try #require(object["location"] as? [String: Double])
    for key in ["latitude", "longitude"] {
      let (low, high, at) = (viewport["low"]?[key], viewport["high"]?[key], location[key])
      #expect(low != nil && high != nil && low! < at! && at! < high!, "\(viewport)")
    }
    let some = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: id, placeProperties: [.displayName]))
    let one = try #require(
      try JSONSerialization.jsonObject(with: Data(PlacesJSONProtocol.encodePlace(some).utf8))
        as? [String: Any])
    #expect(Set(one.keys) == ["displayName"])
  }
}
