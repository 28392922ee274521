import Foundation

/// Values an index computed lately, kept so that the next request does not compute them again.
///
/// An index keeps four (``RecentWork``): the finished words of recent queries, resolved
/// ("Sankt Florinsgasse 1", then "Sankt Florinsgasse 15", looks up "sankt" and "florinsgasse"
/// once; the word being typed is never taken from it), the tokens a typo walk found for
/// recent words (the next keystroke narrows them; a word is never answered from its own),
/// the display texts of recent suggestions prepared for highlighting, and what recent
/// suggestions showed of their places (the same place on the next keystroke, the same town
/// under many places).
///
/// Bounded: when a thread's part holds `capacity` values, or the values' bytes (as `bytes`
/// tells them) would pass `byteLimit`, it starts over; a value larger than `byteLimit` alone
/// is not kept. A value depends only on its key and the index, so a kept one is the one
/// computing it gives; errors are not kept.
///
/// Each thread uses its own part (one of `1 << partBits`, picked by the thread's identity), so that
/// threads querying one index at once neither wait on one lock nor share the kept values'
/// reference counts, which would make their cores trade the same cache lines.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  // @unchecked: each part's `entries` is read and written only while holding its `lock`.
  private final class Part {
    let lock = NSLock()
    var entries: [Key: Value] = [:]
    /// The bytes of `entries`' values.
    var bytes = 0
  }

  /// Bits of the thread hash that pick a part: 1 << partBits parts. Threads whose identities
  /// pick the same part share it.
  static var partBits: Int { 4 }
  private let parts: [Part]
  /// Most values one part holds.
  let capacity: Int
  /// Most bytes of values one part holds.
  let byteLimit: Int
  /// The bytes a value holds.
  private let bytes: @Sendable (Value) -> Int

  init(
    capacity: Int, byteLimit: Int = .max, bytes: @escaping @Sendable (Value) -> Int = { _ in 0 }
  ) {
    self.capacity = capacity
    self.byteLimit = byteLimit
    self.bytes = bytes
    parts = (0..<(1 << Self.partBits)).map { _ in Part() }
  }

  /// The value for `key`, computing and keeping it when the calling thread's part does not
  /// hold it.
  func value<E: Error>(for key: Key, _ compute: () throws(E) -> Value) throws(E) -> Value {
    if let held = held(key) { return held }
    let value = try compute()
    keep(value, for: key)
    return value
  }

  /// The value the calling thread's part holds for `key`, if any.
  func held(_ key: Key) -> Value? {
    let part = self.part
    part.lock.lock()
    defer { part.lock.unlock() }
    return part.entries[key]
  }

  /// Keeps `value` for `key` in the calling thread's part (starting it over when full).
  func keep(_ value: Value, for key: Key) {
    let size = bytes(value)
    guard size <= byteLimit else { return }
    let part = self.part
    part.lock.lock()
    if part.entries.count >= capacity || part.bytes > byteLimit - size {
      part.entries.removeAll(keepingCapacity: true)
      part.bytes = 0
    }
    part.entries[key] = value
    part.bytes += size
    part.lock.unlock()
  }

  /// The calling thread's part.
  private var part: Part {
    // pthread_self is a register read: cheap enough for every lookup (Thread.current is not).
    let thread = UInt64(UInt(bitPattern: Int(bitPattern: pthread_self())))
    return parts[Int((thread &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.partBits))]
  }
}
