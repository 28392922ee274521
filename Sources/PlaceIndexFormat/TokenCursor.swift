/// A position in a range of the token dictionary that moves forward only: to the next token,
/// or to the first token at least a key (a galloping search over the blocks' first tokens,
/// then a scan of one block). The current block is decoded once into one reused buffer, so a
/// walk that reads a block token by token, or leaps over many, decodes each block it lands in
/// once and allocates nothing per token.
///
/// Several cursors over the dictionaries of several shards walk their union in order
/// (``TokenUnion``).
package struct TokenCursor {
  private let dictionary: TokenDictionary
  /// The end of the range: ids from here on are past it.
  package let end: Int
  /// The current token's id; ``end`` once past the range.
  package private(set) var id: Int
  /// The current token's first 8 bytes, big-endian, zeros past its end: most comparisons
  /// between cursors are decided by them (``TokenUnion``).
  package private(set) var head: UInt64 = 0
  /// Which of the dictionaries walked together this one is.
  package let source: Int
  /// The current token's bytes.
  private var token: [UInt8] = []
  /// The block being read, and each of its tokens' shared prefix and suffix lengths.
  private var block = -1
  private var heads: [(shared: Int, suffix: Int)] = []
  /// Where the block's next suffix bits are.
  private var bits: HuffmanCode.Cursor

  /// A cursor at the first token of `range`, `source` naming its dictionary.
  package init(_ dictionary: TokenDictionary, range: Range<Int>, source: Int = 0)
    throws(IndexFormatError)
  {
    self.dictionary = dictionary
    self.source = source
    end = min(range.upperBound, dictionary.count)
    id = min(max(0, range.lowerBound), end)
    bits = HuffmanCode.Cursor(dictionary.reader)
    token.reserveCapacity(32)
    heads.reserveCapacity(dictionary.blockSize)
    guard id < end else { return }
    let start = id
    try load(start / dictionary.blockSize)
    while id < start { try next() }
    setHead()
  }

  /// Whether the cursor has passed the end of its range.
  package var done: Bool { id >= end }

  /// The current token's bytes (the cursor must not be ``done``).
  @inline(__always)
  package func withToken<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    token.withUnsafeBufferPointer(body)
  }

  /// Moves to the next token.
  package mutating func advance() throws(IndexFormatError) {
    guard id < end else { return }
    if id + 1 == end {
      id = end
      return
    }
    if (id + 1) % dictionary.blockSize == 0 { try load(block + 1) } else { try next() }
    setHead()
  }

  /// Moves to the first token from here on that is at least `key` bytewise (stays when the
  /// current one is).
  package mutating func seek(atLeast key: [UInt8]) throws(IndexFormatError) {
    guard id < end, isBelow(key) else { return }
    // When the next block starts at or below the key, the first token ≥ key lies in a later
    // block (or starts the one after it): found by a galloping search over the blocks' first
    // tokens, which are stored whole.
    let size = dictionary.blockSize
    let following = (block + 1) * size
    if following < end, try !key.lexicographicallyPrecedes(dictionary.firstToken(block + 1)) {
      let at = try dictionary.blockStart(atMost: key, fromBlock: block + 1)
      guard at < end else {
        id = end
        return
      }
      try load(at / size)
    }
    while isBelow(key) {
      if id + 1 == end {
        id = end
        return
      }
      if (id + 1) % size == 0 { try load(block + 1) } else { try next() }
    }
    setHead()
  }

  /// Reads the first token of block `b` and the heads of the others.
  private mutating func load(_ b: Int) throws(IndexFormatError) {
    block = b
    id = b * dictionary.blockSize
    heads.removeAll(keepingCapacity: true)
    heads.append((0, 0))
    bits = try dictionary.readBlockHeads(b, first: &token) { heads.append($1) }
  }

  /// Decodes the next token of the block.
  @inline(__always)
  private mutating func next() throws(IndexFormatError) {
    id += 1
    let h = heads[id - block * dictionary.blockSize]
    token.removeSubrange(h.shared...)
    try dictionary.code.decode(h.suffix, from: &bits, into: &token)
  }

  /// Whether the current token sorts before `key`.
  @inline(__always)
  private func isBelow(_ key: [UInt8]) -> Bool {
    token.withUnsafeBufferPointer { Self.compare($0, key) < 0 }
  }

  private mutating func setHead() {
    var h: UInt64 = 0
    let n = min(8, token.count)
    for k in 0..<8 { h = h << 8 | UInt64(k < n ? token[k] : 0) }
    head = h
  }

  /// -1, 0 or 1 as `a` sorts before, equal to or after `b`, bytewise.
  @inline(__always)
  package static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Int {
    b.withUnsafeBufferPointer { compare(a, $0) }
  }

  /// -1, 0 or 1 as `a` sorts before, equal to or after `b`, bytewise.
  @inline(__always)
  package static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    let n = min(a.count, b.count)
    var i = 0
    while i < n {
      if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
      i += 1
    }
    return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
  }
}

/// The tokens of several dictionaries in one order, each looked at once however many of them
/// hold it: a heap of cursors (``TokenCursor``) by their current token. The typo walk of
/// sharded indexes reads their dictionaries so (`LoadedIndex.walkTypos`): a token the shards
/// share is read in each, but checked against the word once.
package struct TokenUnion {
  private var cursors: [TokenCursor]
  /// The cursors not done, least token first (a binary heap of positions in ``cursors``).
  private var heap: [Int] = []
  /// The dictionary that was being read when a call threw.
  package private(set) var failing = 0

  package init(_ cursors: [TokenCursor]) {
    self.cursors = cursors
    heap.reserveCapacity(cursors.count)
    for c in cursors.indices where !cursors[c].done { push(c) }
  }

  /// Whether every cursor is done.
  package var isEmpty: Bool { heap.isEmpty }

  /// Cursor `c`'s source and token id.
  package func at(_ c: Int) -> (source: Int, id: Int) { (cursors[c].source, cursors[c].id) }

  /// Takes the cursors at the least token out into `holders` (cleared first; positions for
  /// ``at(_:)`` and ``advance(_:)``), and copies that token into `word`.
  package mutating func popLeast(into holders: inout [Int], token word: inout [UInt8]) {
    holders.removeAll(keepingCapacity: true)
    guard let top = heap.first else { return }
    cursors[top].withToken { t in
      word.removeAll(keepingCapacity: true)
      word.append(contentsOf: t)
    }
    holders.append(top)
    pop()
    while let c = heap.first, order(c, top) == 0 {
      holders.append(c)
      pop()
    }
  }

  /// Moves each of `holders` (taken out by ``popLeast(into:token:)``) to its next token and
  /// puts it back.
  package mutating func advance(_ holders: [Int]) throws(IndexFormatError) {
    for c in holders {
      failing = cursors[c].source
      try cursors[c].advance()
      if !cursors[c].done { push(c) }
    }
  }

  /// Moves every cursor to its first token at least `key` bytewise.
  package mutating func seek(atLeast key: [UInt8]) throws(IndexFormatError) {
    while let c = heap.first, cursors[c].withToken({ TokenCursor.compare($0, key) }) < 0 {
      pop()
      failing = cursors[c].source
      try cursors[c].seek(atLeast: key)
      if !cursors[c].done { push(c) }
    }
  }

  /// -1, 0 or 1 as cursor `a`'s token sorts before, equal to or after `b`'s.
  @inline(__always)
  private func order(_ a: Int, _ b: Int) -> Int {
    let (ha, hb) = (cursors[a].head, cursors[b].head)
    if ha != hb { return ha < hb ? -1 : 1 }
    return cursors[a].withToken { ta in cursors[b].withToken { tb in TokenCursor.compare(ta, tb) } }
  }

  /// Whether cursor `a` comes before `b` in the heap (ties by position, for a fixed order).
  @inline(__always)
  private func less(_ a: Int, _ b: Int) -> Bool {
    let o = order(a, b)
    return o < 0 || (o == 0 && a < b)
  }

  private mutating func push(_ c: Int) {
    heap.append(c)
    var i = heap.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard less(heap[i], heap[parent]) else { break }
      heap.swapAt(i, parent)
      i = parent
    }
  }

  private mutating func pop() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    var i = 0
    while true {
      let l = 2 * i + 1
      let r = l + 1
      var least = i
      if l < heap.count && less(heap[l], heap[least]) { least = l }
      if r < heap.count && less(heap[r], heap[least]) { least = r }
      guard least != i else { return }
      heap.swapAt(i, least)
      i = least
    }
  }
}
