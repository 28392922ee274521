import PlaceIndexFormat

/// An error from the places client: a code and a readable message.
public enum PlacesError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The request breaks a rule (bad filter, too many types, bias with restriction, …).
  case invalidRequest(String)
  /// An argument is out of range or malformed (region code, coordinates, offsets).
  case invalidArgument(String)
  /// No place has the given ID.
  case notFound(String)
  /// An index file cannot be used.
  case index(IndexFormatError)

  /// The numeric code, as in the service's error domain: 400 for request errors, 404 for not
  /// found, 500 for index errors.
  public var code: Int {
    switch self {
    case .invalidRequest, .invalidArgument: 400
    case .notFound: 404
    case .index: 500
    }
  }

  /// The status name used by the JSON protocol.
  public var status: String {
    switch self {
    case .invalidRequest, .invalidArgument: "INVALID_ARGUMENT"
    case .notFound: "NOT_FOUND"
    case .index: "INTERNAL"
    }
  }

  /// The readable message.
  public var message: String {
    switch self {
    case .invalidRequest(let m): "Invalid request: \(m)"
    case .invalidArgument(let m): "Invalid argument: \(m)"
    case .notFound(let m): "Not found: \(m)"
    case .index(let e): e.description
    }
  }

  public var description: String { message }
}
