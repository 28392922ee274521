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

  // Loading from paths: `init(indexPaths:verification:loading:)` (IndexOpenOptions.swift).

  /// Uses already loaded indexes.
  public init(indexes: [LoadedIndex]) {
    self.indexes = indexes
  }

  /// Attribution lines to show next to predictions.
  public var attributions: [String] { Array(Set(indexes.map(\.attribution))).sorted() }

  /// Predictions for `request`, synchronously (for servers and tools).
  public func autocompleteSuggestions(for request: AutocompleteRequest) throws(PlacesError)
    -> [AutocompleteSuggestion]
  {
    let typeFilter = try validate(request)
    let offset = request.filter.inputOffset
    let plan = QueryPlan(query: request.query, inputOffset: offset)
    if plan.tokens.isEmpty { return [] }
    if let code = try plusCodeSuggestion(request) { return [.place(code)] }
    let limit = max(1, request.maxResultCount)
    var found: [ScoredPlace] = []
    for (shard, index) in indexes.enumerated() {
      do {
        for var p in try index.search(
          plan, filter: request.filter, typeFilter: typeFilter, limit: limit * 2)
        {
          p.shard = shard
          found.append(p)
        }
      } catch let e as IndexFormatError {
        throw .index(e.withPath(index.file.path))
      } catch {
        throw .index(.corrupt(path: index.file.path, section: "?", offset: 0, reason: "\(error)"))
      }
    }
    found.sort { $0.score > $1.score || ($0.score == $1.score && $0.rank < $1.rank) }
    var suggestions: [AutocompletePlaceSuggestion] = []
    var seen: [(String, String, Coordinate)] = []
    var tables = [Abbreviations?](repeating: nil, count: indexes.count)
    for f in found {
      guard suggestions.count < limit else { break }
      // Each index's abbreviations are fetched once per request: the cell takes a lock and
      // the table's storage is shared by every thread.
      if tables[f.shard] == nil { tables[f.shard] = try? indexes[f.shard].abbreviations }
      guard let a = tables[f.shard],
        let (s, key) = try? suggestion(for: f, plan: plan, filter: request.filter, abbreviations: a)
      else { continue }
      // The same shop mapped as node and building: same name, same or no specific type, close
      // together (``areDuplicates(_:_:distance:)``).
      let point = Coordinate(
        latitude: Double(f.latitudeE7) / 1e7, longitude: Double(f.longitudeE7) / 1e7)
      let type = s.types.first ?? ""
      if seen.contains(where: {
        $0.0 == key
          && PlacesClient.areDuplicates(type, $0.1, distance: $0.2.distance(to: point))
      }) {
        continue
      }
      seen.append((key, s.types.first ?? "", point))
      suggestions.append(s)
    }
    return suggestions.map { .place($0) }
  }

  /// Predictions for `request`, as the service's SDK delivers them.
  public func fetchAutocompleteSuggestions(with request: AutocompleteRequest) async -> Result<
    [AutocompleteSuggestion], PlacesError
  > {
    do throws(PlacesError) {
      let suggestions = try autocompleteSuggestions(for: request)
      sessions.recordRequest(request.sessionToken)
      return .success(suggestions)
    } catch {
      return .failure(error)
    }
  }

  /// Whether two places with the same name, of primary types `a` and `b`, `distance` meters
  /// apart are one: the same type within ``duplicateRadius(primaryType:)``, or one of them of
  /// a generic type within the default 150 m (the untyped grounds of a named bank; an address
  /// point inside the building of the same address).
  static func areDuplicates(_ a: String, _ b: String, distance: Double) -> Bool {
    if a == b { return distance < duplicateRadius(primaryType: a) }
    return (genericTypes.contains(a) || genericTypes.contains(b))
      && distance < duplicateRadius(primaryType: "")
  }

  /// Primary types that say no more than "a place", "an address" or "a building": such a
  /// result is one with a same-named result of any type close by.
  static let genericTypes: Set<String> = [
    "point_of_interest", "establishment", "street_address", "premise",
  ]

  /// How far apart two places with the same name and primary type may be and still be one
  /// place (a town as node and boundary, a street in pieces, a shop as node and building).
  static func duplicateRadius(primaryType: String) -> Double {
    switch primaryType {
    case "country", "administrative_area_level_1", "administrative_area_level_2": 100_000
    case "locality", "administrative_area_level_3", "postal_town": 10_000
    case "sublocality", "neighborhood", "route": 2_000
    default: 150
    }
  }

  /// Builds the displayed suggestion of a scored place, and the key of its duplicates.
  func suggestion(
    for f: ScoredPlace, plan: QueryPlan, filter: AutocompleteFilter, abbreviations a: Abbreviations
  ) throws -> (AutocompletePlaceSuggestion, duplicateKey: String) {
    let index = indexes[f.shard]
    let language = filter.languageCode?.lowercased()
    let region = filter.regionCode?.uppercased()
    let key = PlaceDisplay.Key(
      rank: f.rank, language: language?.isEmpty == false ? language : nil, region: region)
    let d = try index.displays.value(for: key) { try PlaceDisplay(index, key, abbreviations: a) }
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
    return (suggestion, d.duplicateKey)
  }
}
