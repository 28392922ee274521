import PlaceIndexFormat
import Testing

/// Expects `body` to refuse damaged bytes as `IndexFormatError.corrupt` naming `section` (the
/// case and the section, not only the error's type), with a reason that contains `reason` when
/// one is given.
func expectCorrupt<T>(
  _ section: String, reason: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  #expect(sourceLocation: sourceLocation) {
    _ = try body()
  } throws: { error in
    guard case .corrupt(_, let s, _, let r) = error as? IndexFormatError else {
      Issue.record(
        "expected a corrupt \(section) section, got \(error)", sourceLocation: sourceLocation)
      return false
    }
    if s != section {
      Issue.record(
        "expected a corrupt \(section) section, got \(error)", sourceLocation: sourceLocation)
    }
    return s == section && (reason.map { r.contains($0) } ?? !r.isEmpty)
  }
}
