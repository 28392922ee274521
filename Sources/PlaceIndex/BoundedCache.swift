import Foundation

/// Values an index computed lately, kept so that the next request does not compute them again.
///
/// An index keeps two: the finished words of recent queries, resolved ("Sankt Florinsgasse 1",
/// then "Sankt Florinsgasse 15", looks up "sankt" and "florinsgasse" once; the word being typed
/// is never taken from it), and the display texts of recent suggestions, prepared for
/// highlighting (the same place on the next keystroke, the same town under many places).
///
/// Bounded: when it holds `capacity` values it starts over. A value depends only on its key
/// and the index, so a kept one is the one computing it gives; errors are not kept.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  // @unchecked: `entries` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var entries: [Key: Value] = [:]
  /// Most values held.
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  /// The value for `key`, computing and keeping it when it is not held.
  func value(for key: Key, _ compute: () throws -> Value) rethrows -> Value {
    lock.lock()
    let held = entries[key]
    lock.unlock()
    if let held { return held }
    let value = try compute()
    lock.lock()
    if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
    entries[key] = value
    lock.unlock()
    return value
  }
}
