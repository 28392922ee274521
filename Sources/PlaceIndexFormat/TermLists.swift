// TERMS section layout (since 7.0): each place's tokens, by rank: the inverse of POSTINGS, so
// that a query checks its words against the places it reads instead of reading every word's
// postings whole (a short word's postings grow with the index; a place's tokens do not).
//   u32 byte length L of the shared-list table
//   shared lists: a record table (RecordTable.swift) of the token lists that places share,
//     the most used first (small ids); a record:
//       varint n, then n token ids ascending: the first, then each one's gap to the one before
//   places (at 4 + L): a record table with one record per place, by rank:
//       varint (ownCount << 4) | (rest << 2) | (s << 1) | a
//                                        s = 1: the name holds a shared list; a = 1: an
//                                        alternative-name list follows; rest: 0 = the context
//                                        is its common list alone, 1 = its other tokens follow
//                                        in the record, 2 = they are a shared list
//       [varint shared list id]          when s = 1: the name's shared tokens
//       [varint altCount]                when a = 1
//       [varint restCount]               when rest = 1
//       the name's own token ids         ascending, as gaps (first, then gap to the previous)
//       the alternative names' token ids ascending, as gaps
//       [the context's other token ids]  when rest = 1, ascending, as gaps
//       varint context list id           a shared list: the context's common tokens
//       [varint rest list id]            when rest = 2: a shared list, the context's others
// The writer shares a name's tokens that do not start with a digit when another place's name
// has the same ones (the addresses of one street: their numbers are their own), and splits a
// context into the tokens that at least ``TermListsWriter/commonFrom`` places' contexts hold
// (admin areas, postcodes, frequent category words: shared by a whole area) and the others
// (a street line, a rare category), shared when another place has the same. A place's three
// lists are those of POSTINGS: disjoint, and a token lies in the list of a part exactly when
// the place lies in that token's list of the part.

/// A place's tokens, by part: the primary name's, then the alternative names' only, then the
/// context's only.
package struct PlaceTerms: Sendable {
  /// The token ids: name ..< ``nameEnd``, alternative ..< ``alternativeEnd``, then context.
  package var tokens: [Int32] = []
  /// Where the alternative names' tokens start.
  package var nameEnd = 0
  /// Where the context's tokens start.
  package var alternativeEnd = 0

  /// Empty terms, to be filled by ``TermLists/terms(of:into:)``.
  package init() {}

  /// The part of the token at `i`.
  @inline(__always)
  package func part(at i: Int) -> PostingsPart {
    i < nameEnd ? .name : i < alternativeEnd ? .alternative : .context
  }
}

/// A place's tokens as its record holds them: its own tokens by part, and the shared lists it
/// holds by id, not copied (``TermLists/refs(of:into:)``): a search checks a word against a
/// shared list once per list, not once per place that holds it.
package struct PlaceTermRefs: Sendable {
  /// The record's own token ids: name ..< ``nameEnd``, alternative ..< ``alternativeEnd``,
  /// then the context's.
  package var own: [Int32] = []
  /// Where the own alternative names' tokens start.
  package var nameEnd = 0
  /// Where the own context tokens start.
  package var alternativeEnd = 0
  /// The shared list in the name, or -1.
  package var sharedName = -1
  /// The shared list of the context's common tokens.
  package var commonContext = 0
  /// The shared list of the context's other tokens, or -1.
  package var sharedRest = -1

  /// Empty refs, to be filled by ``TermLists/refs(of:into:)``.
  package init() {}

  /// The name token at `position` in the order TERMS lists them (the shared name list's, then
  /// the own ones), with the shared lists in `shared`; nil past them.
  @inline(__always)
  package func nameToken(at position: Int, shared: SharedTermLists) -> Int? {
    var p = position
    if sharedName >= 0 && sharedName + 1 < shared.starts.count {
      let (start, end) = (Int(shared.starts[sharedName]), Int(shared.starts[sharedName + 1]))
      if p < end - start { return Int(shared.tokens[start + p]) }
      p -= end - start
    }
    return p < nameEnd ? Int(own[p]) : nil
  }

  /// The part of the own token at `i`.
  @inline(__always)
  package func part(at i: Int) -> PostingsPart {
    i < nameEnd ? .name : i < alternativeEnd ? .alternative : .context
  }
}

/// The shared lists of TERMS decoded once: list i is `tokens[starts[i] ..< starts[i + 1]]`.
package struct SharedTermLists: Sendable {
  package var starts: [Int32] = [0]
  package var tokens: [Int32] = []
}

/// Reads each place's tokens by rank.
package struct TermLists: @unchecked Sendable {
  let shared: RecordTable
  let places: RecordTable
  let tokenCount: Int

  /// Reads the section header and the two tables' headers (O(1)); the counts bound every id.
  package init(
    _ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int, tokenCount: Int
  ) throws(IndexFormatError) {
    var r = ByteReader(bytes, section: "TERMS", fileOffset: fileOffset)
    let length = Int(try r.u32())
    guard length <= bytes.count - 4 else {
      throw r.fault("shared-list table length \(length) does not fit", at: 0)
    }
    shared = try RecordTable(
      ByteReader(
        UnsafeRawBufferPointer(rebasing: bytes[4..<(4 + length)]), section: "TERMS",
        fileOffset: fileOffset + 4))
    places = try RecordTable(
      ByteReader(
        UnsafeRawBufferPointer(rebasing: bytes[(4 + length)...]), section: "TERMS",
        fileOffset: fileOffset + 4 + length))
    guard places.count == placeCount else {
      throw r.fault("\(places.count) places' terms for \(placeCount) places", at: 4 + length)
    }
    self.tokenCount = tokenCount
  }

  /// Number of shared lists.
  package var sharedListCount: Int { shared.count }

  /// Place `rank`'s tokens, into `terms` (its array reused); the shared lists from `decoded`
  /// when given (``decodeShared()``), else from the section.
  @inline(__always)
  package func terms(
    of rank: Int, into terms: inout PlaceTerms, shared decoded: SharedTermLists? = nil
  ) throws(IndexFormatError) {
    var refs = PlaceTermRefs()
    try self.refs(of: rank, into: &refs)
    try expand(refs, into: &terms, decoded: decoded)
  }

  /// Place `rank`'s own tokens and the ids of its shared lists, into `refs` (its array
  /// reused).
  @inline(__always)
  package func refs(of rank: Int, into refs: inout PlaceTermRefs) throws(IndexFormatError) {
    var (r, before) = try places.blockStart(rank)
    for _ in 0..<before { try skipPlace(&r) }
    try readPlace(&r, into: &refs)
  }

  /// The tokens `refs` stands for, by part, into `terms`: in the name a shared list before
  /// the own tokens, in the context the own tokens, the common list, the shared rest.
  @inline(__always)
  private func expand(
    _ refs: PlaceTermRefs, into terms: inout PlaceTerms, decoded: SharedTermLists?
  )
    throws(IndexFormatError)
  {
    terms.tokens.removeAll(keepingCapacity: true)
    if refs.sharedName >= 0 {
      try readShared(refs.sharedName, into: &terms.tokens, decoded: decoded)
    }
    terms.tokens.append(contentsOf: refs.own[..<refs.nameEnd])
    terms.nameEnd = terms.tokens.count
    terms.tokens.append(contentsOf: refs.own[refs.nameEnd..<refs.alternativeEnd])
    terms.alternativeEnd = terms.tokens.count
    terms.tokens.append(contentsOf: refs.own[refs.alternativeEnd...])
    try readShared(refs.commonContext, into: &terms.tokens, decoded: decoded)
    if refs.sharedRest >= 0 {
      try readShared(refs.sharedRest, into: &terms.tokens, decoded: decoded)
    }
  }

  /// Every shared list decoded into one array, for ``terms(of:into:shared:)`` to copy from
  /// instead of walking the lists before it in its block.
  package func decodeShared() throws(IndexFormatError) -> SharedTermLists {
    var lists = SharedTermLists()
    lists.starts.reserveCapacity(shared.count + 1)
    try shared.forEach { (_, r) throws(IndexFormatError) in
      try readList(&r, count: try r.varint(below: tokenCount + 1), into: &lists.tokens)
      lists.starts.append(Int32(lists.tokens.count))
    }
    return lists
  }

  /// Reads the place record `r` is at into `refs`, moving `r` past it.
  @inline(__always)
  private func readPlace(_ r: inout ByteReader, into refs: inout PlaceTermRefs)
    throws(IndexFormatError)
  {
    refs.own.removeAll(keepingCapacity: true)
    let head = try r.varint(below: 16 * tokenCount + 16)
    let rest = (head >> 2) & 3
    guard rest < 3 else { throw r.fault("context rest kind 3 (0, 1 or 2)", at: r.offset - 1) }
    refs.sharedName = head & 2 != 0 ? try r.varint(below: shared.count) : -1
    let altCount = head & 1 != 0 ? try r.varint(below: tokenCount + 1) : 0
    let restCount = rest == 1 ? try r.varint(below: tokenCount + 1) : 0
    try readList(&r, count: head >> 4, into: &refs.own)
    refs.nameEnd = refs.own.count
    try readList(&r, count: altCount, into: &refs.own)
    refs.alternativeEnd = refs.own.count
    try readList(&r, count: restCount, into: &refs.own)
    refs.commonContext = try r.varint(below: shared.count)
    refs.sharedRest = rest == 2 ? try r.varint(below: shared.count) : -1
  }

  /// Appends shared list `id`'s tokens to `out`.
  @inline(__always)
  private func readShared(_ id: Int, into out: inout [Int32], decoded: SharedTermLists?)
    throws(IndexFormatError)
  {
    if let decoded, id + 1 < decoded.starts.count {
      out.append(contentsOf: decoded.tokens[Int(decoded.starts[id])..<Int(decoded.starts[id + 1])])
      return
    }
    var (c, skip) = try shared.blockStart(id)
    for _ in 0..<skip { try Self.skipList(&c) }
    try readList(&c, count: try c.varint(below: tokenCount + 1), into: &out)
  }

  /// Reads `count` ascending token ids written as gaps, appending them to `out`.
  @inline(__always)
  private func readList(_ r: inout ByteReader, count: Int, into out: inout [Int32])
    throws(IndexFormatError)
  {
    var token = 0
    for i in 0..<count {
      let at = r.offset
      let v = try r.varint(below: tokenCount)
      token = i == 0 ? v : token + v
      guard token < tokenCount, i == 0 || v > 0 else {
        throw r.fault("token \(token) out of order or out of range (\(tokenCount) tokens)", at: at)
      }
      out.append(Int32(token))
    }
  }

  /// Moves `r` past the place record it is at.
  @inline(__always)
  private func skipPlace(_ r: inout ByteReader) throws(IndexFormatError) {
    let head = try r.varint()
    let rest = (head >> 2) & 3
    if head & 2 != 0 { try r.skipVarint() }
    let altCount = head & 1 != 0 ? try r.varint() : 0
    let restCount = rest == 1 ? try r.varint() : 0
    // The own, alternative and rest ids, the context list id and a shared rest's id.
    let (a, o1) = (head >> 4).addingReportingOverflow(altCount)
    let (n, o2) = a.addingReportingOverflow(restCount + (rest == 2 ? 2 : 1))
    guard !o1, !o2, n <= UInt64(r.remaining) else {
      throw r.fault("place terms run past the end")
    }
    for _ in 0..<Int(n) { try r.skipVarint() }
  }

  /// Moves `r` past the shared list it is at.
  @inline(__always)
  private static func skipList(_ r: inout ByteReader) throws(IndexFormatError) {
    let count = try r.varint()
    guard count <= UInt64(r.remaining) else { throw r.fault("shared list runs past the end") }
    for _ in 0..<Int(count) { try r.skipVarint() }
  }

  /// Reads every shared list and place record in order (each must end where the next
  /// begins), and calls `body` with each place's terms: the caller checks them against
  /// POSTINGS.
  package func verify(_ body: (_ rank: Int, _ terms: PlaceTerms) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    var scratch: [Int32] = []
    try shared.forEach { (_, r) throws(IndexFormatError) in
      scratch.removeAll(keepingCapacity: true)
      try readList(&r, count: try r.varint(below: tokenCount + 1), into: &scratch)
    }
    var refs = PlaceTermRefs()
    var terms = PlaceTerms()
    try places.forEach { (rank, r) throws(IndexFormatError) in
      let at = r.offset
      try readPlace(&r, into: &refs)
      try expand(refs, into: &terms, decoded: nil)
      // The three lists are disjoint, and so are a name's shared and own tokens.
      guard Set(terms.tokens).count == terms.tokens.count else {
        throw r.fault("place \(rank) lists a token twice", at: at)
      }
      try body(rank, terms)
    }
  }
}

/// Writes the TERMS section in two passes over the places in rank order:
/// ``count(name:context:)`` for each, then ``append(name:alternative:context:)`` for each.
package struct TermListsWriter {
  /// A context token is common, and shared as part of an area's list, when at least this
  /// many places' contexts hold it (measured: 64 gives smaller sections than 16 or 256 on
  /// the shared extracts).
  package static let commonFrom = 64
  /// Whether a token is a name's own, never shared (it starts with a digit: a housenumber).
  private let isOwn: (Int) -> Bool
  /// The builder's rule for ``isOwn``: a token that starts with a digit (a housenumber).
  package static func isOwn(_ token: some Collection<UInt8>) -> Bool {
    token.first.map { $0 &- 0x30 < 10 } ?? false
  }
  /// ``commonFrom``, or another threshold (tests).
  private let commonFrom: Int
  /// How many places' names share each list of tokens.
  private var nameUses: [[Int]: Int] = [:]
  /// How many places have each context list.
  private var contextUses: [[Int]: Int] = [:]
  /// How many places' contexts hold each token.
  private var frequency: [Int: Int] = [:]
  private var id: [[Int]: Int] = [:]
  private var places = RecordTableWriter()
  private var shared = RecordTableWriter()

  /// An empty section; `isOwn` tells the name tokens that are never shared.
  package init(isOwn: @escaping (Int) -> Bool, commonFrom: Int = Self.commonFrom) {
    self.isOwn = isOwn
    self.commonFrom = commonFrom
  }

  /// Counts one place's lists (ascending).
  package mutating func count(name: [Int], context: [Int]) {
    let common = name.filter { !isOwn($0) }
    if !common.isEmpty { nameUses[common, default: 0] += 1 }
    contextUses[context, default: 0] += 1
  }

  /// Appends the next place's lists (each ascending, disjoint), counted before; `firstWord` is
  /// the token of its name's first word. Returns that token's position among the name's
  /// tokens in the order the record lists them (NAME STARTS), nil when it is not one of them.
  @discardableResult
  package mutating func append(
    name: [Int], alternative: [Int], context: [Int], firstWord: Int? = nil
  ) -> Int? {
    if id.isEmpty { numberShared() }
    let common = name.filter { !isOwn($0) }
    // A name list that no other place has stays in the record.
    let sharedName = common.isEmpty ? nil : id[common]
    let own = sharedName == nil ? name : name.filter(isOwn)
    let listed = sharedName == nil ? own : common + own
    let (base, rest) = split(context)
    let restID = rest.isEmpty ? nil : id[rest]
    let restKind = rest.isEmpty ? 0 : restID == nil ? 1 : 2
    var w = ByteWriter()
    w.varint(
      own.count << 4 | restKind << 2 | (sharedName == nil ? 0 : 2) | (alternative.isEmpty ? 0 : 1))
    if let sharedName { w.varint(sharedName) }
    if !alternative.isEmpty { w.varint(alternative.count) }
    if restKind == 1 { w.varint(rest.count) }
    Self.gaps(own, into: &w)
    Self.gaps(alternative, into: &w)
    if restKind == 1 { Self.gaps(rest, into: &w) }
    w.varint(id[base]!)
    if let restID { w.varint(restID) }
    places.append(w.bytes)
    return firstWord.flatMap { listed.firstIndex(of: $0) }
  }

  /// Splits the context lists into common and other tokens, numbers the lists that are
  /// shared (every context's common list; a name's or a context's other tokens only when two
  /// places have them), the most used first (ties by content), and writes them.
  private mutating func numberShared() {
    for (list, n) in contextUses {
      for t in list { frequency[t, default: 0] += n }
    }
    var uses = nameUses
    var bases = Set<[Int]>()
    for (list, n) in contextUses {
      let (common, rest) = split(list)
      uses[common, default: 0] += n
      bases.insert(common)
      if !rest.isEmpty { uses[rest, default: 0] += n }
    }
    nameUses = [:]
    contextUses = [:]
    let lists = uses.filter { $0.value >= 2 || bases.contains($0.key) }.sorted {
      $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key)
    }.map(\.key)
    for (i, list) in lists.enumerated() {
      id[list] = i
      var w = ByteWriter()
      w.varint(list.count)
      Self.gaps(list, into: &w)
      shared.append(w.bytes)
    }
  }

  /// A context list's common tokens and the others (``commonFrom``).
  private func split(_ context: [Int]) -> (common: [Int], rest: [Int]) {
    var common: [Int] = []
    var rest: [Int] = []
    for t in context {
      if frequency[t]! >= commonFrom { common.append(t) } else { rest.append(t) }
    }
    return (common, rest)
  }

  /// The section's bytes.
  package var bytes: [UInt8] {
    let table = shared.bytes
    var w = ByteWriter()
    w.u32(UInt32(table.count))
    w.append(table)
    w.append(places.bytes)
    return w.bytes
  }

  /// Appends ascending ids as the first, then each one's gap to the one before.
  private static func gaps(_ ids: [Int], into w: inout ByteWriter) {
    var previous = 0
    for (i, t) in ids.enumerated() {
      w.varint(i == 0 ? t : t - previous)
      previous = t
    }
  }
}
