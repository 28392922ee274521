import Testing

@testable import PlaceIndex

/// The cache of finished words.
@Suite struct ResolvedWordCacheTests {
  func token(_ cost: Int) -> ResolvedToken {
    ResolvedToken(range: 0..<cost, exact: nil, typos: [cost], cost: cost, typedLength: 3)
  }

  @Test func aWordIsResolvedOnceAndGivenBackAsResolved() {
    let cache = ResolvedWordCache()
    var computed = 0
    for _ in 0..<3 {
      let t = cache.resolution(of: "sankt", limit: 10) {
        computed += 1
        return token(7)
      }
      #expect(t.cost == 7 && t.typos == [7])
    }
    #expect(computed == 1)
    // Another limit is another resolution.
    let other = cache.resolution(of: "sankt", limit: 20) {
      computed += 1
      return token(9)
    }
    #expect(other.cost == 9 && computed == 2)
  }

  @Test func itHoldsAtMostItsCapacity() {
    let cache = ResolvedWordCache()
    var computed = 0
    for i in 0..<(ResolvedWordCache.capacity + 1) {
      _ = cache.resolution(of: "w\(i)", limit: 10) {
        computed += 1
        return token(i)
      }
    }
    // The first word was dropped when the cache started over.
    _ = cache.resolution(of: "w0", limit: 10) {
      computed += 1
      return token(0)
    }
    #expect(computed == ResolvedWordCache.capacity + 2)
  }

  @Test func errorsAreNotKept() {
    struct Failure: Error {}
    let cache = ResolvedWordCache()
    #expect(throws: Failure.self) {
      try cache.resolution(of: "x", limit: 10) { throw Failure() }
    }
    let t = cache.resolution(of: "x", limit: 10) { token(3) }
    #expect(t.cost == 3)
  }
}
