import Foundation

/// A value parsed from an index section on first use and kept, so that opening an index stays
/// O(1) and sections only some requests need (the type vocabulary for filters, the
/// abbreviations for highlighting) cost nothing until then.
final class ParsedOnce<Value: Sendable>: @unchecked Sendable {
  // @unchecked: `result` is written once and read only while holding `lock`.
  private let lock = NSLock()
  private var result: Result<Value, PlacesError>?
  private let parse: @Sendable () -> Result<Value, PlacesError>

  init(_ parse: @escaping @Sendable () -> Result<Value, PlacesError>) {
    self.parse = parse
  }

  /// The parsed value, parsing it now if this is the first use.
  func get() throws(PlacesError) -> Value {
    lock.lock()
    defer { lock.unlock() }
    if result == nil { result = parse() }
    return try result!.get()
  }
}
