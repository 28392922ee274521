/// A text with the ranges that match the user's input, for bolding.
public struct MatchedText: Sendable, Hashable {
  /// The text.
  public var text: String
  /// Matched ranges in Unicode scalar offsets, sorted and disjoint.
  public var matches: [Range<Int>]

  /// Creates a matched text.
  public init(text: String, matches: [Range<Int>]) {
    self.text = text
    self.matches = matches
  }

  /// The matched ranges as string indexes of ``text``, usable to style an attributed string.
  public var matchedRanges: [Range<String.Index>] {
    let scalars = text.unicodeScalars
    return matches.compactMap { r in
      guard r.lowerBound >= 0, r.upperBound <= scalars.count else { return nil }
      let lo = scalars.index(scalars.startIndex, offsetBy: r.lowerBound)
      let hi = scalars.index(lo, offsetBy: r.count)
      return lo..<hi
    }
  }
}

/// One prediction: a place, its types, its texts with matches, and its distance.
public struct AutocompletePlaceSuggestion: Sendable, Hashable {
  /// The place ID: OSM element type letter and id, e.g. "N240109189".
  public var placeID: String
  /// Types, primary first.
  public var types: [String]
  /// Great-circle distance from the request's origin, in meters; nil without an origin.
  public var distanceMeters: Int?
  /// Primary and secondary text joined by ", ".
  public var fullText: MatchedText
  /// The name or street address.
  public var primaryText: MatchedText
  /// Locality, region, country.
  public var secondaryText: MatchedText
}

/// A suggestion, as the service's SDK returns it (places today; queries may come later).
public enum AutocompleteSuggestion: Sendable, Hashable {
  /// A place prediction.
  case place(AutocompletePlaceSuggestion)

  /// The place prediction, if this is one.
  public var placeSuggestion: AutocompletePlaceSuggestion? {
    switch self {
    case .place(let p): p
    }
  }
}
