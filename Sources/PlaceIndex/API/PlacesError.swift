import PlaceIndexFormat

/// An error from the places client: a code and a readable message.
public enum PlacesError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The request breaks a rule (bad filter, too many types, bias with restriction, …).
  case invalidRequest(String)
  /// An argument is out of range or malformed (region code, coordinates, offsets).
  case invalidArgument(String)
  /// No place has the given ID.
  case notFound(String)
  /// The index file at `path` cannot be used: what kind of ``IndexProblem`` (naming the
  /// section and the byte where the format has them) and the `reason` in words, as the
  /// message shows it after the path ("corrupt index: section PLACES at byte 4096: …").
  case index(path: String, problem: IndexProblem, reason: String)

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
    case .index(let path, _, let reason): "\(path): \(reason)"
    }
  }

  public var description: String { message }
}

/// What is wrong with an index file that cannot be used (``PlacesError/index(path:problem:reason:)``).
public enum IndexProblem: Sendable, Hashable {
  /// The file does not exist or cannot be read or mapped.
  case cannotOpen
  /// The file does not start with the index magic bytes.
  case notAnIndex
  /// The file's major format version is not the one this reader implements.
  case unsupportedVersion(major: Int, minor: Int)
  /// The file is shorter than its header says, or than its structures need.
  case truncated
  /// A checksum does not match the bytes of `section` ("HEADER" for the header).
  case checksumMismatch(section: String)
  /// A structure inside `section` is inconsistent at byte `offset` of the file.
  case corrupt(section: String, offset: Int)
  /// A section the reader needs is absent.
  case missingSection(String)
  /// A rule of the format that `verify()` checks is broken in `section` at byte `offset`:
  /// layout, META's schema, the places' rank order.
  case invalid(section: String, offset: Int)
}

extension PlacesError {
  /// The one mapping of a format error into the SDK's error: `error` naming the file at
  /// `path` (the format's section readers do not know the path), or the path `error` names
  /// when `path` is nil.
  package static func index(_ error: IndexFormatError, path: String? = nil) -> PlacesError {
    let problem: IndexProblem =
      switch error {
      case .cannotOpen: .cannotOpen
      case .notAnIndex: .notAnIndex
      case .unsupportedVersion(_, _, let got, let gotMinor):
        .unsupportedVersion(major: Int(got), minor: Int(gotMinor))
      case .truncated: .truncated
      case .checksumMismatch(_, let section, _, _): .checksumMismatch(section: section)
      case .corrupt(_, let section, let offset, _): .corrupt(section: section, offset: offset)
      case .missingSection(_, let section): .missingSection(section)
      case .fault(_, let section, let offset, _): .invalid(section: section, offset: offset)
      }
    return .index(path: path ?? error.path, problem: problem, reason: error.reason)
  }
}
