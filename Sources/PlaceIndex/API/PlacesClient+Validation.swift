import PlaceCore

/// Documented limits of a request.
public enum RequestLimits {
  /// Longest query, in Unicode scalars.
  public static let maxQueryLength = 500
  /// Most primary types in a filter.
  public static let maxTypes = 5
  /// Most countries in a filter.
  public static let maxCountries = 15
  /// Most results a caller may ask for.
  public static let maxResults = 100
}

extension PlacesClient {
  /// Checks every rule of the request (SPEC section 2); throws the first broken one. Returns
  /// the validated type filter.
  @discardableResult
  func validate(_ request: AutocompleteRequest) throws(PlacesError) -> TypeFilter {
    let f = request.filter
    let length = request.query.unicodeScalars.count
    guard length <= RequestLimits.maxQueryLength else {
      throw .invalidArgument(
        "query is \(length) characters long; the limit is \(RequestLimits.maxQueryLength)")
    }
    guard (1...RequestLimits.maxResults).contains(request.maxResultCount) else {
      throw .invalidArgument(
        "maxResultCount \(request.maxResultCount) must be between 1 and \(RequestLimits.maxResults)"
      )
    }
    if let offset = f.inputOffset, offset < 0 || offset > length {
      throw .invalidArgument("inputOffset \(offset) is outside the query (length \(length))")
    }
    guard
      f.types.count <= RequestLimits.maxTypes
        || f.types.contains(where: TypeFilter.collections.contains)
    else {
      throw .invalidRequest(
        "at most \(RequestLimits.maxTypes) types may be given, got \(f.types.count)")
    }
    guard f.countries.count <= RequestLimits.maxCountries else {
      throw .invalidRequest(
        "at most \(RequestLimits.maxCountries) countries may be given, got \(f.countries.count)")
    }
    for c in f.countries where !PlacesClient.isRegionCode(c) {
      throw .invalidArgument("country '\(c)' is not a two-letter region code")
    }
    if let r = f.regionCode, !PlacesClient.isRegionCode(r) {
      throw .invalidArgument("regionCode '\(r)' is not a two-letter region code")
    }
    if let o = f.origin, !o.isValid {
      throw .invalidArgument("origin \(o.latitude),\(o.longitude) is not a valid coordinate")
    }
    if f.coordinateRegionBias != nil && f.coordinateRegionRestriction != nil {
      throw .invalidRequest("locationBias and locationRestriction cannot both be set")
    }
    try f.coordinateRegionBias?.validate(role: "locationBias")
    try f.coordinateRegionRestriction?.validate(role: "locationRestriction")
    return f.types.isEmpty ? .any : try TypeFilter(f.types, vocabularies: try vocabularies())
  }

  /// The type vocabularies of the loaded indexes.
  func vocabularies() throws(PlacesError) -> [PlaceTypeVocabulary] {
    var out: [PlaceTypeVocabulary] = []
    for index in indexes { out.append(try index.vocabulary) }
    return out
  }

  /// Whether `code` has the form of a region code: two ASCII letters.
  static func isRegionCode(_ code: String) -> Bool {
    code.unicodeScalars.count == 2
      && code.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
  }
}
