import PlaceIndexFormat

/// Merges the postings lists of the driving words' tokens (prefix ranges and typo candidates,
/// every part) into one ascending stream of place ranks, telling for each where the words lie
/// in it.
///
/// Over the exact tokens of a search's words, it also answers whether a place asked for in
/// ascending rank order carries one (``hits(at:)``), reading the lists only as far as the last
/// place asked for: the cost then follows how far the search reads, not the index's size.
struct PostingsMerger {
  private var cursors: [PostingsCursor] = []
  /// What each cursor's list tells of its places.
  private var bits: [WordHits] = []
  /// Each cursor's next place.
  private var heap = CursorHeap()
  /// Where the driving words lie in the rank `next()` returned last (the union over the words
  /// when there are two; exact tokens only when there is one).
  private(set) var hits: WordHits = []
  /// Whether ``hits`` tells all of one word's hits: one driving word, and its context lists are
  /// read to the end (dropping them is refused when the word has typo candidates, which rank
  /// below a context match).
  let tellsHits: Bool

  init(postings: Postings, words: [ResolvedToken]) throws(IndexFormatError) {
    tellsHits = words.count == 1
    keepsContexts = words.count == 1 && !words[0].typos.isEmpty
    var cursors: [PostingsCursor] = []
    var bits: [WordHits] = []
    var heap = CursorHeap()
    for word in words {
      var w = word
      if words.count > 1 { w.exact = nil }
      try postings.forEachList(of: Array(w.range) + w.typos) {
        (t, lists) throws(IndexFormatError) in
        for part in PostingsPart.allCases {
          var c = lists[part]
          if let v = try c.next() {
            cursors.append(c)
            bits.append(WordHits.of(t, in: part, for: w))
            heap.entries.append((v, cursors.count - 1))
          }
        }
      }
    }
    self.cursors = cursors
    self.bits = bits
    heap.heapify()
    self.heap = heap
  }

  /// Whether ``dropContextLists()`` was called.
  private(set) var droppedContextLists = false
  /// Whether the context lists stay when dropped: their hits rank a typo match.
  private let keepsContexts: Bool

  /// Removes the context lists' cursors: the stream goes on with the name lists only.
  mutating func dropContextLists() {
    guard !droppedContextLists, !keepsContexts else { return }
    droppedContextLists = true
    let contextBits: WordHits = [.range(.context), .typo(.context)]
    heap.entries.removeAll { !bits[$0.cursor].isDisjoint(with: contextBits) }
    heap.heapify()
  }

  /// The next place rank, each rank once.
  mutating func next() throws(IndexFormatError) -> Int? {
    guard let top = heap.top else { return nil }
    let value = top.value
    var found: WordHits = []
    // Advance every cursor whose head is this value.
    while let h = heap.top, h.value == value {
      found.formUnion(bits[h.cursor])
      heap.replaceTop(try cursors[h.cursor].next())
    }
    hits = found
    return value
  }

  /// Where the words lie in place `rank`, which is not below the rank asked for
  /// before: every list whose next place lies before it moves to its first place from it.
  mutating func hits(at rank: Int) throws(IndexFormatError) -> WordHits {
    while let h = heap.top, h.value < rank {
      heap.replaceTop(try cursors[h.cursor].advance(to: rank))
    }
    guard let h = heap.top, h.value == rank else { return [] }
    var found: WordHits = []
    heap.forEachAtTop { found.formUnion(bits[$0]) }
    return found
  }
}
