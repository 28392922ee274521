/// Where a place lies: its country, region, county, locality and sublocality, and how each was
/// found.
struct AdminContext: Sendable, Hashable {
  var countryCode: String?
  var countryName: String?
  var region: String?
  var regionShort: String?
  var adminArea2: String?
  var locality: String?
  var sublocality: String?
  var postcode: String?
  /// Whether the locality came from a boundary polygon (rather than tags or a nearby node).
  var localityFromPolygon = false
  /// Where the country came from (nil: no country).
  var countrySource: CountrySource? = nil
}
