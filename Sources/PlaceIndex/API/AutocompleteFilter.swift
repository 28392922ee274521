import PlaceCore

/// Restricts and biases autocomplete results, in the shape of the service's SDK filter.
public struct AutocompleteFilter: Sendable, Hashable {
  /// Up to 5 primary types, or exactly one collection: `address`, `establishment`, `geocode`,
  /// `(regions)`, `(cities)`.
  public var types: [String]
  /// Up to 15 two-letter region codes; only places in those countries are returned.
  public var countries: [String]
  /// With an origin, each suggestion carries its distance from it.
  public var origin: Coordinate?
  /// Places in or near the region rank higher.
  public var coordinateRegionBias: CoordinateRegion?
  /// Only places inside the region are returned.
  public var coordinateRegionRestriction: CoordinateRegion?
  /// The region the response is formatted for (its country name is left out).
  public var regionCode: String?
  /// Cursor offset in the query (Unicode scalars); text after it is ignored.
  public var inputOffset: Int?
  /// Preferred language for names.
  public var languageCode: String?

  /// Creates a filter.
  public init(
    types: [String] = [], countries: [String] = [], origin: Coordinate? = nil,
    coordinateRegionBias: CoordinateRegion? = nil,
    coordinateRegionRestriction: CoordinateRegion? = nil, regionCode: String? = nil,
    inputOffset: Int? = nil, languageCode: String? = nil
  ) {
    self.types = types
    self.countries = countries
    self.origin = origin
    self.coordinateRegionBias = coordinateRegionBias
    self.coordinateRegionRestriction = coordinateRegionRestriction
    self.regionCode = regionCode
    self.inputOffset = inputOffset
    self.languageCode = languageCode
  }
}

/// One autocomplete request.
public struct AutocompleteRequest: Sendable, Hashable {
  /// What the user typed.
  public var query: String
  /// Groups the requests of one search with the details request that ends it.
  public var sessionToken: AutocompleteSessionToken?
  /// Filters and biases.
  public var filter: AutocompleteFilter
  /// Most suggestions to return (5, as the service does, unless a caller asks for more).
  public var maxResultCount: Int

  /// Creates a request.
  public init(
    query: String, sessionToken: AutocompleteSessionToken? = nil,
    filter: AutocompleteFilter = AutocompleteFilter(), maxResultCount: Int = 5
  ) {
    self.query = query
    self.sessionToken = sessionToken
    self.filter = filter
    self.maxResultCount = maxResultCount
  }
}
