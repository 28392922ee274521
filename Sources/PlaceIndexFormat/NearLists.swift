// NEAR LISTS section layout (since 7.2): for each token whose postings hold many places, for
// each range of PREFIX UNIONS, and for each prefix range of the tokens that start with a digit
// whose tokens hold many places in all (NearListsWriter.numberRanges: a housenumber being
// typed), the places that carry it (in any part) as their positions in GEO's order, so that a
// search with an origin reads a word's places around the focus (a few GEO key ranges) without
// reading every place there or every place of the word.
//   u32 count N
//   N entries of 16 bytes, sorted by first token ascending, then by end descending:
//     u32 first    the list's first token
//     u32 end      one past its last token: first + 1 for a token, a prefix's range else
//     u32 places   how many places the list holds
//     u32 offset   where the list starts, from the start of the data area
//   data area: N Elias–Fano sequences (EliasFano.swift) of GEO positions (entry indexes of
//     the GEO section, below the place count), sequence i ending where i + 1 starts (the
//     last at the section's end)
// A range without an entry (a token of fewer places, a range not listed above) is
// read from its postings, as from a 7.1 file, which has no such section.

/// The places of the tokens (and prefix ranges) that many places carry, in GEO order.
package struct NearLists: @unchecked Sendable {
  // @unchecked: the reader points into the file's bytes, which never change while mapped.
  let reader: ByteReader
  /// Number of lists.
  package let count: Int
  let dataStart: Int
  /// The place count: every position lies below it.
  let placeCount: Int

  static let entrySize = 16

  /// Reads the header and checks that the entry table fits; `verify` checks the rest.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "NEAR LISTS", fileOffset: fileOffset)
    let n = Int(try r.u32())
    guard n <= r.remaining / Self.entrySize else {
      throw r.fault("\(n) entries do not fit in \(bytes.count) bytes", at: 0)
    }
    reader = r
    count = n
    dataStart = 4 + n * Self.entrySize
    self.placeCount = placeCount
  }

  /// No lists, for a file without the section.
  package static let none = NearLists()

  private init() {
    reader = ByteReader(UnsafeRawBufferPointer(start: nil, count: 0), section: "NEAR LISTS")
    count = 0
    dataStart = 0
    placeCount = 0
  }

  /// Entry `i`'s fields.
  @inline(__always)
  package func entry(_ i: Int) throws(IndexFormatError) -> (
    first: Int, end: Int, places: Int, offset: Int
  ) {
    let at = 4 + i * Self.entrySize
    return (
      Int(try reader.u32(at: at, index: 0)), Int(try reader.u32(at: at, index: 1)),
      Int(try reader.u32(at: at, index: 2)), Int(try reader.u32(at: at, index: 3))
    )
  }

  /// The (first, end) of entry `i`.
  @inline(__always)
  private func range(_ i: Int) throws(IndexFormatError) -> (first: Int, end: Int) {
    let e = try entry(i)
    return (e.first, e.end)
  }

  /// The entry of exactly `range` (a token is `t..<t + 1`), if it has one.
  package func find(_ range: Range<Int>) throws(IndexFormatError) -> Int? {
    try TokenRangeTable.find(range, count: count, entry: self.range)
  }

  /// The entries of single tokens inside `range`, with their tokens, in token order.
  package func tokenEntries(in range: Range<Int>) throws(IndexFormatError) -> [(
    token: Int, entry: Int
  )] {
    guard count > 0, !range.isEmpty else { return [] }
    var out: [(token: Int, entry: Int)] = []
    var i = try TokenRangeTable.lowerBound(
      range.lowerBound..<Int(UInt32.max), count: count, entry: self.range)
    while i < count {
      let e = try entry(i)
      guard e.first < range.upperBound else { break }
      if e.end == e.first + 1 { out.append((e.first, i)) }
      i += 1
    }
    return out
  }

  /// Entry `i`'s sequence of GEO positions.
  package func list(_ i: Int) throws(IndexFormatError) -> EliasFano {
    let e = try entry(i)
    let start = dataStart + e.offset
    let end = i + 1 < count ? dataStart + (try entry(i + 1)).offset : reader.buffer.count
    guard start <= end, end <= reader.buffer.count else {
      throw reader.fault("entry \(i)'s list [\(start), \(end)) lies outside the section", at: 4)
    }
    let list = try EliasFano(reader, at: start, limit: end)
    guard list.count == e.places else {
      throw reader.fault(
        "entry \(i) says \(e.places) places, its list holds \(list.count)", at: 4 + 16 * i)
    }
    return list
  }

  /// Checks every entry against `expected` (the GEO positions of the places that carry a
  /// token of the range, ascending and each once): entries in order, inside the dictionary of
  /// `tokenCount` tokens, each sequence well formed and holding exactly those positions.
  package func verify(tokenCount: Int, expected: (Range<Int>) throws(IndexFormatError) -> [Int])
    throws(IndexFormatError)
  {
    var previous: (first: Int, end: Int, offset: Int)? = nil
    for i in 0..<count {
      let e = try entry(i)
      let at = 4 + i * Self.entrySize
      func fault(_ f: IndexFault) -> IndexFormatError {
        .fault(path: "", section: "NEAR LISTS", offset: reader.fileOffset + at, f)
      }
      let ordered = previous.map { $0.first < e.first || ($0.first == e.first && $0.end > e.end) }
      guard e.first < e.end, e.end <= tokenCount, ordered ?? true else {
        throw fault(.nearListOutOfOrder(entry: i, first: e.first, end: e.end))
      }
      if let p = previous, e.offset <= p.offset {
        throw reader.fault("entry \(i)'s list starts before the one before it", at: at)
      }
      previous = (e.first, e.end, e.offset)
      let list = try list(i)
      try list.verify(universe: placeCount)
      let want = try expected(e.first..<e.end)
      var c = try list.cursor(from: 0)
      var k = 0
      while let p = try c.next() {
        guard k < want.count, p == want[k] else {
          throw fault(
            .nearListMismatch(entry: i, position: p, expected: k < want.count ? want[k] : nil))
        }
        k += 1
      }
      guard k == want.count else {
        throw fault(.nearListMismatch(entry: i, position: nil, expected: want[k]))
      }
    }
  }
}

/// Writes a NEAR LISTS section.
package enum NearListsWriter {
  /// A token gets a list when its postings (all parts) hold at least this many places: fewer
  /// are read whole from the postings at less cost than a list's header and seeks.
  package static let minimumPlaces = 1024

  /// The prefix ranges of the tokens that start with a digit (housenumbers, postcodes) whose
  /// tokens' lists hold at least ``minimumPlaces`` entries in all (`entries`), but those in
  /// `without` (unions' ranges, listed already): a housenumber being typed ("15" of "A 15",
  /// the start of 15, 150, 15a…) is read around the focus like a heavy token, where its
  /// tokens of few places each would be read whole from their postings, all of them.
  package static func numberRanges(
    _ tokens: [String], without: Set<Range<Int>>, entries: (Range<Int>) -> Int
  ) -> [Range<Int>] {
    // Tokens are sorted bytewise: those that start with a digit are one run.
    func digit(_ t: String) -> Bool { t.utf8.first.map { $0 &- 0x30 < 10 } ?? false }
    guard let first = tokens.firstIndex(where: digit), let last = tokens.lastIndex(where: digit)
    else { return [] }
    return PrefixUnionsWriter.ranges(Array(tokens[first...last]), minimum: 2).map {
      ($0.lowerBound + first)..<($0.upperBound + first)
    }.filter { !without.contains($0) && entries($0) >= minimumPlaces }
  }

  /// The section for `ranges` (tokens as `t..<t + 1` and unions' ranges, in any order);
  /// `positions` gives each range's GEO positions, ascending and each once, below
  /// `placeCount`. The lists are written into the section's one buffer as they come.
  package static func serialize<Positions: RandomAccessCollection>(
    _ ranges: [Range<Int>], placeCount: Int, positions: (Range<Int>) -> Positions
  ) -> [UInt8] where Positions.Element: BinaryInteger {
    let sorted = ranges.sorted {
      $0.lowerBound < $1.lowerBound
        || ($0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound)
    }
    var w = ByteWriter()
    w.u32(UInt32(sorted.count))
    // The entry table, filled in as each list is written after it.
    w.append([UInt8](repeating: 0, count: NearLists.entrySize * sorted.count))
    let dataStart = w.count
    for (i, r) in sorted.enumerated() {
      let list = positions(r)
      w.set(
        u32s: [
          UInt32(r.lowerBound), UInt32(r.upperBound), UInt32(list.count),
          UInt32(w.count - dataStart),
        ],
        at: 4 + NearLists.entrySize * i)
      EliasFanoWriter.encode(list, universe: placeCount, into: &w)
    }
    return w.bytes
  }
}
