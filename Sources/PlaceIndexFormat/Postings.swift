// POSTINGS section layout: an item table (ItemTable.swift) with one item per token, in token
// order: the places that carry the token in a name, then, when there are any, the places that
// carry it only in their context (address, admin areas). A query scans both, but knows for
// each place whether the word can score as a name before decoding its record. An item (all
// varints):
//   (n << 2) | (c << 1) | encoding   the name list: n places; c = 1: a context list follows;
//                                    encoding 0 = gaps, 1 = bitmap
//   [byte length of the name list's places]   when c = 1
//   the name list's places
//   [(m << 1) | encoding, then the context list's m places, to the item's end]   when c = 1
// A list's places:
//   gaps:    the first place index, then the gap to each next one
//   bitmap:  the first place index f, then bytes whose bit i (low bit first) is set when place
//            f + 8·byte + bit carries the token; the first bit is place f
// The writer picks whichever is shorter (bitmaps win for dense lists such as a town's name).
// Place indexes are strictly increasing. Places are numbered by rank, most important first,
// so each list is in importance order and a query that has enough good results can stop
// reading it early.

/// Reads the places that carry each token.
public struct Postings: @unchecked Sendable {
  let items: ItemTable
  /// Number of tokens: one item each.
  public var tokenCount: Int { items.count }
  let placeCount: Int

  /// Reads the section header; `placeCount` bounds every place index.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int) throws {
    items = try ItemTable(ByteReader(bytes, section: "POSTINGS", fileOffset: fileOffset))
    self.placeCount = placeCount
  }

  /// A cursor over the places that carry `token` in a name (`context` false) or only in their
  /// context (`context` true).
  public func list(_ token: Int, context: Bool) throws -> PostingsCursor {
    guard token >= 0, token < tokenCount else {
      throw items.reader.fault("token \(token) has no list", at: 0)
    }
    let (names, contextOnly) = try lists(at: try items.item(token))
    return context ? contextOnly : names
  }

  /// Calls `body` with each token of `tokens` and its name and context cursors, in order.
  /// Runs of consecutive tokens (a prefix's range) are read sequentially.
  public func forEachList(
    of tokens: [Int],
    _ body: (_ token: Int, _ names: PostingsCursor, _ context: PostingsCursor) throws -> Void
  ) throws {
    var i = 0
    while i < tokens.count {
      var end = i + 1
      while end < tokens.count, tokens[end] == tokens[end - 1] + 1 { end += 1 }
      let (first, last) = (tokens[i], tokens[end - 1])
      guard first >= 0, last < tokenCount else {
        throw items.reader.fault("token \(first < 0 ? first : last) has no list", at: 0)
      }
      try items.walk(first..<(last + 1)) { token, r in
        let (names, context) = try lists(at: r)
        try body(token, names, context)
      }
      i = end
    }
  }

  /// The name and context cursors of the item that `r` reads.
  @inline(__always)
  private func lists(at r: ByteReader) throws -> (names: PostingsCursor, context: PostingsCursor) {
    var r = r
    let head = try r.varint(below: 4 * placeCount + 4)
    let n = head >> 2
    guard head & 2 != 0 else {
      let names = try cursor(r, end: r.buffer.count, count: n, bitmap: head & 1 == 1)
      var none = r
      none.offset = r.buffer.count
      return (names, PostingsCursor(reader: none, remaining: 0, count: 0, placeCount: placeCount))
    }
    let length = try r.varint(below: r.remaining + 1)
    let namesEnd = r.offset + length
    let names = try cursor(r, end: namesEnd, count: n, bitmap: head & 1 == 1)
    r.offset = namesEnd
    let contextHead = try r.varint(below: 2 * placeCount + 2)
    let context = try cursor(
      r, end: r.buffer.count, count: contextHead >> 1, bitmap: contextHead & 1 == 1)
    return (names, context)
  }

  /// A cursor over `count` places written from `r`'s offset up to `end`.
  @inline(__always)
  private func cursor(_ r: ByteReader, end: Int, count n: Int, bitmap: Bool) throws
    -> PostingsCursor
  {
    var r = r.limited(to: end)
    var cursor = PostingsCursor(reader: r, remaining: n, count: n, placeCount: placeCount)
    if bitmap, n > 0 {
      cursor.bitmapBase = try r.varint(below: placeCount)
      cursor.bitmapStart = r.offset
      cursor.reader = r
      cursor.isBitmap = true
    }
    return cursor
  }

  /// Number of places that carry `token`, in names and contexts.
  public func length(_ token: Int) throws -> Int {
    try length(of: token..<(token + 1))
  }

  /// Number of places that carry the tokens of `range`, in names and contexts, summed (each
  /// place once per token); stops adding once the sum passes `cap`.
  public func length(of range: Range<Int>, cap: Int = .max) throws -> Int {
    guard range.lowerBound >= 0, range.upperBound <= tokenCount else {
      throw items.reader.fault("tokens \(range) have no lists", at: 0)
    }
    var total = 0
    var r = range
    // In chunks, so that a cap reached early stops the walk.
    while !r.isEmpty, total <= cap {
      let chunk = r.lowerBound..<min(r.upperBound, r.lowerBound + 32)
      try items.walk(chunk) { _, r in
        var r = r
        let head = try r.varint(below: 4 * placeCount + 4)
        total += head >> 2
        if head & 2 != 0 {
          let length = try r.varint(below: r.remaining + 1)
          r.offset += length
          total += try r.varint(below: 2 * placeCount + 2) >> 1
        }
      }
      r = chunk.upperBound..<r.upperBound
    }
    return total
  }

  /// Decodes every list, checking order and range.
  public func verify() throws {
    try items.forEach { t, r in
      let (names, context) = try lists(at: r)
      for (list, what) in [(names, "name"), (context, "context")] {
        var c = list
        while try c.next() != nil {}
        guard c.reader.remaining == 0, c.byte == 0 else {
          throw c.reader.fault("token \(t)'s \(what) list holds more than its \(c.count) places")
        }
      }
    }
  }
}

/// Iterates one postings list in place-index order.
public struct PostingsCursor {
  var reader: ByteReader
  var remaining: Int
  /// Number of entries in the list.
  public let count: Int
  let placeCount: Int
  var last = -1
  var isBitmap = false
  var bitmapBase = 0
  var bitmapStart = 0
  var byte: UInt8 = 0
  var byteBase = 0

  init(reader: ByteReader, remaining: Int, count: Int, placeCount: Int) {
    self.reader = reader
    self.remaining = remaining
    self.count = count
    self.placeCount = placeCount
  }

  /// The next place index, or nil at the end.
  @inline(__always)
  public mutating func next() throws -> Int? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    if isBitmap { return try nextBit() }
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

  private mutating func nextBit() throws -> Int {
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

/// Writes a POSTINGS section.
public enum PostingsWriter {
  /// The section bytes; `lists[t]` holds the strictly increasing place indexes that carry
  /// token `t` in a name and those that carry it only in their context.
  public static func serialize(_ lists: [(names: [Int], context: [Int])]) -> [UInt8] {
    var table = ItemTableWriter()
    for (names, context) in lists {
      let (namesBitmap, namesBytes) = places(names)
      var w = ByteWriter()
      let n = names.count << 2 | (namesBitmap ? 1 : 0)
      if context.isEmpty {
        w.varint(n)
        w.append(namesBytes)
      } else {
        w.varint(n | 2)
        w.varint(namesBytes.count)
        w.append(namesBytes)
        let (contextBitmap, contextBytes) = places(context)
        w.varint(context.count << 1 | (contextBitmap ? 1 : 0))
        w.append(contextBytes)
      }
      table.append(w.bytes)
    }
    return table.bytes
  }

  /// A list's places as gaps or as a bitmap, whichever is shorter, and whether a bitmap.
  static func places(_ list: [Int]) -> (bitmap: Bool, bytes: [UInt8]) {
    var gaps = ByteWriter()
    var last = -1
    for p in list {
      precondition(p > last, "postings must be strictly increasing")
      gaps.varint(last < 0 ? p : p - last)
      last = p
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
