// POSTINGS section layout: an item table (ItemTable.swift) with one item per token, in token
// order, and no item lengths: the places whose primary name carries the token, then, when
// there are any, the places that carry it only in an alternative name, then those that carry
// it only in their context (address, admin areas). Records hold no tokens: a query learns
// from these lists alone where each typed word lies in a place. An item (all varints):
//   (n << 3) | (c << 2) | (a << 1) | encoding   the name list: n places; a = 1: an
//                                    alternative-name list follows; c = 1: a context list
//                                    follows; encoding 0 = gaps, 1 = bitmap
//   [byte length of the name list's places]   see below
//   the name list's places
//   [(m << 1) | encoding, [byte length], the alternative-name list's m places]   when a = 1
//   [(k << 1) | encoding, [byte length], the context list's k places]   when c = 1
// A list's byte length is written unless the list ends the item, is gaps and holds fewer
// than 16 places: then the item ends after its places' varints. (Most tokens have one short
// list: their items need no length at all, and skipping one reads at most 15 varints.)
// A list's places:
//   gaps:    [skip table, when the list holds Postings.skipsFrom (128) places or more]
//            the first place index, then the gap to each next one
//   bitmap:  the first place index f, then bytes whose bit i (low bit first) is set when place
//            f + 8·byte + bit carries the token; the first bit is place f
// The writer picks whichever is shorter (bitmaps win for dense lists such as a town's name).
// A skip table (since 9.0) lets a reader seeking far ahead in a long gap list pass over whole
// blocks of Postings.skipBlock (64) places without decoding their gaps:
//   varint byte length of the entries
//   per block k = 1 ..< ceil(n / 64): varint (place 64k - 1) - (that of entry k - 1, or 0),
//     varint (offset of gap 64k from the first gap) - (that of entry k - 1, or 0)
// Entry k thus names the last place before block k and where block k's first gap starts;
// that gap is taken from the place the entry names. Both deltas are positive.
// Place indexes are strictly increasing. Places are numbered by rank, most important first,
// so each list is in importance order and a query that has enough good results can stop
// reading it early. The three lists of a token are disjoint.

/// Where a token lies in the places of one of its postings lists.
package enum PostingsPart: Int, Sendable, CaseIterable {
  /// The place's primary name.
  case name = 0
  /// An alternative name only (another language's, a former name).
  case alternative = 1
  /// The place's context only: its address and admin areas.
  case context = 2
}

/// The three postings lists of one token.
package struct PostingsLists {
  /// Places whose primary name carries the token.
  package var name: PostingsCursor
  /// Places that carry it only in an alternative name.
  package var alternative: PostingsCursor
  /// Places that carry it only in their context.
  package var context: PostingsCursor

  /// The list of `part`.
  @inline(__always)
  package subscript(part: PostingsPart) -> PostingsCursor {
    switch part {
    case .name: name
    case .alternative: alternative
    case .context: context
    }
  }
}

/// Reads the places that carry each token.
package struct Postings: @unchecked Sendable {
  let items: ItemTable<PostingsFraming>
  /// Number of tokens: one item each.
  package var tokenCount: Int { items.count }
  let placeCount: Int
  /// The unions of the heavy prefixes' lists (PREFIX UNIONS; none in a 7.0 file).
  package let unions: PrefixUnions

  /// Reads the section header; `placeCount` bounds every place index.
  package init(
    _ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int,
    unions: PrefixUnions = .none
  ) throws(IndexFormatError) {
    items = try ItemTable(ByteReader(bytes, section: "POSTINGS", fileOffset: fileOffset))
    self.placeCount = placeCount
    self.unions = unions
  }

  /// Gap lists of fewer places than this end their item without a byte length.
  static let lengthlessBelow = 16
  /// Gap lists of this many places or more carry a skip table (since 9.0).
  package static let skipsFrom = 128
  /// Places per block of a skip table.
  package static let skipBlock = 64

  /// Whether a list of `count` places is written after its byte length.
  @inline(__always)
  static func hasLength(count: Int, bitmap: Bool, last: Bool) -> Bool {
    !last || bitmap || count >= lengthlessBelow
  }

  /// Reads a list's byte length, if it has one, and returns where the list ends: without a
  /// length, at the end of `r`'s buffer (the item's).
  @inline(__always)
  private static func listEnd(_ r: inout ByteReader, count: Int, bitmap: Bool, last: Bool)
    throws(IndexFormatError) -> Int
  {
    guard hasLength(count: count, bitmap: bitmap, last: last) else { return r.buffer.count }
    let length = try r.varint(below: r.remaining + 1)
    return r.offset + length
  }

  /// Where the item at `r`'s offset ends: past its lists' lengths, or past the varints of a
  /// last list that has none. (The lists' contents are checked when they are read.)
  @inline(__always)
  static func itemEnd(_ r: ByteReader) throws(IndexFormatError) -> Int {
    var r = r
    let head = try r.varint(below: .max)
    let (a, c) = (head & 2 != 0, head & 4 != 0)
    try skipList(&r, head: head, shift: 3, last: !a && !c)
    if a { try skipList(&r, head: try r.varint(below: .max), shift: 1, last: !c) }
    if c { try skipList(&r, head: try r.varint(below: .max), shift: 1, last: true) }
    return r.offset
  }

  /// Moves `r` past the list whose head (count << shift | ... | encoding) it has just read:
  /// past its byte length and places, or past the varints of a short last gap list (counted
  /// by their last bytes, below 0x80; reading the list checks them).
  @inline(__always)
  private static func skipList(_ r: inout ByteReader, head: Int, shift: Int, last: Bool)
    throws(IndexFormatError)
  {
    var count = head >> shift
    if hasLength(count: count, bitmap: head & 1 == 1, last: last) {
      r.offset += try r.varint(below: r.remaining + 1)
      return
    }
    var o = r.offset
    while count > 0 {
      guard o < r.buffer.count else { throw r.fault("list runs past the end", at: r.offset) }
      if r.buffer[o] < 0x80 { count -= 1 }
      o += 1
    }
    r.offset = o
  }

  /// A cursor over the places that carry `token` in `part`.
  package func list(_ token: Int, _ part: PostingsPart) throws(IndexFormatError) -> PostingsCursor {
    try lists(token)[part]
  }

  /// The three lists of `token`.
  package func lists(_ token: Int) throws(IndexFormatError) -> PostingsLists {
    guard token >= 0, token < tokenCount else {
      throw items.reader.fault("token \(token) has no list", at: 0)
    }
    return try lists(at: try items.item(token))
  }

  /// Calls `body` with each token of `tokens` and its lists, in order. Runs of consecutive
  /// tokens (a prefix's range) are read sequentially.
  package func forEachList(
    of tokens: [Int],
    _ body: (_ token: Int, _ lists: PostingsLists) throws(IndexFormatError) -> Void
  ) throws(IndexFormatError) {
    var i = 0
    while i < tokens.count {
      var end = i + 1
      while end < tokens.count, tokens[end] == tokens[end - 1] + 1 { end += 1 }
      try forEachList(of: tokens[i]..<(tokens[end - 1] + 1), body)
      i = end
    }
  }

  /// Calls `body` with each token of `range` and its lists, in order.
  package func forEachList(
    of range: Range<Int>,
    _ body: (_ token: Int, _ lists: PostingsLists) throws(IndexFormatError) -> Void
  ) throws(IndexFormatError) {
    guard !range.isEmpty else { return }
    guard range.lowerBound >= 0, range.upperBound <= tokenCount else {
      throw items.reader.fault(
        "token \(range.lowerBound < 0 ? range.lowerBound : range.upperBound - 1) has no list",
        at: 0)
    }
    try items.walk(range) { (token, r) throws(IndexFormatError) in try body(token, try lists(at: r))
    }
  }

  /// The lists of the item that `r` reads.
  @inline(__always)
  func lists(at r: ByteReader) throws(IndexFormatError) -> PostingsLists {
    var r = r
    let head = try r.varint(below: 8 * placeCount + 8)
    let hasAlternative = head & 2 != 0
    let hasContext = head & 4 != 0
    var none = r
    none.offset = r.buffer.count
    let empty = PostingsCursor(reader: none, remaining: 0, count: 0, placeCount: placeCount)
    var end = try Self.listEnd(
      &r, count: head >> 3, bitmap: head & 1 == 1, last: !hasAlternative && !hasContext)
    let names = try cursor(r, end: end, count: head >> 3, bitmap: head & 1 == 1)
    guard hasAlternative || hasContext else {
      return PostingsLists(name: names, alternative: empty, context: empty)
    }
    r.offset = end
    var alternative = empty
    if hasAlternative {
      let altHead = try r.varint(below: 2 * placeCount + 2)
      end = try Self.listEnd(&r, count: altHead >> 1, bitmap: altHead & 1 == 1, last: !hasContext)
      alternative = try cursor(r, end: end, count: altHead >> 1, bitmap: altHead & 1 == 1)
      r.offset = end
    }
    var context = empty
    if hasContext {
      let contextHead = try r.varint(below: 2 * placeCount + 2)
      end = try Self.listEnd(&r, count: contextHead >> 1, bitmap: contextHead & 1 == 1, last: true)
      context = try cursor(r, end: end, count: contextHead >> 1, bitmap: contextHead & 1 == 1)
    }
    return PostingsLists(name: names, alternative: alternative, context: context)
  }

  /// A cursor over `count` places written from `r`'s offset up to `end`.
  @inline(__always)
  private func cursor(_ r: ByteReader, end: Int, count n: Int, bitmap: Bool)
    throws(IndexFormatError)
    -> PostingsCursor
  {
    var r = r.limited(to: end)
    var cursor = PostingsCursor(reader: r, remaining: n, count: n, placeCount: placeCount)
    if bitmap, n > 0 {
      cursor.bitmapBase = try r.varint(below: placeCount)
      cursor.bitmapStart = r.offset
      cursor.reader = r
      cursor.isBitmap = true
    } else if n >= Self.skipsFrom {
      let length = try r.varint(below: r.remaining + 1)
      cursor.skips = SkipState(at: r.offset, end: r.offset + length)
      r.offset += length
      cursor.reader = r
      cursor.gapsStart = r.offset
    }
    return cursor
  }

  /// Number of places that carry `token`, in names and contexts.
  package func length(_ token: Int) throws(IndexFormatError) -> Int {
    try length(of: token..<(token + 1))
  }

  /// Number of places that carry the tokens of `range`, in any part, summed (each
  /// place once per token); stops adding once the sum passes `cap`. A range that PREFIX
  /// UNIONS holds gives its whole sum at once, without a walk over its tokens.
  package func length(of range: Range<Int>, cap: Int = .max) throws(IndexFormatError) -> Int {
    guard range.lowerBound >= 0, range.upperBound <= tokenCount else {
      throw items.reader.fault("tokens \(range) have no lists", at: 0)
    }
    if let i = try unions.find(range) { return try unions.entry(i).sum }
    var total = 0
    var r = range
    // In chunks, so that a cap reached early stops the walk.
    while !r.isEmpty, total <= cap {
      let chunk = r.lowerBound..<min(r.upperBound, r.lowerBound + 32)
      try items.walk(chunk) { (_, r) throws(IndexFormatError) in
        var r = r
        let head = try r.varint(below: 8 * placeCount + 8)
        total += head >> 3
        guard head & 6 != 0 else { return }
        var skip = try r.varint(below: r.remaining + 1)
        r.offset += skip
        if head & 2 != 0 {
          total += try r.varint(below: 2 * placeCount + 2) >> 1
          guard head & 4 != 0 else { return }
          skip = try r.varint(below: r.remaining + 1)
          r.offset += skip
        }
        total += try r.varint(below: 2 * placeCount + 2) >> 1
      }
      r = chunk.upperBound..<r.upperBound
    }
    return total
  }

  /// Decodes every list, checking order and range.
  package func verify() throws(IndexFormatError) {
    try items.forEach { (t, r) throws(IndexFormatError) in
      let lists = try lists(at: r)
      for part in PostingsPart.allCases {
        let what = ["name", "alternative-name", "context"][part.rawValue]
        var c = lists[part]
        try c.readChecked()
        guard c.reader.remaining == 0, c.byte == 0 else {
          throw c.reader.fault("token \(t)'s \(what) list holds more than its \(c.count) places")
        }
      }
    }
  }
}

/// POSTINGS items have no lengths: each says where it ends (``Postings/itemEnd(_:)``).
package enum PostingsFraming: ItemFraming {
  package static let prefixesLength = false

  @inline(__always)
  package static func length(_ r: inout ByteReader) throws(IndexFormatError) -> Int {
    try Postings.itemEnd(r) - r.offset
  }
}

/// Iterates one postings list in place-index order.
package struct PostingsCursor {
  var reader: ByteReader
  var remaining: Int
  /// Number of entries in the list.
  package let count: Int
  let placeCount: Int
  var last = -1
  var isBitmap = false
  var bitmapBase = 0
  var bitmapStart = 0
  var byte: UInt8 = 0
  var byteBase = 0
  /// A long gap list's skip table and how far it has been read; nil without one.
  var skips: SkipState?
  /// Where a list with a skip table has its first gap.
  var gapsStart = 0

  init(reader: ByteReader, remaining: Int, count: Int, placeCount: Int) {
    self.reader = reader
    self.remaining = remaining
    self.count = count
    self.placeCount = placeCount
  }

  /// The next place index, or nil at the end.
  @inline(__always)
  package mutating func next() throws(IndexFormatError) -> Int? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    return isBitmap ? try nextBit() : try nextGap()
  }

  /// The first place from `target` on, or nil when the list holds none: skips the places
  /// before it (a bitmap list by whole bytes) and consumes the one returned, as `next()` does.
  @inline(__always)
  package mutating func advance(to target: Int) throws(IndexFormatError) -> Int? {
    if isBitmap, remaining > 0 {
      // Whole bytes before the target's byte are counted and passed over: the bits left of
      // the byte being read, then the bytes up to the target's.
      let targetByte = bitmapStart + max(0, (target - bitmapBase) >> 3)
      if targetByte > reader.offset {
        var skipped = byte.nonzeroBitCount
        let stop = min(targetByte, reader.buffer.count)
        var o = reader.offset
        while o < stop {
          skipped += reader.buffer[o].nonzeroBitCount
          o += 1
        }
        guard skipped <= remaining else {
          throw reader.fault("bitmap holds more than its \(count) places", at: o)
        }
        remaining -= skipped
        reader.offset = o
        byte = 0
      }
    } else if skips != nil, remaining > 0 {
      try skipAhead(to: target)
    }
    while let p = try next() {
      if p >= target { return p }
    }
    return nil
  }

  /// Passes over the skip table's entries that name a place before `target` and, when the
  /// last of them lies ahead of the places read, jumps to its block: every place before that
  /// block lies before `target`. The table is checked as it is read (entries increasing,
  /// inside the list, no more than the blocks), so a damaged one gives an error or places in
  /// increasing order, never a read out of bounds; `verify` checks it against the gaps.
  private mutating func skipAhead(to target: Int) throws(IndexFormatError) {
    guard var s = skips else { return }
    var r = reader
    r.offset = s.offset
    while r.offset < s.end {
      let at = r.offset
      let place = s.place + (try r.varint(below: placeCount))
      guard place < target else { break }
      let offset = s.byteOffset + (try r.varint(below: reader.buffer.count - gapsStart))
      guard place > s.place, place < placeCount, offset > s.byteOffset,
        gapsStart + offset < reader.buffer.count,
        Postings.skipBlock * (s.block + 1) < count, r.offset <= s.end
      else {
        throw reader.fault("skip table entry \(s.block + 1) out of order or range", at: at)
      }
      (s.place, s.byteOffset, s.block, s.offset) = (place, offset, s.block + 1, r.offset)
    }
    skips = s
    // Block 0, or a block reached before: nothing to jump.
    let first = Postings.skipBlock * s.block
    guard first > count - remaining else { return }
    guard s.place > last else {
      throw reader.fault("skip table entry \(s.block) lies before place \(last)", at: s.offset)
    }
    reader.offset = gapsStart + s.byteOffset
    last = s.place
    remaining = count - first
  }

  /// Reads the whole list and, when it has a skip table, checks that each entry names the
  /// place before its block and where the block's first gap starts, and that the table has
  /// one entry per block after the first.
  mutating func readChecked() throws(IndexFormatError) {
    guard let s = skips else {
      while try next() != nil {}
      return
    }
    var r = reader
    r.offset = s.offset
    var (place, offset, k) = (0, 0, 0)
    while let p = try next() {
      let read = count - remaining
      guard read % Postings.skipBlock == 0, remaining > 0 else { continue }
      let at = r.offset
      guard r.offset < s.end else {
        throw reader.fault("skip table ends before block \(k + 1)", at: at)
      }
      place += try r.varint(below: placeCount)
      offset += try r.varint(below: reader.buffer.count)
      k += 1
      guard place == p, offset == reader.offset - gapsStart, r.offset <= s.end else {
        throw reader.fault("skip table entry \(k) does not match block \(k)", at: at)
      }
    }
    guard r.offset == s.end else {
      throw reader.fault("skip table holds more than \(k) entries", at: r.offset)
    }
  }

  /// The next place of a gap-coded list.
  @inline(__always)
  private mutating func nextGap() throws(IndexFormatError) -> Int {
    let start = reader.offset
    let gap = try reader.varint()
    // Checked before adding, so that a hostile gap cannot overflow.
    guard gap < UInt64(placeCount - max(last, 0)) else {
      throw reader.fault("place index gap \(gap) out of range", at: start)
    }
    let value = last < 0 ? Int(gap) : last + Int(gap)
    guard value >= 0, value < placeCount, last < 0 || gap > 0 else {
      throw reader.fault("place index \(value) out of order or range", at: start)
    }
    last = value
    return value
  }

  @inline(__always)
  private mutating func nextBit() throws(IndexFormatError) -> Int {
    while byte == 0 {
      let at = reader.offset
      guard reader.remaining > 0 else {
        throw reader.fault("bitmap ends before its \(count) places", at: at)
      }
      byteBase = bitmapBase + 8 * (at - bitmapStart)
      byte = try reader.u8()
    }
    let value = byteBase + byte.trailingZeroBitCount
    byte &= byte - 1
    guard value < placeCount else {
      throw reader.fault("place index \(value) out of range", at: reader.offset - 1)
    }
    last = value
    return value
  }
}

/// How far a cursor has read its list's skip table: the entries before `offset` are read,
/// the last of them naming `place`, the last place before block `block`, whose first gap
/// starts `byteOffset` bytes after the list's first (all 0 before the first entry).
struct SkipState {
  /// Where the next entry starts.
  var offset: Int
  /// Where the table ends.
  let end: Int
  var place = 0
  var byteOffset = 0
  var block = 0

  init(at offset: Int, end: Int) {
    self.offset = offset
    self.end = end
  }
}

/// Writes a POSTINGS section.
package enum PostingsWriter {
  /// The section bytes; `lists[t]` holds the strictly increasing place indexes that carry
  /// token `t` in their primary name, only in an alternative name, and only in their context.
  package static func serialize(_ lists: [(names: [Int], alternative: [Int], context: [Int])])
    -> [UInt8]
  {
    serialize(count: lists.count) { lists[$0] }
  }

  /// The section bytes for `count` tokens, whose lists `lists` gives one token at a time.
  package static func serialize(
    count: Int, _ lists: (Int) -> (names: [Int], alternative: [Int], context: [Int])
  ) -> [UInt8] {
    var table = ItemTableWriter(framing: PostingsFraming.self)
    for token in 0..<count {
      let (names, alternative, context) = lists(token)
      table.append(item(names: names, alternative: alternative, context: context))
    }
    return table.bytes
  }

  /// One item: the name list, then the alternative-name and context lists when not empty.
  package static func item(names: [Int], alternative: [Int], context: [Int]) -> [UInt8] {
    var w = ByteWriter()
    let a = !alternative.isEmpty
    let c = !context.isEmpty
    // A list: its head (count, flags, encoding in the low bit), its byte length unless it
    // is a short gap list that ends the item, its places.
    func append(_ list: [Int], flags: Int, shift: Int, last: Bool) {
      let (bitmap, bytes) = places(list)
      w.varint(list.count << shift | flags | (bitmap ? 1 : 0))
      if Postings.hasLength(count: list.count, bitmap: bitmap, last: last) {
        w.varint(bytes.count)
      }
      w.append(bytes)
    }
    append(names, flags: (c ? 4 : 0) | (a ? 2 : 0), shift: 3, last: !a && !c)
    if a { append(alternative, flags: 0, shift: 1, last: !c) }
    if c { append(context, flags: 0, shift: 1, last: true) }
    return w.bytes
  }

  /// A list's places as gaps or as a bitmap, whichever is shorter, and whether a bitmap.
  static func places(_ list: [Int]) -> (bitmap: Bool, bytes: [UInt8]) {
    var gaps = ByteWriter()
    var skips = ByteWriter()
    var last = -1
    var (skipPlace, skipOffset) = (0, 0)
    let block = Postings.skipBlock
    for (i, p) in list.enumerated() {
      precondition(p > last, "postings must be strictly increasing")
      if list.count >= Postings.skipsFrom, i > 0, i % block == 0 {
        skips.varint(last - skipPlace)
        skips.varint(gaps.count - skipOffset)
        (skipPlace, skipOffset) = (last, gaps.count)
      }
      gaps.varint(last < 0 ? p : p - last)
      last = p
    }
    if list.count >= Postings.skipsFrom {
      var w = ByteWriter()
      w.varint(skips.count)
      w.append(skips.bytes)
      w.append(gaps.bytes)
      gaps = w
    }
    guard let first = list.first, let final = list.last else { return (false, gaps.bytes) }
    let bitmapBytes = (final - first) / 8 + 1
    guard bitmapBytes + 8 < gaps.count else { return (false, gaps.bytes) }
    var bits = [UInt8](repeating: 0, count: bitmapBytes)
    for p in list { bits[(p - first) / 8] |= 1 << ((p - first) % 8) }
    var w = ByteWriter()
    w.varint(first)
    w.append(bits)
    return (true, w.bytes)
  }
}
