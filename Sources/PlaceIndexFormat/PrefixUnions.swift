// PREFIX UNIONS section layout (since 7.1): for each prefix that many tokens share, the
// union of those tokens' postings, so that a query typing the prefix reads one item instead
// of one per token (a one-letter prefix of a country's dictionary has tens of thousands).
//
//   u32 count N
//   N entries of 16 bytes, sorted by first token ascending, then by end descending (a
//   prefix before the longer prefixes inside its range):
//     u32 first    the range's first token
//     u32 end      one past its last token (end - first >= 2)
//     u32 sum      the range's postings summed over its tokens, each place once per token
//                  and part (UInt32.max when larger): what Postings.length(of:) would count
//     u32 offset   where the entry's item starts, from the start of the data area
//   data area: N items in POSTINGS' item encoding (Postings.swift), item i ending where item
//     i + 1 starts (the last at the section's end): the places whose primary name carries a
//     token of the range, those whose alternative names carry one, those whose context does.
//     Unlike a token's three lists, these may share places (a place with one of the tokens in
//     its name and another in its address is in both).
//
// The builder writes an entry for every byte prefix that ends on a character boundary and
// whose range holds at least PrefixUnionsWriter.minimumTokens tokens, once per distinct range
// (the shortest such prefix). A reader finds a range by exact (first, end); a range without
// an entry is read token by token, as from a 7.0 file, which has no such section.

/// Reads the PREFIX UNIONS section.
package struct PrefixUnions: @unchecked Sendable {
  let reader: ByteReader
  /// Number of entries.
  package let count: Int
  let dataStart: Int

  static let entrySize = 16

  /// Reads the header and checks that the entry table fits; `verify` checks the rest.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int) throws(IndexFormatError) {
    var r = ByteReader(bytes, section: "PREFIX UNIONS", fileOffset: fileOffset)
    let n = Int(try r.u32())
    guard n <= (r.remaining) / Self.entrySize else {
      throw r.fault("\(n) entries do not fit in \(bytes.count) bytes", at: 0)
    }
    reader = r
    count = n
    dataStart = 4 + n * Self.entrySize
  }

  /// An empty table, for a file without the section.
  package static let none = PrefixUnions()

  private init() {
    reader = ByteReader(UnsafeRawBufferPointer(start: nil, count: 0), section: "PREFIX UNIONS")
    count = 0
    dataStart = 0
  }

  /// Entry `i`'s fields.
  @inline(__always)
  func entry(_ i: Int) throws(IndexFormatError) -> (first: Int, end: Int, sum: Int, offset: Int) {
    let at = 4 + i * Self.entrySize
    return (
      Int(try reader.u32(at: at, index: 0)), Int(try reader.u32(at: at, index: 1)),
      Int(try reader.u32(at: at, index: 2)), Int(try reader.u32(at: at, index: 3))
    )
  }

  /// The entry of `range`, if it has one: binary search in (first ascending, end descending).
  @inline(__always)
  func find(_ range: Range<Int>) throws(IndexFormatError) -> Int? {
    guard range.count >= 2 else { return nil }
    return try TokenRangeTable.find(range, count: count) { (i) throws(IndexFormatError) in
      let e = try entry(i)
      return (e.first, e.end)
    }
  }

  /// The bytes of entry `i`'s item, as a reader limited to them; `offset` is the entry's.
  func item(_ i: Int, offset: Int) throws(IndexFormatError) -> ByteReader {
    let start = dataStart + offset
    let end = i + 1 < count ? dataStart + (try entry(i + 1)).offset : reader.buffer.count
    guard start <= end, end <= reader.buffer.count else {
      throw reader.fault("entry \(i)'s item [\(start), \(end)) lies outside the section", at: 4)
    }
    var r = reader.limited(to: end)
    r.offset = start
    return r
  }
}

extension Postings {
  /// The union of the lists of the tokens of `range`, by part, and their summed length
  /// (``length(of:cap:)`` without the cap), when PREFIX UNIONS holds the range.
  @inline(__always)
  package func union(of range: Range<Int>) throws(IndexFormatError) -> (
    lists: PostingsLists, sum: Int
  )? {
    guard let i = try unions.find(range) else { return nil }
    let e = try unions.entry(i)
    return (try lists(at: try unions.item(i, offset: e.offset)), e.sum)
  }

  /// Checks PREFIX UNIONS against POSTINGS: entries in order, inside the dictionary, their
  /// items decodable, each list exactly the union of its range's lists of that part and each
  /// sum the range's postings.
  package func verifyUnions() throws(IndexFormatError) {
    var previous: (first: Int, end: Int, offset: Int)? = nil
    for i in 0..<unions.count {
      let e = try unions.entry(i)
      let at = 4 + i * PrefixUnions.entrySize
      func fault(_ f: IndexFault, at offset: Int) -> IndexFormatError {
        .fault(
          path: "", section: "PREFIX UNIONS", offset: unions.reader.fileOffset + offset, f)
      }
      let ordered = previous.map { $0.first < e.first || ($0.first == e.first && $0.end > e.end) }
      guard e.end - e.first >= 2, e.end <= tokenCount, ordered ?? true else {
        throw fault(.prefixUnionOutOfOrder(entry: i, first: e.first, end: e.end), at: at)
      }
      if let p = previous, e.offset <= p.offset {
        throw unions.reader.fault("entry \(i)'s item starts before the one before it", at: at)
      }
      previous = (e.first, e.end, e.offset)
      let union = try lists(at: try unions.item(i, offset: e.offset))
      var expected: [[Int]] = [[], [], []]
      var sum = 0
      try forEachList(of: e.first..<e.end) { (_, lists) throws(IndexFormatError) in
        for part in PostingsPart.allCases {
          var c = lists[part]
          sum += c.count
          while let p = try c.next() { expected[part.rawValue].append(p) }
        }
      }
      sum = min(sum, Int(UInt32.max))
      guard sum == e.sum else {
        throw fault(.prefixUnionMismatch(entry: i, part: "sum", stored: e.sum, union: sum), at: at)
      }
      for part in PostingsPart.allCases {
        var want = expected[part.rawValue].sorted()
        want.removeDuplicatesOfSorted()
        var c = union[part]
        var got: [Int] = []
        while let p = try c.next() { got.append(p) }
        guard c.reader.remaining == 0, c.byte == 0 else {
          throw c.reader.fault("entry \(i)'s \(part) list holds more than its \(c.count) places")
        }
        guard got == want else {
          throw fault(
            .prefixUnionMismatch(entry: i, part: "\(part)", stored: got.count, union: want.count),
            at: unions.dataStart + e.offset)
        }
      }
    }
  }
}

extension Array where Element: Equatable {
  /// Keeps the first of each run of equal elements (all duplicates, when sorted).
  mutating func removeDuplicatesOfSorted() {
    var kept = 0
    for i in indices where kept == 0 || self[i] != self[kept - 1] {
      self[kept] = self[i]
      kept += 1
    }
    removeLast(count - kept)
  }
}

/// Writes a PREFIX UNIONS section.
package enum PrefixUnionsWriter {
  /// A prefix's range gets an entry from this many tokens on: a range of fewer is read token
  /// by token at little cost.
  package static let minimumTokens = 512

  /// The ranges to hold for `tokens` (sorted by their UTF-8 bytes): for every prefix length,
  /// each run of tokens sharing that many first bytes, ending on a character boundary, of at
  /// least `minimum` tokens; each distinct range once, in the section's order.
  package static func ranges(_ tokens: [String], minimum: Int = minimumTokens) -> [Range<Int>] {
    let bytes = tokens.map { Array($0.utf8) }
    var found = Set<Range<Int>>()
    var length = 1
    while true {
      var any = false
      var i = 0
      while i < bytes.count {
        guard bytes[i].count >= length else {
          i += 1
          continue
        }
        var end = i + 1
        while end < bytes.count, bytes[end].count >= length,
          bytes[end][..<length] == bytes[i][..<length]
        {
          end += 1
        }
        // A prefix that ends inside a character is never typed: the next byte of every token
        // longer than the prefix is a continuation byte.
        let inside = bytes[i].count > length && bytes[i][length] & 0xC0 == 0x80
        if end - i >= minimum {
          any = true
          if !inside { found.insert(i..<end) }
        }
        i = end
      }
      if !any { break }
      length += 1
    }
    return found.sorted {
      $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound
    }
  }

  /// The section bytes: for each range, the union of its tokens' lists by part (`lists(t)`
  /// gives token `t`'s name, alternative-name and context lists, each ascending).
  package static func serialize(
    _ ranges: [Range<Int>],
    lists: (Int) -> (
      names: ArraySlice<UInt32>, alternative: ArraySlice<UInt32>,
      context: ArraySlice<UInt32>
    )
  ) -> [UInt8] {
    var table = ByteWriter()
    var data = ByteWriter()
    table.u32(UInt32(ranges.count))
    for range in ranges {
      var parts: [[UInt32]] = [[], [], []]
      var sum = 0
      for t in range {
        let l = lists(t)
        parts[0].append(contentsOf: l.names)
        parts[1].append(contentsOf: l.alternative)
        parts[2].append(contentsOf: l.context)
        sum += l.names.count + l.alternative.count + l.context.count
      }
      let union = parts.map { (part) -> [Int] in
        var places = part.sorted().map { Int($0) }
        places.removeDuplicatesOfSorted()
        return places
      }
      table.u32(UInt32(range.lowerBound))
      table.u32(UInt32(range.upperBound))
      table.u32(UInt32(min(sum, Int(UInt32.max))))
      table.u32(UInt32(data.count))
      data.append(PostingsWriter.item(names: union[0], alternative: union[1], context: union[2]))
    }
    table.append(data.bytes)
    return table.bytes
  }
}

/// A table of entries that start with a token range (first, end), sorted by first token
/// ascending, then by end descending (PREFIX UNIONS, NEAR LISTS).
enum TokenRangeTable {
  /// The first of `count` entries (read by `entry`) that is not before `range`.
  @inline(__always)
  static func lowerBound(
    _ range: Range<Int>, count: Int,
    entry: (Int) throws(IndexFormatError) -> (first: Int, end: Int)
  ) throws(IndexFormatError) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let mid = (low + high) / 2
      let e = try entry(mid)
      if e.first < range.lowerBound || (e.first == range.lowerBound && e.end > range.upperBound) {
        low = mid + 1
      } else {
        high = mid
      }
    }
    return low
  }

  /// The entry of exactly `range`, if there is one.
  @inline(__always)
  static func find(
    _ range: Range<Int>, count: Int,
    entry: (Int) throws(IndexFormatError) -> (first: Int, end: Int)
  ) throws(IndexFormatError) -> Int? {
    guard count > 0, !range.isEmpty else { return nil }
    let i = try lowerBound(range, count: count, entry: entry)
    guard i < count else { return nil }
    let e = try entry(i)
    return e.first == range.lowerBound && e.end == range.upperBound ? i : nil
  }
}
