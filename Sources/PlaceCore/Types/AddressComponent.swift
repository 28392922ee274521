// The address components a place shows (Place Details' addressComponents): the builder writes
// them, the index stores them (CONTEXTS), the reader returns them; PlaceIndex re-exports both
// types, so an app that imports PlaceIndex alone can name them.

/// What an address component is; stored as one byte, shown as the service's type names.
public enum AddressComponentKind: UInt8, Sendable, CaseIterable {
  case streetNumber = 0
  case route = 1
  case subpremise = 2
  case postalCode = 3
  case neighborhood = 4
  case sublocality = 5
  case locality = 6
  case adminArea2 = 7
  case adminArea1 = 8
  case country = 9

  /// The component's types, as the service lists them.
  public var types: [String] {
    switch self {
    case .streetNumber: ["street_number"]
    case .route: ["route"]
    case .subpremise: ["subpremise"]
    case .postalCode: ["postal_code"]
    case .neighborhood: ["neighborhood", "political"]
    case .sublocality: ["sublocality", "political"]
    case .locality: ["locality", "political"]
    case .adminArea2: ["administrative_area_level_2", "political"]
    case .adminArea1: ["administrative_area_level_1", "political"]
    case .country: ["country", "political"]
    }
  }
}

/// One address component of a place.
public struct AddressComponent: Sendable, Hashable {
  /// What the component is.
  public var kind: AddressComponentKind
  /// The full text, e.g. "Liechtenstein".
  public var longText: String
  /// The short text, e.g. "LI"; equal to the long text when there is no short form.
  public var shortText: String

  /// Creates a component.
  public init(kind: AddressComponentKind, longText: String, shortText: String) {
    self.kind = kind
    self.longText = longText
    self.shortText = shortText
  }
}
