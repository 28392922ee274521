/// Why an index file cannot be used. Every case names the file and what is wrong.
public enum IndexFormatError: Error, Equatable, CustomStringConvertible {
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

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "\(path): cannot open index: \(reason)"
    case .notAnIndex(let path):
      "\(path): not a PlaceIndex file (bad magic bytes)"
    case .unsupportedVersion(let path, let expected, let got, let gotMinor):
      "\(path): unsupported index format version \(got).\(gotMinor); this reader reads \(expected).x"
    case .truncated(let path, let expected, let actual):
      "\(path): truncated index: needs \(expected) bytes, has \(actual)"
    case .checksumMismatch(let path, let section, let expected, let actual):
      "\(path): checksum mismatch in section \(section): stored \(hex(expected)), computed \(hex(actual))"
    case .corrupt(let path, let section, let offset, let reason):
      "\(path): corrupt index: section \(section) at byte \(offset): \(reason)"
    case .missingSection(let path, let section):
      "\(path): index has no \(section) section"
    case .fault(let path, let section, let offset, let fault):
      "\(path): invalid index: section \(section) at byte \(offset): \(fault)"
    }
  }

  /// The same error naming `path` (errors raised deep in a section reader carry no path).
  public func withPath(_ path: String) -> IndexFormatError {
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
