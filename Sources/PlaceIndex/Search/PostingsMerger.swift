import PlaceIndexFormat

/// Merges the postings lists of the driving words' tokens (prefix ranges and typo candidates,
/// every part) into one ascending stream of place ranks, telling for each where the words lie
/// in it.
///
/// Over the exact tokens of a search's words, it also answers whether a place asked for in
/// ascending rank order carries one (``hits(at:)``), reading the lists only as far as the last
/// place asked for: the cost then follows how far the search reads, not the index's size.
///
/// Few lists are merged through a heap of their cursors, one sift per place read. Many lists
/// (a one- or two-letter prefix has thousands of tokens, most with a place or two) are merged
/// a window of 2^``windowShift`` ranks at a time (``RankWindow``): each list waits in the
/// window of its next place; reading a window reads each of its lists up to the window's end
/// into the slots, and the ranks then come from the window's bitmap in order. No sift: a list
/// costs a visit per window it has places in, a place a slot.
struct PostingsMerger {
  /// From this many lists on, the merge reads windows of ranks.
  static let windowFrom = 32
  /// The ranks of one window, a power of two: its slots take 2 bytes each, whatever the
  /// index's size.
  static let windowShift = 12

  private var cursors: [PostingsCursor] = []
  /// What each cursor's list tells of its places.
  private var bits: [WordHits] = []
  /// Each cursor's next place, in a merge through the heap.
  private var heap = CursorHeap()
  /// The windowed merge's state; nil for a merge through the heap.
  private var windows: Windows?
  /// Where the driving words lie in the rank `next()` returned last (the union over the words
  /// when there are two; exact tokens only when there is one).
  private(set) var hits: WordHits = []
  /// Whether ``hits`` tells all of one word's hits: one driving word, and its context lists are
  /// read to the end (dropping them is refused when the word has typo candidates, which rank
  /// below a context match).
  let tellsHits: Bool

  /// The merge of `words`' lists; `windowFrom` lists or more are read by windows (tests set it
  /// to compare both ways).
  init(postings: Postings, words: [ResolvedToken], windowFrom: Int = Self.windowFrom)
    throws(IndexFormatError)
  {
    tellsHits = words.count == 1
    keepsContexts = words.count == 1 && !words[0].typos.isEmpty
    var cursors: [PostingsCursor] = []
    var bits: [WordHits] = []
    var heads: [Int] = []
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
            heads.append(v)
          }
        }
      }
    }
    self.cursors = cursors
    self.bits = bits
    if cursors.count >= windowFrom {
      windows = Windows(heads: heads, placeCount: postings.placeCount, shift: Self.windowShift)
    } else {
      heap.entries = heads.enumerated().map { ($1, $0) }
      heap.heapify()
    }
  }

  /// Whether ``dropContextLists()`` was called.
  private(set) var droppedContextLists = false
  /// Whether the context lists stay when dropped: their hits rank a typo match.
  private let keepsContexts: Bool
  private static let contextBits: WordHits = [.range(.context), .typo(.context), .exact(.context)]

  /// Removes the context lists' cursors: the stream goes on with the name lists only.
  mutating func dropContextLists() {
    guard !droppedContextLists, !keepsContexts else { return }
    droppedContextLists = true
    if windows != nil {
      // Their cursors are passed over when their windows come; the window being read loses
      // their hits now.
      windows!.window.remove(Self.contextBits.rawValue)
      return
    }
    heap.entries.removeAll { !bits[$0.cursor].isDisjoint(with: Self.contextBits) }
    heap.heapify()
  }

  /// Whether cursor `c` was dropped (``dropContextLists()``).
  @inline(__always)
  private func dropped(_ c: Int) -> Bool {
    droppedContextLists && !bits[c].isDisjoint(with: Self.contextBits)
  }

  /// The next place rank, each rank once.
  mutating func next() throws(IndexFormatError) -> Int? {
    if windows != nil { return try nextFromWindows() }
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
    if windows != nil { return try windowHits(at: rank) }
    while let h = heap.top, h.value < rank {
      heap.replaceTop(try cursors[h.cursor].advance(to: rank))
    }
    guard let h = heap.top, h.value == rank else { return [] }
    var found: WordHits = []
    heap.forEachAtTop { found.formUnion(bits[$0]) }
    return found
  }

  /// The next rank of a windowed merge: from the window being read, else from the next window
  /// that some list has a place in.
  private mutating func nextFromWindows() throws(IndexFormatError) -> Int? {
    while true {
      if let (rank, found) = windows!.window.popFirst() {
        hits = WordHits(rawValue: found)
        return rank
      }
      guard let w = windows!.nextOccupied() else { return nil }
      try fill(w)
    }
  }

  /// A windowed merge's hits at `rank`: the places before it are passed over.
  private mutating func windowHits(at rank: Int) throws(IndexFormatError) -> WordHits {
    let target = rank >> Self.windowShift
    if target > windows!.current {
      windows!.window.discardAll()
      // The lists waiting in the windows before the target's move to their first place from
      // `rank`.
      for w in (windows!.current + 1)..<min(target, windows!.waiting.count) {
        var c = windows!.take(w)
        while c >= 0 {
          let following = Int(windows!.after[c])
          if !dropped(c), let v = try cursors[c].advance(to: rank) { windows!.wait(c, at: v) }
          c = following
        }
      }
      guard target < windows!.waiting.count else { return [] }
      try fill(target)
    }
    windows!.window.discard(below: rank)
    return WordHits(rawValue: windows!.window.hits(at: rank))
  }

  /// Reads window `w`: every list waiting in it gives its places up to the window's end, then
  /// waits in the window of its next place.
  private mutating func fill(_ w: Int) throws(IndexFormatError) {
    let end = windows!.start(w)
    var c = windows!.take(w)
    while c >= 0 {
      let following = Int(windows!.after[c])
      if !dropped(c) {
        let found = bits[c].rawValue
        var value: Int? = windows!.heads[c]
        while let v = value, v < end {
          windows!.window.add(v, found)
          value = try cursors[c].next()
        }
        if let value { windows!.wait(c, at: value) }
      }
      c = following
    }
  }
}

/// A windowed merge: the ranks in windows of 2^shift, each list waiting in the window of its
/// next place (a list per window, linked through the cursors), and the window being read.
/// The lists cost one visit per window they have places in, the places one slot each.
private struct Windows {
  let shift: Int
  /// Each cursor's next place.
  var heads: [Int]
  /// Per window, the first cursor waiting in it, or -1 (one entry per 2^shift places).
  var waiting: [Int32]
  /// Per cursor, the next cursor waiting in the same window, or -1.
  var after: [Int32]
  /// The window being read, or -1 before the first.
  var current = -1
  var window: RankWindow

  init(heads: [Int], placeCount: Int, shift: Int) {
    self.shift = shift
    self.heads = heads
    waiting = Array(repeating: -1, count: (placeCount >> shift) + 1)
    after = Array(repeating: -1, count: heads.count)
    window = RankWindow(span: 1 << shift)
    // Ascending cursor order within a window is not needed: slots take hits in any order.
    for c in heads.indices { wait(c, at: heads[c]) }
  }

  /// Puts cursor `c`, whose next place is `head`, in that place's window.
  @inline(__always)
  mutating func wait(_ c: Int, at head: Int) {
    heads[c] = head
    let w = head >> shift
    after[c] = waiting[w]
    waiting[w] = Int32(c)
  }

  /// The first cursor waiting in window `w` (the others follow through ``after``), emptying it.
  @inline(__always)
  mutating func take(_ w: Int) -> Int {
    let c = Int(waiting[w])
    waiting[w] = -1
    return c
  }

  /// The first window after the current one that a list waits in.
  mutating func nextOccupied() -> Int? {
    var w = current + 1
    while w < waiting.count {
      if waiting[w] >= 0 { return w }
      w += 1
    }
    current = waiting.count
    return nil
  }

  /// Makes window `w` the current one; its end rank.
  mutating func start(_ w: Int) -> Int {
    current = w
    window.start(at: w << shift)
    return window.end
  }
}

/// A stretch of consecutive ranks, each with the hits the merged lists tell of it: a bitmap of
/// the ranks present and a slot of hits per rank, read in order and cleared as they are read.
struct RankWindow {
  /// The first rank of the stretch.
  private(set) var base = 0
  /// One past its last rank (equal to `base` before the first window).
  private(set) var end = 0
  private var slots: [UInt16]
  private var present: [UInt64]
  /// The first word of `present` that may still hold a set bit.
  private var scan = 0

  init(span: Int) {
    precondition(span > 0 && span % 64 == 0, "a window spans whole words of ranks")
    slots = Array(repeating: 0, count: span)
    present = Array(repeating: 0, count: span / 64)
    scan = present.count
  }

  /// Starts the stretch at `rank`; the one before must have been read or discarded.
  mutating func start(at rank: Int) {
    base = rank
    end = rank + slots.count
    scan = 0
  }

  /// Adds `hits` to rank `rank`'s (in the stretch).
  @inline(__always)
  mutating func add(_ rank: Int, _ hits: UInt16) {
    let i = rank - base
    present[i >> 6] |= 1 << UInt64(i & 63)
    slots[i] |= hits
  }

  /// The least rank not read yet, with its hits, and clears it; nil when all are read.
  @inline(__always)
  mutating func popFirst() -> (rank: Int, hits: UInt16)? {
    while scan < present.count {
      let word = present[scan]
      if word != 0 {
        let i = scan << 6 + word.trailingZeroBitCount
        present[scan] = word & (word - 1)
        let found = slots[i]
        slots[i] = 0
        return (base + i, found)
      }
      scan += 1
    }
    return nil
  }

  /// The hits of `rank`, not yet read; empty outside the stretch.
  func hits(at rank: Int) -> UInt16 {
    guard rank >= base, rank < end else { return 0 }
    return slots[rank - base]
  }

  /// Clears the ranks below `rank` not read yet.
  mutating func discard(below rank: Int) {
    let limit = min(max(rank - base, 0), slots.count)
    while scan < present.count && scan << 6 < limit {
      // The bits of this word below the limit.
      let below = limit - scan << 6
      let mask: UInt64 = below >= 64 ? ~0 : (1 << UInt64(below)) - 1
      var word = present[scan] & mask
      present[scan] &= ~mask
      while word != 0 {
        slots[scan << 6 + word.trailingZeroBitCount] = 0
        word &= word - 1
      }
      if below < 64 { return }
      scan += 1
    }
  }

  /// Clears every rank not read yet.
  mutating func discardAll() {
    discard(below: end)
  }

  /// Takes `mask` off every rank not read yet; a rank left with no hits is passed over.
  mutating func remove(_ mask: UInt16) {
    for w in scan..<present.count {
      var word = present[w]
      while word != 0 {
        let i = w << 6 + word.trailingZeroBitCount
        word &= word - 1
        slots[i] &= ~mask
        if slots[i] == 0 { present[w] &= ~(1 << UInt64(i & 63)) }
      }
    }
  }
}
