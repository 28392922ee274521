import PlaceCore
import PlaceIndexFormat

/// The properties a place-details request can ask for (the field mask).
public enum PlaceProperty: String, Sendable, Hashable, CaseIterable {
  case placeID = "id"
  case displayName
  case formattedAddress
  case addressComponents
  case coordinate = "location"
  case viewport
  case types
  case plusCode
  case attributions
}

/// A place-details request.
public struct FetchPlaceRequest: Sendable, Hashable {
  /// The place ID, e.g. "N240109189".
  public var placeID: String
  /// The properties to return; others stay nil.
  public var placeProperties: Set<PlaceProperty>
  /// The session this request ends.
  public var sessionToken: AutocompleteSessionToken?
  /// Preferred language of the texts: the display name, the formatted address and the address
  /// components (each part that has a name in it).
  public var languageCode: String?

  /// Creates a request.
  public init(
    placeID: String, placeProperties: Set<PlaceProperty>,
    sessionToken: AutocompleteSessionToken? = nil, languageCode: String? = nil
  ) {
    self.placeID = placeID
    self.placeProperties = placeProperties
    self.sessionToken = sessionToken
    self.languageCode = languageCode
  }
}

/// A place's plus code: global, and compound (short code plus locality).
public struct PlusCode: Sendable, Hashable {
  /// The 10-digit global code, e.g. "8FVC9G8F+6X".
  public var globalCode: String
  /// The short code with its locality, e.g. "9G8F+6X Vaduz, Liechtenstein", when a locality is known.
  public var compoundCode: String?
}

/// The box a map shows a place in: about 150 m each way around its position, grown to hold
/// the whole geometry of a larger way or relation (a street, a park, a town).
public struct Viewport: Sendable, Hashable {
  /// The south-west corner.
  public var low: Coordinate
  /// The north-east corner.
  public var high: Coordinate

  /// Creates a viewport from its south-west and north-east corners.
  public init(low: Coordinate, high: Coordinate) {
    self.low = low
    self.high = high
  }
}

/// Place details; only the requested properties are set.
public struct Place: Sendable, Hashable {
  /// The place ID.
  public var placeID: String?
  /// The name in the requested language, with that language's code.
  public var displayName: String?
  /// The language of ``displayName``: the requested one when the place has a name in it, else
  /// the language of its plain name (its `name:xx` equal to it, or its country's main
  /// language); nil when unknown.
  public var displayNameLanguage: String?
  /// The full address in the country's convention.
  public var formattedAddress: String?
  /// Address components, most specific first.
  public var addressComponents: [AddressComponent]?
  /// The place's position.
  public var coordinate: Coordinate?
  /// The box to show the place in; nil in indexes older than format 6.1, which store no
  /// geometry.
  public var viewport: Viewport?
  /// Types, primary first.
  public var types: [String]?
  /// The plus code.
  public var plusCode: PlusCode?
  /// Attribution of the data.
  public var attributions: [String]?
}
