// POSTINGS section layout: an item table (ItemTable.swift) with two items per token, in token
// order: item 2t lists the places that carry token t in a name, item 2t + 1 the places that
// carry it only in their context (address, admin areas). A query scans both, but knows for
// each place whether the word can score as a name before decoding its record. An item is a
// list of places (all varints):
//   (n << 1) | encoding        n = number of places; encoding 0 = gaps, 1 = bitmap
//   gaps:    n varints: the first place index, then the gap to each next one
//   bitmap:  the first place index f, then bytes whose bit i (low bit first) is set when place
//            f + 8·byte + bit carries the token; the first bit is place f
// The writer picks whichever is shorter (bitmaps win for dense lists such as a town's name).
// Place indexes are strictly increasing. Places are numbered by rank, most important first,
// so each list is in importance order and a query that has enough good results can stop
// reading it early.

/// Reads the places that carry each token.
public struct Postings: @unchecked Sendable {
  let items: ItemTable
  /// Number of lists (twice the token count).
  public var count: Int { items.count }
  /// Number of tokens: two lists each.
  public var tokenCount: Int { items.count / 2 }
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
    return try list(2 * token + (context ? 1 : 0))
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
      var names: PostingsCursor? = nil
      try items.walk((2 * first)..<(2 * last + 2)) { item, r in
        let cursor = try list(at: r)
        if item & 1 == 0 {
          names = cursor
        } else {
          try body(item >> 1, names!, cursor)
        }
      }
      i = end
    }
  }

  /// A cursor over list `item` of the item table.
  public func list(_ item: Int) throws -> PostingsCursor {
    guard item >= 0, item < count else {
      throw items.reader.fault("list \(item) does not exist", at: 0)
    }
    return try list(at: try items.item(item))
  }

  /// A cursor over the list whose bytes `r` reads.
  @inline(__always)
  private func list(at r: ByteReader) throws -> PostingsCursor {
    var r = r
    let head = try r.varint(below: 2 * placeCount + 2)
    let (n, encoding) = (head >> 1, head & 1)
    var cursor = PostingsCursor(reader: r, remaining: n, count: n, placeCount: placeCount)
    if encoding == 1, n > 0 {
      cursor.bitmapBase = try r.varint(below: placeCount)
      cursor.bitmapStart = r.offset
      cursor.reader = r
      cursor.isBitmap = true
    }
    return cursor
  }

  /// Number of places that carry `token`, in names and contexts.
  public func length(_ token: Int) throws -> Int {
    try list(token, context: false).count + list(token, context: true).count
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
      let chunk = r.lowerBound..<min(r.upperBound, r.lowerBound + 64)
      try items.walk((2 * chunk.lowerBound)..<(2 * chunk.upperBound)) { _, r in
        var r = r
        total += try r.varint(below: 2 * placeCount + 2) >> 1
      }
      r = chunk.upperBound..<r.upperBound
    }
    return total
  }

  /// Decodes every list, checking order and range.
  public func verify() throws {
    guard items.count % 2 == 0 else {
      throw items.reader.fault("\(items.count) lists: not two per token", at: 0)
    }
    try items.forEach { t, _ in
      var c = try list(t)
      while try c.next() != nil {}
      guard c.reader.remaining == 0, c.byte == 0 else {
        throw c.reader.fault("list \(t) holds more than its \(c.count) places")
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
  /// The section bytes; `lists[i]` holds the strictly increasing place indexes of item `i`
  /// (for an index: a token's name list, then its context list).
  public static func serialize(_ lists: [[Int]]) -> [UInt8] {
    var table = ItemTableWriter()
    for list in lists {
      var gaps = ByteWriter()
      gaps.varint(list.count << 1)
      var last = -1
      for p in list {
        precondition(p > last, "postings must be strictly increasing")
        gaps.varint(last < 0 ? p : p - last)
        last = p
      }
      guard let first = list.first, let final = list.last else {
        table.append(gaps.bytes)
        continue
      }
      let bitmapBytes = (final - first) / 8 + 1
      if bitmapBytes + 8 < gaps.count {
        var bits = [UInt8](repeating: 0, count: bitmapBytes)
        for p in list { bits[(p - first) / 8] |= 1 << ((p - first) % 8) }
        var w = ByteWriter()
        w.varint(list.count << 1 | 1)
        w.varint(first)
        w.append(bits)
        table.append(w.bytes)
      } else {
        table.append(gaps.bytes)
      }
    }
    return table.bytes
  }
}
