#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Distinct byte strings, each stored once in one buffer and numbered in the order first
/// seen, for the writers that collect millions of them (strings, address contexts): about 20
/// bytes of table besides a string's own bytes, instead of a Swift string or array each and
/// a hash table of them.
struct ByteInterner {
  /// Every string's bytes, back to back.
  private(set) var bytes: [UInt8] = []
  /// Where string i ends in `bytes`.
  private var ends: [Int] = []
  /// An open-addressing hash table of string indexes + 1 (0: empty), at most half full.
  private var slots = [Int32](repeating: 0, count: 1024)

  /// Number of distinct strings.
  var count: Int { ends.count }

  init() {}

  /// Where string `i` lies in ``bytes``.
  @inline(__always)
  func range(_ i: Int) -> Range<Int> { (i == 0 ? 0 : ends[i - 1])..<ends[i] }

  /// String `i`'s bytes.
  func string(_ i: Int) -> ArraySlice<UInt8> { bytes[range(i)] }

  /// The index of `key`, added if it is new.
  @discardableResult
  mutating func insert(_ key: UnsafeRawBufferPointer) -> Int {
    var slot = Self.hash(key) & (slots.count - 1)
    while slots[slot] != 0 {
      let i = Int(slots[slot]) - 1
      if equal(i, key) { return i }
      slot = (slot + 1) & (slots.count - 1)
    }
    precondition(ends.count < Int(Int32.max), "too many distinct strings")
    bytes.append(contentsOf: key)
    ends.append(bytes.count)
    slots[slot] = Int32(ends.count)
    if 2 * ends.count > slots.count { grow() }
    return ends.count - 1
  }

  /// The index of `key`, or nil.
  func find(_ key: UnsafeRawBufferPointer) -> Int? {
    var slot = Self.hash(key) & (slots.count - 1)
    while slots[slot] != 0 {
      let i = Int(slots[slot]) - 1
      if equal(i, key) { return i }
      slot = (slot + 1) & (slots.count - 1)
    }
    return nil
  }

  /// The string indexes in bytewise order of their strings.
  func sortedIndexes() -> [Int32] {
    var order = (0..<Int32(count)).map { $0 }
    bytes.withUnsafeBytes { b in
      order.sort { x, y in
        let rx = range(Int(x))
        let ry = range(Int(y))
        let n = min(rx.count, ry.count)
        let c =
          n == 0 ? 0 : memcmp(b.baseAddress! + rx.lowerBound, b.baseAddress! + ry.lowerBound, n)
        return c != 0 ? c < 0 : rx.count < ry.count
      }
    }
    return order
  }

  @inline(__always)
  private func equal(_ i: Int, _ key: UnsafeRawBufferPointer) -> Bool {
    let r = range(i)
    guard r.count == key.count else { return false }
    guard r.count > 0 else { return true }
    return bytes.withUnsafeBytes {
      memcmp($0.baseAddress! + r.lowerBound, key.baseAddress!, r.count) == 0
    }
  }

  private mutating func grow() {
    var bigger = [Int32](repeating: 0, count: 2 * slots.count)
    bytes.withUnsafeBytes { b in
      for i in 0..<count {
        let r = range(i)
        var slot = Self.hash(UnsafeRawBufferPointer(rebasing: b[r])) & (bigger.count - 1)
        while bigger[slot] != 0 { slot = (slot + 1) & (bigger.count - 1) }
        bigger[slot] = Int32(i + 1)
      }
    }
    slots = bigger
  }

  /// FNV-1a 64 of the bytes, folded.
  @inline(__always)
  private static func hash(_ key: UnsafeRawBufferPointer) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in key { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return Int(truncatingIfNeeded: h ^ (h >> 29))
  }
}

extension ByteInterner {
  /// The index of `text`'s UTF-8 bytes, added if new.
  @discardableResult
  mutating func insert(_ text: String) -> Int {
    var text = text
    return text.withUTF8 { insert(UnsafeRawBufferPointer($0)) }
  }

  /// The index of `text`'s UTF-8 bytes, or nil.
  func find(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { find(UnsafeRawBufferPointer($0)) }
  }

  /// The index of `key`, added if new.
  @discardableResult
  mutating func insert(_ key: [UInt8]) -> Int {
    key.withUnsafeBytes { insert($0) }
  }

  /// The index of `key`, or nil.
  func find(_ key: [UInt8]) -> Int? { key.withUnsafeBytes { find($0) } }
}
