import PlaceCore

/// Everything an index holds, as the builder hands it over.
package struct IndexContent: Sendable {
  /// Places in rank order (most important first).
  package var places: [PlaceRecord] = []
  /// The terms of each place's primary name, parallel to `places`.
  package var placeTerms: [[String]] = []
  /// The terms only each place's alternative names carry, parallel to `places`; may be left
  /// empty when no place has any.
  package var placeAltTerms: [[String]] = []
  /// The terms of each place's address and admin areas, parallel to `places`.
  package var placeContextTerms: [[String]] = []
  /// Type names referenced by `typeLists`.
  package var typeNames: [String] = []
  /// Type lists: indexes into `typeNames`, primary first.
  package var typeLists: [[Int]] = []
  /// UTF-8 JSON metadata.
  package var metadataJSON: [UInt8] = []
  /// The type vocabulary table text.
  package var vocabularyTSV: String = ""
  /// The abbreviation table text.
  package var abbreviationsTSV: String = ""
  /// Newest element timestamp, seconds since 1970.
  package var dataTimestamp: UInt64 = 0
  /// Hash of the build options.
  package var optionsHash: UInt64 = 0
  /// Strings stored in STRINGS that no record refers to: the texts readers look up by their
  /// first bytes (PlaceCore's `LocalTexts`).
  package var extraStrings: [String] = []

  /// Creates empty content.
  package init() {}
}

/// The places an index holds, in rank order, as ``IndexImageWriter`` reads them: one at a time
/// and as often as it needs, so that a builder can keep them packed (or on disk) instead of as
/// Swift values.
package protocol IndexPlaceSource {
  /// Number of places.
  var count: Int { get }
  /// Place `i`'s record (its type list an index into the content's `typeLists`).
  func record(_ i: Int) -> PlaceRecord
  /// Place `i`'s record with its numbers only (element, position, importance, type list,
  /// viewport) and no texts, for the sections that need no more.
  func numbers(_ i: Int) -> PlaceRecord
  /// Place `i`'s terms: of its primary name, only of its alternative names, of its context.
  func terms(_ i: Int) -> (name: [String], alternative: [String], context: [String])
  /// Whether place `i`'s record lists alternative names.
  func hasNames(_ i: Int) -> Bool
  /// The first word of place `i`'s primary text, folded as a query's words are (NAME STARTS).
  func firstWord(_ i: Int) -> String?
}

extension IndexPlaceSource {
  package func firstWord(_ i: Int) -> String? { Tokenizer.firstToken(record(i).primaryText) }
}

/// The records of a source in rank order, their type lists renumbered, as the section writers
/// take them.
struct SourceRecords<Source: IndexPlaceSource>: RandomAccessCollection {
  let source: Source
  let typeList: [Int]
  /// Whether the records carry their numbers only.
  var numbersOnly = false
  var startIndex: Int { 0 }
  var endIndex: Int { source.count }
  subscript(i: Int) -> PlaceRecord {
    var r = numbersOnly ? source.numbers(i) : source.record(i)
    r.typeList = typeList[r.typeList]
    return r
  }
}

/// The places of an ``IndexContent``.
struct ContentPlaces: IndexPlaceSource {
  let content: IndexContent
  var count: Int { content.places.count }
  func record(_ i: Int) -> PlaceRecord { content.places[i] }
  func numbers(_ i: Int) -> PlaceRecord { content.places[i] }
  func terms(_ i: Int) -> (name: [String], alternative: [String], context: [String]) {
    (
      content.placeTerms[i], content.placeAltTerms.isEmpty ? [] : content.placeAltTerms[i],
      content.placeContextTerms[i]
    )
  }
  func hasNames(_ i: Int) -> Bool { !content.places[i].names.isEmpty }
}

/// Serializes ``IndexContent`` into a complete file image. Deterministic: the same content gives
/// the same bytes.
package enum IndexImageWriter {
  /// The file image and the number of distinct tokens. Refuses places out of rank order
  /// (``IndexWriterError``), which no reader could search.
  package static func image(_ content: IndexContent) throws(IndexWriterError) -> (
    bytes: [UInt8], tokenCount: Int
  ) {
    precondition(content.places.count == content.placeTerms.count)
    precondition(content.places.count == content.placeContextTerms.count)
    precondition(
      content.placeAltTerms.isEmpty || content.places.count == content.placeAltTerms.count)
    return try image(content, places: ContentPlaces(content: content))
  }

  /// The file image of `content`'s tables and metadata with the places of `source` (the
  /// content's own places and terms are not read), and the number of distinct tokens. Reads
  /// the places one at a time, in a few passes; what it keeps of them is compact: the tokens,
  /// the strings, four bytes per posting and the sections' bytes.
  package static func image(_ content: IndexContent, places source: some IndexPlaceSource)
    throws(IndexWriterError) -> (bytes: [UInt8], tokenCount: Int)
  {
    let count = source.count
    try checkPlaceCount(count)
    // One pass: the rank order, the tokens, the type lists' uses and the strings.
    var tokenSet = Set<String>()
    var uses = [Int](repeating: 0, count: content.typeLists.count)
    var strings = StringTableBuilder()
    var previous: PlaceRecord? = nil
    for p in 0..<count {
      let record = source.record(p)
      if let previous { try checkRankOrder(previous, record, rank: p) }
      let terms = source.terms(p)
      tokenSet.formUnion(terms.name)
      tokenSet.formUnion(terms.context)
      tokenSet.formUnion(terms.alternative)
      uses[record.typeList] += 1
      PlaceTableWriter.registerStrings(of: record, in: &strings)
      previous = record
    }
    for n in content.typeNames { strings.insert(n) }
    for t in content.extraStrings { strings.insert(t) }
    strings.freeze()
    let tokens = tokenSet.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    tokenSet = []

    var file = CheckedSections()
    file.writer.dataTimestamp = content.dataTimestamp
    file.writer.optionsHash = content.optionsHash
    try file.add(.tokens, TokenDictionaryWriter.serialize(tokens))
    // Each place's position in GEO's order, which GEO and NEAR LISTS share.
    let geoOrder = GeoTableWriter.order((0..<count).lazy.map { source.numbers($0) })
    let (postingsBytes, termsBytes, unionsBytes, nearBytes, startsBytes) = postings(
      source, tokens: tokens, geoOrder: geoOrder)
    try file.add(.postings, postingsBytes)
    try file.add(.terms, termsBytes)
    try file.add(.nameStarts, startsBytes)
    try file.add(.prefixUnions, unionsBytes)
    try file.add(.nearLists, nearBytes)
    // Type lists, the most used first: small ids, and the four most used share a byte with a
    // record's flags.
    let order = uses.indices.sorted { uses[$0] != uses[$1] ? uses[$0] > uses[$1] : $0 < $1 }
    var newList = [Int](repeating: 0, count: uses.count)
    for (id, old) in order.enumerated() { newList[old] = id }
    let typeLists = order.map { content.typeLists[$0] }
    let places = SourceRecords(source: source, typeList: newList)
    var numbers = places
    numbers.numbersOnly = true

    try file.add(.metadata, content.metadataJSON)
    try file.add(.strings, strings.serialize())
    try file.add(
      .types,
      TypeTableWriter.serialize(
        names: content.typeNames, lists: typeLists, strings: strings))
    try file.add(.vocabulary, TableText.encode(content.vocabularyTSV))
    let (records, contexts, nameWords) = PlaceTableWriter.serialize(places, strings: strings)
    strings = StringTableBuilder()
    try file.add(.places, records)
    try file.add(.nameWords, NameWordsWriter.serialize(nameWords))
    try file.add(.abbreviations, TableText.encode(content.abbreviationsTSV))
    try file.add(.placeIDs, PlaceIDTableWriter.serialize(numbers))
    try file.add(.contexts, contexts)
    try file.add(.geo, GeoTableWriter.serialize(numbers, order: geoOrder))
    try file.add(.importance, ImportanceTableWriter.serialize(numbers))
    try file.add(.viewports, ViewportTableWriter.serialize(numbers))
    return (file.writer.takeImage(), tokens.count)
  }

  /// Refuses more places than a file holds (``IndexLayout/maxPlaces``).
  static func checkPlaceCount(_ count: Int) throws(IndexWriterError) {
    guard count <= IndexLayout.maxPlaces else {
      throw IndexWriterError(fault: .tooManyPlaces(count: count, limit: IndexLayout.maxPlaces))
    }
  }

  /// Refuses a section longer than its offsets reach (``IndexLayout/maxSectionBytes``).
  static func checkSectionSize(_ kind: SectionKind, bytes: Int) throws(IndexWriterError) {
    guard bytes <= IndexLayout.maxSectionBytes else {
      throw IndexWriterError(
        fault: .sectionTooLarge(
          section: kind.name, bytes: bytes, limit: IndexLayout.maxSectionBytes))
    }
  }

  /// The file's sections, each checked against the format's limit as it is added.
  struct CheckedSections {
    var writer = IndexFileWriter()
    mutating func add(_ kind: SectionKind, _ bytes: [UInt8]) throws(IndexWriterError) {
      try IndexImageWriter.checkSectionSize(kind, bytes: bytes.count)
      writer.add(kind, bytes)
    }
  }

  /// The POSTINGS section. Three lists per token: the places that carry it in their primary
  /// name, those that carry it only in an alternative name, and those that carry it only in
  /// their context. Counted in one pass over the places and filled in a second, into one
  /// array of four bytes per posting. With the TERMS section: the same lists by place; and
  /// PREFIX UNIONS: the union of the lists of each prefix that many tokens share; and NEAR
  /// LISTS: the GEO positions (`geoOrder`: the ranks in GEO's order) of the places of each
  /// token of many places and of each union.
  static func postings(_ source: some IndexPlaceSource, tokens: [String], geoOrder: [Int]) -> (
    postings: [UInt8], terms: [UInt8], unions: [UInt8], near: [UInt8], nameStarts: [UInt8]
  ) {
    var tokenID: [String: Int] = [:]
    tokenID.reserveCapacity(tokens.count)
    for (i, t) in tokens.enumerated() { tokenID[t] = i }
    func lists(_ p: Int) -> (Set<Int>, Set<Int>, Set<Int>) {
      let terms = source.terms(p)
      let ids = Set(terms.name.map { tokenID[$0]! })
      // Alternative names' tokens count only for places that list alternative names.
      let altIDs =
        source.hasNames(p) ? Set(terms.alternative.map { tokenID[$0]! }).subtracting(ids) : []
      let contextIDs = Set(terms.context.map { tokenID[$0]! })
        .subtracting(ids).subtracting(altIDs)
      return (ids, altIDs, contextIDs)
    }
    // starts[3t + part] is where list (t, part) begins in `entries`.
    var starts = [Int](repeating: 0, count: 3 * tokens.count + 1)
    // A name's tokens that start with a digit (a housenumber) are its own in TERMS.
    let own = tokens.map { TermListsWriter.isOwn($0.utf8) }
    var terms = TermListsWriter { own[$0] }
    for p in 0..<source.count {
      let (ids, altIDs, contextIDs) = lists(p)
      terms.count(name: ids.sorted(), context: contextIDs.sorted())
      for t in ids { starts[3 * t + 1] += 1 }
      for t in altIDs { starts[3 * t + 2] += 1 }
      for t in contextIDs { starts[3 * t + 3] += 1 }
    }
    for k in starts.indices.dropFirst() { starts[k] += starts[k - 1] }
    var next = starts
    var entries = [UInt32](repeating: 0, count: starts[starts.count - 1])
    // NAME STARTS: where each name's first word lies among its tokens in TERMS.
    var nameStarts = [UInt8](repeating: UInt8(NameStarts.none), count: source.count)
    for p in 0..<source.count {
      let (ids, altIDs, contextIDs) = lists(p)
      let position = terms.append(
        name: ids.sorted(), alternative: altIDs.sorted(), context: contextIDs.sorted(),
        firstWord: source.firstWord(p).flatMap { tokenID[$0] })
      if let position, position < NameStarts.none { nameStarts[p] = UInt8(position) }
      for t in ids {
        entries[next[3 * t]] = UInt32(p)
        next[3 * t] += 1
      }
      for t in altIDs {
        entries[next[3 * t + 1]] = UInt32(p)
        next[3 * t + 1] += 1
      }
      for t in contextIDs {
        entries[next[3 * t + 2]] = UInt32(p)
        next[3 * t + 2] += 1
      }
    }
    next = []
    tokenID = [:]
    func list(_ k: Int) -> [Int] { entries[starts[k]..<starts[k + 1]].map { Int($0) } }
    let postings = PostingsWriter.serialize(count: tokens.count) { t in
      (list(3 * t), list(3 * t + 1), list(3 * t + 2))
    }
    func slice(_ k: Int) -> ArraySlice<UInt32> { entries[starts[k]..<starts[k + 1]] }
    let unionRanges = PrefixUnionsWriter.ranges(tokens)
    let unions = PrefixUnionsWriter.serialize(unionRanges) { t in
      (slice(3 * t), slice(3 * t + 1), slice(3 * t + 2))
    }
    var position = [Int32](repeating: 0, count: geoOrder.count)
    for (i, rank) in geoOrder.enumerated() { position[rank] = Int32(i) }
    let heavy = (0..<tokens.count).filter {
      starts[3 * $0 + 3] - starts[3 * $0] >= NearListsWriter.minimumPlaces
    }
    let near = NearListsWriter.serialize(
      heavy.map { $0..<($0 + 1) } + unionRanges
        + NearListsWriter.numberRanges(tokens, without: Set(unionRanges)) { r in
          starts[3 * r.upperBound] - starts[3 * r.lowerBound]
        },
      placeCount: source.count
    ) { range in
      var out: [Int32] = []
      out.reserveCapacity(starts[3 * range.upperBound] - starts[3 * range.lowerBound])
      for p in entries[starts[3 * range.lowerBound]..<starts[3 * range.upperBound]] {
        out.append(position[Int(p)])
      }
      out.sortAndRemoveDuplicates()
      return out
    }
    return (postings, terms.bytes, unions, near, PlaceNibbles.serialize(nameStarts))
  }
}
