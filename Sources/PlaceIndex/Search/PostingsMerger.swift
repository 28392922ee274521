import PlaceIndexFormat

/// Merges the postings lists of the driving words' tokens (prefix ranges and typo candidates,
/// every part) into one ascending stream of place ranks, telling for each where the words lie
/// in it.
struct PostingsMerger {
  private var cursors: [PostingsCursor] = []
  /// What each cursor's list tells of its places.
  private var bits: [WordHits] = []
  /// A binary min-heap of (head value, cursor) pairs.
  private var heap: [(value: Int, cursor: Int)] = []
  /// Where the driving words lie in the rank `next()` returned last (the union over the words
  /// when there are two; exact tokens only when there is one).
  private(set) var hits: WordHits = []
  /// Whether ``hits`` tells all of one word's hits: one driving word, and its context lists are
  /// read to the end (dropping them is refused when the word has typo candidates, which rank
  /// below a context match).
  let tellsHits: Bool

  init(postings: Postings, words: [ResolvedToken]) throws {
    tellsHits = words.count == 1
    keepsContexts = words.count == 1 && !words[0].typos.isEmpty
    var cursors: [PostingsCursor] = []
    var bits: [WordHits] = []
    var heap: [(value: Int, cursor: Int)] = []
    for word in words {
      var w = word
      if words.count > 1 { w.exact = nil }
      try postings.forEachList(of: Array(w.range) + w.typos) { t, lists in
        for part in PostingsPart.allCases {
          var c = lists[part]
          if let v = try c.next() {
            cursors.append(c)
            bits.append(WordHits.of(t, in: part, for: w))
            heap.append((v, cursors.count - 1))
          }
        }
      }
    }
    self.cursors = cursors
    self.bits = bits
    self.heap = heap
    heapify()
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
    heap.removeAll { !bits[$0.cursor].isDisjoint(with: contextBits) }
    heapify()
  }

  /// Orders the whole heap.
  private mutating func heapify() {
    var i = heap.count / 2
    while i > 0 {
      i -= 1
      siftDown(i)
    }
  }

  /// The next place rank, each rank once.
  mutating func next() throws -> Int? {
    guard let top = heap.first else { return nil }
    let value = top.value
    var found: WordHits = []
    // Advance every cursor whose head is this value.
    while let h = heap.first, h.value == value {
      found.formUnion(bits[h.cursor])
      if let v = try cursors[h.cursor].next() {
        heap[0].value = v
      } else {
        let last = heap.removeLast()
        if heap.isEmpty { break }
        heap[0] = last
      }
      siftDown(0)
    }
    hits = found
    return value
  }

  /// Restores the heap order below `start`.
  private mutating func siftDown(_ start: Int) {
    let count = heap.count
    var i = start
    let item = heap[i]
    while true {
      var child = 2 * i + 1
      if child >= count { break }
      if child + 1 < count && heap[child + 1].value < heap[child].value { child += 1 }
      if heap[child].value >= item.value { break }
      heap[i] = heap[child]
      i = child
    }
    heap[i] = item
  }
}
