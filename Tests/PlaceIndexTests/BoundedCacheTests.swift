import Testing

@testable import PlaceIndex

/// The caches an index keeps (finished words, prepared display texts).
@Suite struct BoundedCacheTests {
  func token(_ cost: Int) -> ResolvedToken {
    ResolvedToken(range: 0..<cost, exact: nil, typos: [cost], cost: cost, typedLength: 3)
  }

  @Test func aWordIsResolvedOnceAndGivenBackAsResolved() {
    let cache = BoundedCache<WordKey, ResolvedToken>(capacity: 512)
    var computed = 0
    for _ in 0..<3 {
      let t = cache.value(for: WordKey(word: "sankt", limit: 10)) {
        computed += 1
        return token(7)
      }
      #expect(t.cost == 7 && t.typos == [7])
    }
    #expect(computed == 1)
    // Another limit is another resolution.
    let other = cache.value(for: WordKey(word: "sankt", limit: 20)) {
      computed += 1
      return token(9)
    }
    #expect(other.cost == 9 && computed == 2)
  }

  @Test func itHoldsAtMostItsCapacity() {
    let cache = BoundedCache<WordKey, ResolvedToken>(capacity: 512)
    var computed = 0
    for i in 0..<(cache.capacity + 1) {
      _ = cache.value(for: WordKey(word: "w\(i)", limit: 10)) {
        computed += 1
        return token(i)
      }
    }
    // The first word was dropped when the cache started over.
    _ = cache.value(for: WordKey(word: "w0", limit: 10)) {
      computed += 1
      return token(0)
    }
    #expect(computed == cache.capacity + 2)
  }

  @Test func errorsAreNotKept() {
    struct Failure: Error, Equatable {}
    let cache = BoundedCache<WordKey, ResolvedToken>(capacity: 512)
    #expect(throws: Failure()) {
      try cache.value(for: WordKey(word: "x", limit: 10)) { throw Failure() }
    }
    let t = cache.value(for: WordKey(word: "x", limit: 10)) { token(3) }
    #expect(t.cost == 3)
  }
}
