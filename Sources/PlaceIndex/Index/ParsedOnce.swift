import Foundation

/// A value parsed from an index section on first use and kept, so that opening an index stays
/// O(1) and sections only some requests need (the type vocabulary for filters, the
/// abbreviations for highlighting) cost nothing until then. A parse that fails fails the
/// same way at every use, with its `Failure`.
final class ParsedOnce<Value: Sendable, Failure: Error>: @unchecked Sendable {
  // @unchecked: `result` is written once and read only while holding `lock`.
  private let lock = NSLock()
  private var result: Result<Value, Failure>?
  private let parse: @Sendable () -> Result<Value, Failure>

  init(_ parse: @escaping @Sendable () -> Result<Value, Failure>) {
    self.parse = parse
  }

  /// The parsed value, parsing it now if this is the first use.
  func get() throws(Failure) -> Value {
    lock.lock()
    defer { lock.unlock() }
    if result == nil { result = parse() }
    return try result!.get()
  }
}
