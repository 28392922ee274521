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
    for c in f.countries where RegionCodes.canonical(c) == nil {
      throw .invalidArgument("country '\(c)' \(PlacesClient.regionCodeRule)")
    }
    if let r = f.regionCode, RegionCodes.canonical(r) == nil {
      throw .invalidArgument("regionCode '\(r)' \(PlacesClient.regionCodeRule)")
    }
    try request.sessionToken?.validate()
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

  /// What a region code must be, for messages.
  static let regionCodeRule =
    "is not a region code (an assigned ISO 3166-1 alpha-2 code such as 'fi', or 'uk' for GB)"
}
