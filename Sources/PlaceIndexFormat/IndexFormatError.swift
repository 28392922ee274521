/// Why an index file cannot be used. Every case names the file and what is wrong.
package enum IndexFormatError: Error, Equatable, CustomStringConvertible {
  /// The file does not exist or cannot be read or mapped.
  case cannotOpen(path: String, reason: String)
  /// The file does not start with the index magic bytes.
  case notAnIndex(path: String)
  /// The file's major format version is not the one this reader implements.
  case unsupportedVersion(path: String, expected: UInt16, got: UInt16, gotMinor: UInt16)
  /// The file is shorter than its header says, or than its structures need.
  case truncated(path: String, expectedBytes: Int, actualBytes: Int)
  /// A checksum does not match the bytes it covers.
  case checksumMismatch(path: String, section: String, expected: UInt32, actual: UInt32)
  /// A structure inside a section is inconsistent (offset out of range, bad count, …).
  case corrupt(path: String, section: String, offset: Int, reason: String)
  /// A section the reader needs is absent.
  case missingSection(path: String, section: String)
  /// A rule of the format that `verify()` checks is broken (``IndexFault``): layout, META's
  /// schema, the places' rank order.
  case fault(path: String, section: String, offset: Int, IndexFault)

  package var description: String { "\(path): \(reason)" }

  /// The file the error names ("" for an error raised in a section reader, which does not
  /// know the path; ``PlacesError`` gets it from the index).
  package var path: String {
    switch self {
    case .cannotOpen(let path, _), .notAnIndex(let path), .unsupportedVersion(let path, _, _, _),
      .truncated(let path, _, _), .checksumMismatch(let path, _, _, _), .corrupt(let path, _, _, _),
      .missingSection(let path, _), .fault(let path, _, _, _):
      path
    }
  }

  /// What is wrong, in words, after the path in ``description``; names the section and the
  /// byte where the error has them.
  package var reason: String {
    switch self {
    case .cannotOpen(_, let reason):
      "cannot open index: \(reason)"
    case .notAnIndex:
      "not a PlaceIndex file (bad magic bytes)"
    case .unsupportedVersion(_, let expected, let got, let gotMinor):
      "unsupported index format version \(got).\(gotMinor); this reader reads \(expected).x"
    case .truncated(_, let expected, let actual):
      "truncated index: needs \(expected) bytes, has \(actual)"
    case .checksumMismatch(_, let section, let expected, let actual):
      "checksum mismatch in section \(section): stored \(hex(expected)), computed \(hex(actual))"
    case .corrupt(_, let section, let offset, let reason):
      "corrupt index: section \(section) at byte \(offset): \(reason)"
    case .missingSection(_, let section):
      "index has no \(section) section"
    case .fault(_, let section, let offset, let fault):
      "invalid index: section \(section) at byte \(offset): \(fault)"
    }
  }

  /// The same error naming `path` (errors raised deep in a section reader carry no path).
  package func withPath(_ path: String) -> IndexFormatError {
    switch self {
    case .cannotOpen(_, let r): .cannotOpen(path: path, reason: r)
    case .notAnIndex: .notAnIndex(path: path)
    case .unsupportedVersion(_, let e, let g, let m):
      .unsupportedVersion(path: path, expected: e, got: g, gotMinor: m)
    case .truncated(_, let e, let a): .truncated(path: path, expectedBytes: e, actualBytes: a)
    case .checksumMismatch(_, let s, let e, let a):
      .checksumMismatch(path: path, section: s, expected: e, actual: a)
    case .corrupt(_, let s, let o, let r): .corrupt(path: path, section: s, offset: o, reason: r)
    case .missingSection(_, let s): .missingSection(path: path, section: s)
    case .fault(_, let s, let o, let f): .fault(path: path, section: s, offset: o, f)
    }
  }
}

private func hex(_ v: UInt32) -> String {
  let s = String(v, radix: 16)
  return "0x" + String(repeating: "0", count: max(0, 8 - s.count)) + s
}
