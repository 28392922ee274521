import Dispatch

/// A prediction in the shape of the service's legacy SDK (`GMSAutocompletePrediction`).
public struct AutocompletePrediction: Sendable, Hashable {
  /// The place ID.
  public var placeID: String
  /// Types, primary first.
  public var types: [String]
  /// Distance from the filter's origin in meters, when an origin was given.
  public var distanceMeters: Int?
  /// Full text with matched ranges.
  public var attributedFullText: MatchedText
  /// Primary text with matched ranges.
  public var attributedPrimaryText: MatchedText
  /// Secondary text with matched ranges (nil when empty, as the legacy SDK has it).
  public var attributedSecondaryText: MatchedText?
}

extension PlacesClient {
  /// Predictions for `query`, delivered to `callback` on `queue`, as the legacy SDK does.
  ///
  /// A thin layer over ``autocompleteSuggestions(for:)``. Unlike the New API, a filter with
  /// both a bias and a restriction is accepted: the bias is ignored.
  public func findAutocompletePredictions(
    fromQuery query: String, filter: AutocompleteFilter? = nil,
    sessionToken: AutocompleteSessionToken? = nil, queue: DispatchQueue = .main,
    callback: @escaping @Sendable ([AutocompletePrediction]?, PlacesError?) -> Void
  ) {
    var f = filter ?? AutocompleteFilter()
    if f.coordinateRegionRestriction != nil { f.coordinateRegionBias = nil }
    let request = AutocompleteRequest(query: query, sessionToken: sessionToken, filter: f)
    let result: Result<[AutocompletePrediction], PlacesError>
    do throws(PlacesError) {
      let suggestions = try autocompleteSuggestions(for: request)
      result = .success(suggestions.compactMap(\.placeSuggestion).map(Self.prediction))
    } catch {
      result = .failure(error)
    }
    queue.async {
      switch result {
      case .success(let p): callback(p, nil)
      case .failure(let e): callback(nil, e)
      }
    }
  }

  static func prediction(_ s: AutocompletePlaceSuggestion) -> AutocompletePrediction {
    AutocompletePrediction(
      placeID: s.placeID, types: s.types, distanceMeters: s.distanceMeters,
      attributedFullText: s.fullText, attributedPrimaryText: s.primaryText,
      attributedSecondaryText: s.secondaryText.text.isEmpty ? nil : s.secondaryText)
  }
}
