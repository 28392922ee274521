/// SplitMix64: a small, fast generator whose output depends on the seed only; the one the
/// benchmark draws its targets from and the property tests their cases.
///
/// Draw through its own methods (``below(_:)``, ``int(in:)``, ``unit()``, ``element(of:)``,
/// ``shuffled(_:)``, ``sample(_:_:)``), never through the standard library's algorithms that take
/// a generator (`Int.random(in:using:)`, `shuffled(using:)`): theirs may change between Swift
/// releases, and the same seed must give the same draws.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's state.
  package var state: UInt64

  /// A generator starting from `state`.
  package init(state: UInt64) { self.state = state }

  /// A generator starting from `seed`.
  package init(seed: UInt64) { self.state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in 0..<n (n > 0), without modulo bias worth speaking of for small n.
  package mutating func below(_ n: Int) -> Int {
    precondition(n > 0)
    return Int(next().multipliedFullWidth(by: UInt64(n)).high)
  }

  /// A whole number in `range`.
  package mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }

  /// A number in 0..<1.
  package mutating func unit() -> Double {
    Double(next() >> 11) / Double(UInt64(1) << 53)
  }

  /// A number in `range` (its upper bound included only by rounding).
  package mutating func double(in range: ClosedRange<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  /// One element of `items` (not empty).
  package mutating func element<C: Collection>(of items: C) -> C.Element {
    items[items.index(items.startIndex, offsetBy: below(items.count))]
  }

  /// `items` in a random order (a Fisher–Yates shuffle).
  package mutating func shuffled<T>(_ items: [T]) -> [T] {
    sample(items, items.count)
  }

  /// `k` distinct elements of `items`, in the order drawn (a partial Fisher–Yates shuffle).
  package mutating func sample<T>(_ items: [T], _ k: Int) -> [T] {
    var pool = items
    let n = min(k, pool.count)
    for i in 0..<n {
      let j = i + below(pool.count - i)
      pool.swapAt(i, j)
    }
    return Array(pool.prefix(n))
  }
}

/// FNV-1a 64 of a string's UTF-8: the build options hash in an index header, and the
/// benchmark's per-extract seeds.
package func fnv1a64(_ text: String) -> UInt64 {
  var h: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in text.utf8 {
    h ^= UInt64(b)
    h = h &* 0x100_0000_01b3
  }
  return h
}
