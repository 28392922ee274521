import Foundation
import PlaceCore
import PlaceIndexFormat

/// Loads one or more index files (regional shards) and answers autocomplete and place-details
/// requests from them, offline. Thread-safe: one client serves many concurrent requests.
public final class PlacesClient: Sendable {
  /// The loaded indexes, queried as one.
  public let indexes: [LoadedIndex]
  /// Per-session figures of the requests made through this client.
  public let sessions = SessionStatistics()
  /// The settlements of ``indexes``, found on first use (compound plus codes).
  let settlements = Settlements()
  /// The areas that recent requests' words named, or that they named none
  /// (``NearAreaReading``), by words and origin: the next keystrokes split the same words off.
  let recentAreas = BoundedCache<AreaKey, AreaFound?>(capacity: 256)

  // Loading from paths: `init(indexPaths:verification:loading:)` (IndexOpenOptions.swift).

  /// `paths` with each folder replaced by the `.placeidx` files in it, sorted by name; a
  /// folder without any is an error that names it.
  package static func expandingFolders(_ paths: [String]) throws(PlacesError) -> [String] {
    var out: [String] = []
    for p in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: p, isDirectory: &isFolder), isFolder.boolValue
      else {
        out.append(p)
        continue
      }
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: p)) ?? [])
        .filter { $0.hasSuffix(".placeidx") }.sorted()
      guard !names.isEmpty else {
        throw .index(.cannotOpen(path: p, reason: "a folder with no .placeidx file in it"))
      }
      out += names.map { (p as NSString).appendingPathComponent($0) }
    }
    return out
  }

  /// Uses already loaded indexes.
  public init(indexes: [LoadedIndex]) {
    self.indexes = indexes
  }

  /// Attribution lines to show next to predictions.
  public var attributions: [String] { Array(Set(indexes.map(\.attribution))).sorted() }

  /// Predictions for `request`, synchronously (for servers and tools). A request with a
  /// session token counts in ``sessions``, as on every other path.
  public func autocompleteSuggestions(for request: AutocompleteRequest) throws(PlacesError)
    -> [AutocompleteSuggestion]
  {
    let typeFilter = try validate(request)
    let suggestions = try suggestions(for: request, typeFilter: typeFilter)
    sessions.recordRequest(request.sessionToken)
    return suggestions
  }

  private func suggestions(for request: AutocompleteRequest, typeFilter: TypeFilter)
    throws(PlacesError) -> [AutocompleteSuggestion]
  {
    let plan = QueryPlan(query: request.query, inputOffset: request.filter.inputOffset)
    if plan.tokens.isEmpty { return [] }
    if let code = try plusCodeSuggestion(request, typeFilter: typeFilter) {
      return [.place(code)]
    }
    var results = try ranked(request, plan: plan, typeFilter: typeFilter)
    // No place carries every word: perhaps a kind of place near a named area.
    if results.shown.allSatisfy({ $0.place.missing > 0 }),
      let reading = try nearAreaReading(request, plan: plan, typeFilter: typeFilter)
    {
      results = reading.results
    }
    return results.shown.map { .place($0.suggestion) }
  }

  /// Predictions for `request`, as the service's SDK delivers them.
  public func fetchAutocompleteSuggestions(with request: AutocompleteRequest) async -> Result<
    [AutocompleteSuggestion], PlacesError
  > {
    do throws(PlacesError) {
      return .success(try autocompleteSuggestions(for: request))
    } catch {
      return .failure(error)
    }
  }

  /// Builds the displayed suggestion of a scored place, the key of its duplicates and, for a
  /// stop or station, the name its nodes are compared by.
  func suggestion(
    for f: ScoredPlace, plan: QueryPlan, filter: AutocompleteFilter, abbreviations a: Abbreviations
  ) throws(IndexFormatError) -> (
    AutocompletePlaceSuggestion, duplicateKey: String, stationName: String
  ) {
    let index = indexes[f.shard]
    let language = filter.languageCode?.lowercased()
    let region = filter.regionCode.flatMap(RegionCodes.canonical)
    let key = PlaceDisplay.Key(
      rank: f.rank, language: language?.isEmpty == false ? language : nil, region: region)
    let d = try index.recent.displays.value(for: key) { () throws(IndexFormatError) in
      try PlaceDisplay(index, key, abbreviations: a)
    }
    let primaryMatches = MatchHighlighter.matches(
      queryTokens: plan.tokens, in: d.primary, abbreviations: a)
    let secondaryMatches = MatchHighlighter.matches(
      queryTokens: plan.tokens, in: d.secondary, abbreviations: a)
    let shift = d.secondaryOffset
    let fullMatches =
      primaryMatches + secondaryMatches.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
    let suggestion = AutocompletePlaceSuggestion(
      placeID: d.placeID, types: d.types, distanceMeters: f.distance.map { Int($0.rounded()) },
      fullText: MatchedText(text: d.fullText, matches: fullMatches),
      primaryText: MatchedText(text: d.primaryText, matches: primaryMatches),
      secondaryText: MatchedText(text: d.secondaryText, matches: secondaryMatches))
    return (suggestion, d.duplicateKey, d.stationName)
  }
}
