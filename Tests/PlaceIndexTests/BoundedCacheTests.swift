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

  /// Values weighed by their cost: the part starts over before its bytes would pass the limit,
  /// and a value larger than the limit alone is given but never kept.
  @Test func itHoldsAtMostItsBytes() {
    let cache = BoundedCache<WordKey, ResolvedToken>(
      capacity: 512, byteLimit: 100, bytes: { $0.cost })
    var computed = 0
    func ask(_ word: String, _ cost: Int) -> ResolvedToken {
      cache.value(for: WordKey(word: word, limit: 10)) {
        computed += 1
        return token(cost)
      }
    }
    _ = ask("a", 40)
    _ = ask("b", 60)
    _ = ask("a", 40)
    _ = ask("b", 60)
    #expect(computed == 2)  // 100 bytes: both kept
    _ = ask("c", 1)  // 101 would pass the limit: the part starts over, then keeps "c"
    _ = ask("c", 1)
    #expect(computed == 3)
    _ = ask("a", 40)
    #expect(computed == 4)  // "a" was dropped with the start-over
    // Too large to keep: computed every time, and what is kept stays.
    #expect(ask("big", 101).cost == 101)
    #expect(ask("big", 101).cost == 101)
    #expect(computed == 6)
    _ = ask("a", 40)
    _ = ask("c", 1)
    #expect(computed == 6)
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
