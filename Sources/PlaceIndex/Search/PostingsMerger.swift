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
  /// A rank past every place of any index (a file holds fewer than 2^30): a seek beyond it
  /// seeks to it.
  static let pastEveryPlace = 1 << 40

  private var cursors: [PostingsCursor] = []
  /// What each cursor's list tells of its places.
  private var bits: [WordHits] = []
  /// Each cursor's next place, in a merge through the heap.
  private var heap = CursorHeap()
  /// The windowed merge's state; nil for a merge through the heap.
  private var windows: MergeWindows?
  /// The cursors a windowed seek moves on, kept from one seek to the next.
  private var moved: [Int] = []
  /// Where the driving words lie in the rank `next()` returned last (the union over the words
  /// when there are two; exact tokens only when there is one).
  private(set) var hits: WordHits = []
  /// Whether ``hits`` tells all of one word's hits: one driving word, and its context lists are
  /// read to the end (dropping them is refused when the word has typo candidates, which rank
  /// below a context match).
  let tellsHits: Bool

  /// The merge of `words`' lists; `windowFrom` lists or more are read by windows of
  /// 2^`windowShift` ranks, the next `ringSize` of them held in a ring (tests set them to
  /// compare the ways on a small index).
  init(
    postings: Postings, words: [ResolvedToken], windowFrom: Int = Self.windowFrom,
    windowShift: Int = Self.windowShift, ringSize: Int = MergeWindows.ringSize
  ) throws(IndexFormatError) {
    tellsHits = words.count == 1
    keepsContexts = words.count == 1 && !words[0].typos.isEmpty
    var cursors: [PostingsCursor] = []
    var bits: [WordHits] = []
    var heads: [Int] = []
    func add(_ lists: PostingsLists, _ hits: (PostingsPart) -> WordHits) throws(IndexFormatError) {
      for part in PostingsPart.allCases {
        var c = lists[part]
        if let v = try c.next() {
          cursors.append(c)
          bits.append(hits(part))
          heads.append(v)
        }
      }
    }
    for word in words {
      var w = word
      if words.count > 1 { w.exact = nil }
      // A heavy prefix's range is read as one union (PREFIX UNIONS), its exact token's lists
      // beside it for their exact hits: the same hits as the range's lists one by one.
      // (The range is made an array only when it is read list by list: a heavy prefix's
      // range holds thousands of tokens at country scale.)
      let tokens: [Int]
      if let union = try postings.union(of: w.range) {
        try add(union.lists) { .range($0) }
        tokens = (w.exact.map { [$0] } ?? []) + w.typos
      } else {
        tokens = Array(w.range) + w.typos
      }
      try postings.forEachList(of: tokens) { (t, lists) throws(IndexFormatError) in
        try add(lists) { WordHits.of(t, in: $0, for: w) }
      }
    }
    self.cursors = cursors
    self.bits = bits
    if cursors.count >= windowFrom {
      windows = MergeWindows(heads: heads, shift: windowShift, ringSize: ringSize)
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
    try seek(to: rank)
    if windows != nil { return WordHits(rawValue: windows!.window.hits(at: rank)) }
    guard let h = heap.top, h.value == rank else { return [] }
    var found: WordHits = []
    heap.forEachAtTop { found.formUnion(bits[$0]) }
    return found
  }

  /// Passes over the places before `rank` (not below the rank sought or returned before):
  /// ``next()`` then returns the first place from `rank` on. Every list whose next place lies
  /// before it moves to its first place from it, skipping the rest unread where it can.
  mutating func seek(to rank: Int) throws(IndexFormatError) {
    // Past every place (`Int.max` is the filters' "none left"): a window's end rank must not
    // overflow.
    let rank = min(rank, Self.pastEveryPlace)
    if windows != nil { return try windowSeek(to: rank) }
    while let h = heap.top, h.value < rank {
      heap.replaceTop(try cursors[h.cursor].advance(to: rank))
    }
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

  /// A windowed merge's seek to `rank`: the places before it are passed over.
  private mutating func windowSeek(to rank: Int) throws(IndexFormatError) {
    let target = rank >> windows!.shift
    if target > windows!.current {
      windows!.window.discardAll()
      // The lists waiting in the windows before the target's move to their first place from
      // `rank`.
      moved.removeAll(keepingCapacity: true)
      windows!.takeAll(before: target) { moved.append($0) }
      for c in moved where !dropped(c) {
        if let v = try cursors[c].advance(to: rank) { windows!.wait(c, at: v) }
      }
      try fill(target)
    }
    windows!.window.discard(below: rank)
  }

  /// Reads window `w`: every list waiting in it gives its places up to the window's end, then
  /// waits in the window of its next place.
  private mutating func fill(_ w: Int) throws(IndexFormatError) {
    // The windows out of the optional while the lists are read into them: a place's slot is
    // then written through a local, without the optional's unwrapping and storage checks on
    // every place (a tenth of a search of three one-letter words, "U P 1", at 200x).
    guard var windows = windows.take() else { return }
    defer { self.windows = windows }
    let end = windows.start(w)
    var c = windows.take(w)
    while c >= 0 {
      let following = Int(windows.after[c])
      if !dropped(c) {
        let found = bits[c].rawValue
        var value: Int? = windows.heads[c]
        while let v = value, v < end {
          windows.window.add(v, found)
          value = try cursors[c].next()
        }
        if let value { windows.wait(c, at: value) }
      }
      c = following
    }
  }
}

/// A windowed merge: the ranks in windows of 2^shift, each list waiting in the window of its
/// next place, and the window being read. The lists cost one visit per window they have places
/// in, the places one slot each. The windows after the current one are held in a ring of
/// ``ringSize`` (a list per window, linked through the cursors); a list whose next place lies
/// past the ring waits in a heap by that place until the ring reaches it. So the merge's
/// memory follows its lists, not the index's size.
struct MergeWindows {
  /// Windows held in the ring by default: 2^20 ranks, past which a list waits in the heap.
  static let ringSize = 256
  let shift: Int
  /// The ring's size - 1 (a power of two - 1).
  private let ringMask: Int
  /// Each cursor's next place.
  var heads: [Int]
  /// Per window of the ring (window `w` at `w & ringMask`, for `current < w < horizon`), the
  /// first cursor waiting in it, or -1.
  private var ring: [Int32]
  /// Per cursor, the next cursor waiting in the same window, or -1.
  var after: [Int32]
  /// The cursors whose next place lies past the ring, by that place.
  private var far = CursorHeap()
  /// The window being read, or -1 before the first.
  private(set) var current = -1
  var window: RankWindow

  /// The first window past the ring.
  private var horizon: Int { current + 1 + ringMask + 1 }

  /// `ringSize` must be a power of two.
  init(heads: [Int], shift: Int, ringSize: Int = Self.ringSize) {
    precondition(ringSize > 0 && ringSize & (ringSize - 1) == 0, "a ring of 2^k windows")
    self.shift = shift
    self.heads = heads
    ringMask = ringSize - 1
    ring = Array(repeating: -1, count: ringSize)
    after = Array(repeating: -1, count: heads.count)
    window = RankWindow(span: 1 << shift)
    // Ascending cursor order within a window is not needed: slots take hits in any order.
    for c in heads.indices {
      if heads[c] >> shift < horizon {
        link(c, heads[c] >> shift)
      } else {
        far.entries.append((heads[c], c))
      }
    }
    far.heapify()
  }

  /// Puts cursor `c` in the list of window `w`, in the ring.
  @inline(__always)
  private mutating func link(_ c: Int, _ w: Int) {
    let slot = w & ringMask
    after[c] = ring[slot]
    ring[slot] = Int32(c)
  }

  /// Puts cursor `c`, whose next place is `head` (past the current window), in that place's
  /// window.
  @inline(__always)
  mutating func wait(_ c: Int, at head: Int) {
    heads[c] = head
    let w = head >> shift
    if w < horizon { link(c, w) } else { far.push(head, c) }
  }

  /// Moves the cursors whose windows the ring reaches now from the heap into the ring.
  private mutating func pullFar() {
    while let top = far.top, top.value >> shift < horizon {
      link(top.cursor, top.value >> shift)
      far.replaceTop(nil)
    }
  }

  /// The first cursor waiting in window `w` of the ring (the others follow through
  /// ``after``), emptying it.
  @inline(__always)
  mutating func take(_ w: Int) -> Int {
    let slot = w & ringMask
    let c = Int(ring[slot])
    ring[slot] = -1
    return c
  }

  /// Calls `body` with every cursor waiting in a window before `target` (after the current
  /// one), taking them out; the window before the target becomes the current one.
  mutating func takeAll(before target: Int, _ body: (Int) -> Void) {
    for w in (current + 1)..<min(target, horizon) {
      var c = take(w)
      while c >= 0 {
        let following = Int(after[c])
        body(c)
        c = following
      }
    }
    while let top = far.top, top.value >> shift < target {
      body(top.cursor)
      far.replaceTop(nil)
    }
    current = target - 1
    pullFar()
  }

  /// The first window after the current one that a list waits in.
  mutating func nextOccupied() -> Int? {
    while true {
      pullFar()
      for w in (current + 1)..<horizon where ring[w & ringMask] >= 0 { return w }
      // Nothing in the ring: on to the window of the nearest list past it.
      guard let top = far.top else { return nil }
      current = (top.value >> shift) - 1
    }
  }

  /// Makes window `w` (held in the ring) the current one; its end rank.
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
  /// One past its last rank.
  var end: Int { base + slots.count }
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
