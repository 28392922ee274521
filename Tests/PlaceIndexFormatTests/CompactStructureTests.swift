import Foundation
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// The compact building blocks of the format: item tables, postings encodings, the place-ID
/// permutation and dictionary-coded tables.
@Suite struct CompactStructureTests {
  /// Golden bytes: the documented POSTINGS layout (ItemTable.swift, Postings.swift) for three
  /// hand-made tokens: name places only, as gaps; a name place and context places as a bitmap;
  /// name places as a bitmap followed by a context place.
  @Test func postingsBytesMatchTheDocumentedLayout() throws {
    let bytes = PostingsWriter.serialize([
      ([3, 300], []), ([7], Array(100..<140)), (Array(200..<240), [5]),
    ])
    var expected: [UInt8] = [3, 0, 0, 0]  // u32 count
    expected += [16, 0, 0, 0]  // u32 block size
    expected += [0, 0, 0, 0]  // block 0 starts at item-area offset 0
    // Token 0, length 4: n = 2, no context list, gaps: 2 << 2; then 3 and gap 297 = A9 02.
    expected += [4, 8, 3, 0xA9, 0x02]
    // Token 1, length 10: n = 1 with c = 1, gaps: 1 << 2 | 2; the name places' length 1; 7;
    // the context list: m = 40, bitmap: 40 << 1 | 1 = 81; first place 100; 5 bytes of ones.
    expected += [10, 6, 1, 7, 81, 100, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    // Token 2, length 12: n = 40 with c = 1, bitmap: 40 << 2 | 3 = 163 = A3 01; the name
    // places' length 7: first place 200 = C8 01 and 5 bytes of ones; then m = 1, gaps: 2; 5.
    expected += [12, 0xA3, 0x01, 7, 0xC8, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 2, 5]
    #expect(bytes == expected)
    let mapped = MappedBytes(copying: bytes)
    let postings = try Postings(mapped.buffer, fileOffset: 0, placeCount: 300)
    #expect(throws: IndexFormatError.self) { try postings.verify() }  // place 300 of 300
    let wider = try Postings(mapped.buffer, fileOffset: 0, placeCount: 301)
    try wider.verify()
    #expect(try wider.length(of: 0..<3) == 2 + 41 + 41)
  }

  /// Seeded property test: items of random lengths come back as written across block edges.
  @Test(arguments: [5, 16, 17, 33, 250])
  func itemTablesRoundTrip(count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count))
    let items: [[UInt8]] = (0..<count).map { _ in
      (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }
    var w = ItemTableWriter(blockSize: [1, 8, 16, 256][count % 4])
    for item in items { w.append(item) }
    let bytes = MappedBytes(copying: w.bytes)
    let table = try ItemTable(ByteReader(bytes.buffer, section: "TEST"))
    #expect(table.count == count && table.blockSize == w.blockSize)
    for (i, item) in items.enumerated() { #expect(Array(try table.item(i).buffer) == item) }
    var seen = 0
    try table.forEach { i, r in
      #expect(Array(r.buffer) == items[i])
      seen += 1
    }
    #expect(seen == count)
    #expect(throws: IndexFormatError.self) { try table.item(count) }
    // Any range, walked sequentially from its block.
    let lo = Int(rng.next() % UInt64(count))
    let hi = lo + Int(rng.next() % UInt64(count - lo + 1))
    var walked: [Int] = []
    try table.walk(lo..<hi) { i, r in
      #expect(Array(r.buffer) == items[i])
      walked.append(i)
    }
    #expect(walked == Array(lo..<hi))
    #expect(throws: IndexFormatError.self) { try table.walk(lo..<(count + 1)) { _, _ in } }
  }

  /// Seeded property test: reading a token range's lists sequentially (a prefix's postings)
  /// gives the same cursors as reading each list by its number, and the range's length is
  /// the sum of its tokens' lengths.
  @Test(arguments: [1, 9, 40, 333])
  func sequentialListReadsMatchListsByNumber(tokens: Int) throws {
    var rng = SplitMix64(seed: UInt64(tokens) &* 7)
    let placeCount = 500
    // Some tokens have no context list, as most do in an index.
    let lists: [[Int]] = (0..<(2 * tokens)).map { i in
      let n = i % 2 == 1 && rng.next() % 2 == 0 ? 0 : Int(rng.next() % 40)
      return Set((0..<n).map { _ in Int(rng.next() % UInt64(placeCount)) }).sorted()
    }
    let pairs = (0..<tokens).map { (names: lists[2 * $0], context: lists[2 * $0 + 1]) }
    let bytes = MappedBytes(copying: PostingsWriter.serialize(pairs))
    let postings = try Postings(bytes.buffer, fileOffset: 0, placeCount: placeCount)
    try postings.verify()
    func drain(_ c: PostingsCursor) throws -> [Int] {
      var c = c
      var out: [Int] = []
      while let p = try c.next() { out.append(p) }
      return out
    }
    // Random token sets: runs of consecutive tokens and single ones, as a query's drivers.
    for _ in 0..<20 {
      let lo = Int(rng.next() % UInt64(tokens))
      let hi = lo + Int(rng.next() % UInt64(tokens - lo)) + 1
      var set = Array(lo..<hi)
      for _ in 0..<3 { set.append(Int(rng.next() % UInt64(tokens))) }
      var visited: [Int] = []
      var read: [[Int]] = []
      try postings.forEachList(of: set) { t, names, context in
        visited.append(t)
        read.append(try drain(names))
        read.append(try drain(context))
      }
      #expect(visited == set)
      #expect(read == set.flatMap { [lists[2 * $0], lists[2 * $0 + 1]] })
      var sum = 0
      for t in lo..<hi { sum += lists[2 * t].count + lists[2 * t + 1].count }
      let length = try postings.length(of: lo..<hi)
      #expect(length == sum)
    }
    #expect(throws: IndexFormatError.self) { try postings.forEachList(of: [tokens]) { _, _, _ in } }
    #expect(throws: IndexFormatError.self) { try postings.length(of: 0..<(tokens + 1)) }
  }

  @Test(arguments: [0, 3, 12, 512])
  func aBlockSizeThatIsNotAPowerOfTwoUpTo256IsRefused(size: Int) throws {
    var bytes = ItemTableWriter().bytes
    for k in 0..<4 { bytes[4 + k] = UInt8(truncatingIfNeeded: size >> (8 * k)) }
    let mapped = MappedBytes(copying: bytes)
    #expect(throws: IndexFormatError.self) {
      try ItemTable(ByteReader(mapped.buffer, section: "TEST"))
    }
  }

  @Test func aBlockOffsetThatMissesItsItemFailsVerification() throws {
    var w = ItemTableWriter()
    for i in 0..<20 { w.append([UInt8(i), 1, 2]) }
    var bytes = w.bytes
    bytes[12] += 1  // block 1's offset, one byte too far
    let mapped = MappedBytes(copying: bytes)
    let table = try ItemTable(ByteReader(mapped.buffer, section: "TEST"))
    #expect(throws: IndexFormatError.self) { try table.forEach { _, _ in } }
  }

  @Test func aBitmapWithMorePlacesThanItsCountFailsVerification() throws {
    // The name list alone (to the item's end), and the name list before a context list.
    for context in [[], [70]] {
      var bytes = PostingsWriter.serialize([(Array(0..<64), context)])
      let flag: UInt8 = context.isEmpty ? 1 : 3
      #expect(bytes[13] == 0x80 | flag && bytes[14] == 0x02)  // 64 << 2 | flag
      bytes[13] = 0xFC | flag  // the count says 63 (63 << 2 | flag), the bitmap holds 64
      bytes[14] = 0x01
      let mapped = MappedBytes(copying: bytes)
      let p = try Postings(mapped.buffer, fileOffset: 0, placeCount: 80)
      #expect(throws: IndexFormatError.self) { try p.verify() }
    }
  }

  @Test func aBitmapPastThePlaceCountIsAnError() throws {
    for lists in [[(Array(0..<64), [Int]())], [([1], Array(0..<64))]] {
      let bytes = MappedBytes(copying: PostingsWriter.serialize(lists))
      let p = try Postings(bytes.buffer, fileOffset: 0, placeCount: 60)
      #expect(throws: IndexFormatError.self) { try p.verify() }
    }
  }

  /// Seeded property test: every place of a random set is found by its ID, and absent IDs are
  /// not.
  @Test(arguments: [1, 300, 1025])
  func placeIDsRoundTrip(count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count) &* 31)
    var keys = Set<Int64>()
    while keys.count < count { keys.insert(Int64(rng.next() % 3_000_000_000)) }
    var content = IndexContent()
    for (i, id) in keys.sorted().shuffledDeterministically(&rng).enumerated() {
      content.places.append(
        PlaceRecord(
          osmKind: UInt8(i % 3), osmID: id, latitudeE7: 0, longitudeE7: 0, importance: 0,
          typeList: 0, primaryText: "p", secondaryParts: [], countryCode: "", names: [],
          components: [], tokens: []))
      content.placeTerms.append(["p"])
      content.placeContextTerms.append([])
    }
    content.typeNames = ["route"]
    content.typeLists = [[0]]
    let file = try IndexFile(
      bytes: MappedBytes(copying: IndexImageWriter.image(content).bytes), path: "ids")
    let index = try OpenedSections(file)
    try index.ids.verify()
    for (i, p) in content.places.enumerated() {
      #expect(try index.ids.placeIndex(kind: p.osmKind, id: p.osmID) == i)
      #expect(try index.ids.placeIndex(kind: (p.osmKind + 1) % 3, id: p.osmID) == nil)
    }
  }

  @Test func postingsTellNamesFromContextsAndRecordsKeepAlternativeNameTokens() throws {
    var content = IndexContent()
    content.places = [
      PlaceRecord(
        osmKind: 0, osmID: 1, latitudeE7: 471_410_000, longitudeE7: 95_209_000,
        importance: 900, typeList: 0, primaryText: "Vaduz Cafe", secondaryParts: [],
        countryCode: "LI", names: [LocalizedName(language: "de", name: "Kaffee Vaduz")],
        components: [], tokens: []),
      PlaceRecord(
        osmKind: 1, osmID: 2, latitudeE7: 471_390_000, longitudeE7: 95_220_000,
        importance: 100, typeList: 0, primaryText: "Main", secondaryParts: ["Vaduz"],
        countryCode: "LI", names: [], components: [], tokens: []),
    ]
    content.placeTerms = [["cafe", "vaduz"], ["main"]]
    content.placeAltTerms = [["kaffee"], []]
    content.placeContextTerms = [[], ["vaduz"]]
    content.typeNames = ["cafe"]
    content.typeLists = [[0]]
    let file = try IndexFile(
      bytes: MappedBytes(copying: IndexImageWriter.image(content).bytes), path: "roles")
    let (ts, tb) = try file.requiredBytes(.tokens)
    let tokens = try TokenDictionary(tb, fileOffset: ts.offset)
    let (qs, qb) = try file.requiredBytes(.postings)
    let postings = try Postings(qb, fileOffset: qs.offset, placeCount: 2)
    try postings.verify()
    #expect(postings.tokenCount == tokens.count)
    func places(_ word: String, context: Bool) throws -> [Int] {
      let id = try #require(try tokens.exactID(word))
      var c = try postings.list(id, context: context)
      var out: [Int] = []
      while let v = try c.next() { out.append(v) }
      return out
    }
    // "vaduz" names place 0 and is the context of place 1.
    #expect(try places("vaduz", context: false) == [0])
    #expect(try places("vaduz", context: true) == [1])
    // An alternative name's word is a name word for the postings.
    #expect(try places("kaffee", context: false) == [0])
    #expect(try places("kaffee", context: true) == [])
    #expect(try postings.length(try #require(try tokens.exactID("vaduz"))) == 2)
    let sections = try OpenedSections(file)
    var m = PlaceMatch()
    try sections.places.match(0, into: &m)
    #expect(m.altTokens == [try #require(try tokens.exactID("kaffee"))])
    #expect(!m.tokens.contains(try #require(try tokens.exactID("kaffee"))))
    try sections.places.match(1, into: &m)
    #expect(m.altTokens.isEmpty)
    #expect(m.contextTokens == [try #require(try tokens.exactID("vaduz"))])
    try sections.places.verify()
  }

  @Test func decodedContextsMatchWhatTheItemsSay() throws {
    let sections = try OpenedSections(try open(tinyImage()))
    let decoded = try sections.places.decodeAll()
    #expect(decoded.count == sections.places.contexts.count)
    for i in 0..<sections.places.count {
      var a = PlaceMatch()
      var b = PlaceMatch()
      try sections.places.match(i, into: &a)
      try sections.places.match(i, into: &b, contexts: decoded.view)
      #expect(a.tokens == b.tokens && a.contextTokens == b.contextTokens)
      #expect(a.countryCode == b.countryCode && a.latitudeE7 == b.latitudeE7)
      #expect(a.longitudeE7 == b.longitudeE7 && a.osmID == b.osmID)
      // From IMPORTANCE: searched by rank for `a`, read from the decoded array for `b`.
      #expect(a.importance == b.importance && a.importance == [9000, 100, 50][i])
      #expect(!a.tokens.isEmpty)
    }
  }

  @Test func tablesSurviveDictionaryCoding() throws {
    let tsv = "# comment\ntype\ttable\tgroup\ncafe\tA\tfood\n\nbar\tA\tfood\nx\t\t\n"
    let bytes = MappedBytes(copying: TableText.encode(tsv))
    let text = try TableText.decode(bytes.buffer, section: "TEST", fileOffset: 0)
    #expect(text == "type\ttable\tgroup\ncafe\tA\tfood\nbar\tA\tfood\nx\t\t\n")
    let truncated = MappedBytes(copying: Array(TableText.encode(tsv).dropLast()))
    #expect(throws: IndexFormatError.self) {
      try TableText.decode(truncated.buffer, section: "TEST", fileOffset: 0)
    }
  }

  /// The project's own tables, whose values the section Huffman-codes, come back line for line.
  @Test(arguments: ["place_types.tsv", "abbreviations.tsv"])
  func projectTablesSurviveDictionaryCoding(file: String) throws {
    let tsv = try String(contentsOfFile: TestPaths.data + "/" + file, encoding: .utf8)
    let lines = tsv.split(separator: "\n").filter {
      !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace)
    }
    #expect(lines.count > 20)
    let bytes = MappedBytes(copying: TableText.encode(tsv + "x\tZürich 🙂\t\n"))
    let text = try TableText.decode(bytes.buffer, section: "TEST", fileOffset: 0)
    #expect(text == (lines + ["x\tZürich 🙂\t"]).joined(separator: "\n") + "\n")
  }

  /// A record's type list and flags share a varint while the flags are below 31; larger flags
  /// (a long name) follow it. Word counts and type lists on both sides of the limit come back.
  @Test(arguments: [0, 6, 7, 8, 9, 300])
  func typeListsAndWordCountsRoundTrip(words: Int) throws {
    var content = IndexContent()
    content.typeNames = (0..<6).map { "type\($0)" }
    content.typeLists = (0..<6).map { [$0] }
    for (i, list) in [0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5].enumerated() {
      var p = PlaceRecord(
        osmKind: 0, osmID: Int64(i + 1), latitudeE7: 0, longitudeE7: 0, importance: 1,
        typeList: list, primaryText: "p\(i)", secondaryParts: [], countryCode: "", names: [],
        components: i % 2 == 0
          ? [AddressComponent(kind: .streetNumber, longText: "\(i)", shortText: "\(i)")] : [],
        tokens: [])
      p.nameWordCount = words + i % 2
      content.places.append(p)
      content.placeTerms.append(["p\(i)"])
      content.placeContextTerms.append([])
    }
    let f = try open(IndexImageWriter.image(content).bytes)
    let sections = try OpenedSections(f)
    try sections.places.verify()
    for i in 0..<content.places.count {
      let e = try sections.places.entry(i)
      // Type lists are renumbered by use; the names tell them apart.
      let wrote = content.places.first { $0.osmID == e.osmID }!
      #expect(e.nameWordCount == wrote.nameWordCount)
      #expect(e.components.isEmpty == wrote.components.isEmpty)
      #expect(
        content.typeLists[wrote.typeList]
          == sections.types.lists[e.typeList].map { Int($0) })
    }
  }

  @Test func textsSplitOnlyIntoPartsTheRecordHolds() {
    let s = TextSplitter(parts: ["Im Sand", "49", "9495", "Triesen"])
    #expect(s.split("Im Sand 49") == ("Im Sand", "49"))
    #expect(s.split("9495 Triesen") == ("9495", "Triesen"))
    #expect(s.split("Im Sand") == ("Im Sand", nil))
    #expect(s.split("Triesen 49 x") == ("Triesen 49 x", nil))
    #expect(TextSplitter(parts: []).split("a b") == ("a b", nil))
  }
}

/// The PLACES, CONTEXTS, STRINGS and PLACE IDS views of an opened file.
struct OpenedSections {
  let places: PlaceTable
  let ids: PlaceIDTable
  let types: TypeTable

  init(_ f: IndexFile) throws {
    func bytes(_ kind: SectionKind) throws -> (UnsafeRawBufferPointer, Int) {
      let (s, b) = try f.requiredBytes(kind)
      return (b, s.offset)
    }
    let (sb, so) = try bytes(.strings)
    let strings = try StringTable(sb, fileOffset: so)
    let (tb, to) = try bytes(.tokens)
    let tokens = try TokenDictionary(tb, fileOffset: to)
    let (cb, co) = try bytes(.contexts)
    let contexts = try ContextTable(
      cb, fileOffset: co, stringCount: strings.count, tokenCount: tokens.count)
    let (yb, yo) = try bytes(.types)
    types = try TypeTable(yb, fileOffset: yo, strings: strings)
    let (pb, po) = try bytes(.places)
    places = try PlaceTable(
      pb, fileOffset: po, contexts: contexts, importance: try bytes(.importance),
      stringCount: strings.count,
      tokenCount: tokens.count, typeListCount: types.lists.count)
    let (ib, io) = try bytes(.placeIDs)
    ids = try PlaceIDTable(ib, fileOffset: io, places: places)
  }
}

extension Array {
  /// A Fisher–Yates shuffle driven by a seeded generator.
  fileprivate func shuffledDeterministically(_ rng: inout SplitMix64) -> [Element] {
    var a = self
    for i in stride(from: a.count - 1, to: 0, by: -1) {
      a.swapAt(i, Int(rng.next() % UInt64(i + 1)))
    }
    return a
  }
}
