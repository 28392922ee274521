/// SplitMix64: a small, fast generator whose output depends on the seed only.
///
/// The harness draws its targets, typos and origins from it, and never from the standard
/// library's algorithms that take a generator (`shuffled(using:)`, `random(in:using:)`), whose
/// output may change between Swift releases: the same seed must give the same targets.
struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in 0..<n (n > 0), without modulo bias worth speaking of for small n.
  mutating func below(_ n: Int) -> Int {
    precondition(n > 0)
    return Int(next().multipliedFullWidth(by: UInt64(n)).high)
  }

  /// A number in 0..<1.
  mutating func unit() -> Double {
    Double(next() >> 11) / Double(UInt64(1) << 53)
  }

  /// `k` distinct elements of `items`, in the order drawn (a partial Fisher-Yates shuffle).
  mutating func sample<T>(_ items: [T], _ k: Int) -> [T] {
    var pool = items
    let n = min(k, pool.count)
    for i in 0..<n {
      let j = i + below(pool.count - i)
      pool.swapAt(i, j)
    }
    return Array(pool.prefix(n))
  }
}

/// FNV-1a 64 of a string: derives a per-extract seed from the harness seed and a file name.
func fnv1a(_ text: String) -> UInt64 {
  var h: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in text.utf8 {
    h ^= UInt64(b)
    h = h &* 0x100_0000_01b3
  }
  return h
}
