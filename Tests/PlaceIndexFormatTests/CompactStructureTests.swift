import Foundation
import PlaceCore
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// The compact building blocks of the format: item tables, postings encodings, the place-ID
/// permutation and dictionary-coded tables.
@Suite struct CompactStructureTests {
  /// Golden bytes: the documented POSTINGS layout (ItemTable.swift, Postings.swift) for four
  /// hand-made tokens: name places only, as gaps; a name place and context places as a bitmap;
  /// name places as a bitmap, then an alternative-name place and a context place; a name place
  /// and alternative-name places alone.
  @Test func postingsBytesMatchTheDocumentedLayout() throws {
    let bytes = PostingsWriter.serialize([
      ([3, 300], [], []), ([7], [], Array(100..<140)), (Array(200..<240), [9], [5]),
      ([1], [2, 4], []), (Array(stride(from: 0, through: 300, by: 20)), [], []),
    ])
    var expected: [UInt8] = [5, 0, 0, 0]  // u32 count
    expected += [16, 0, 0, 0]  // u32 block size
    expected += [0, 0, 0, 0]  // block 0 starts at item-area offset 0
    // Token 0: n = 2, no other list, gaps: 2 << 3; a short gap list ends the item without a
    // length: 3 and gap 297 = A9 02.
    expected += [16, 3, 0xA9, 0x02]
    // Token 1: n = 1 with c = 1, gaps: 1 << 3 | 4; the name places' length 1; 7; the context
    // list: k = 40, bitmap: 40 << 1 | 1 = 81; a bitmap has its length, 6; first place 100; 5
    // bytes of ones.
    expected += [12, 1, 7, 81, 6, 100, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    // Token 2: n = 40 with c = 1 and a = 1, bitmap: 40 << 3 | 7 = 327 = C7 02; the name
    // places' length 7: first place 200 = C8 01 and 5 bytes of ones; the alternative list:
    // m = 1, gaps: 2, its length 1, 9; the context list: k = 1, gaps: 2; no length; 5.
    expected += [0xC7, 0x02, 7, 0xC8, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 2, 1, 9, 2, 5]
    // Token 3: n = 1 with a = 1, gaps: 1 << 3 | 2; length 1; 1; the alternative list ends the
    // item: m = 2, gaps: 4; no length; 2 and gap 2.
    expected += [10, 1, 1, 4, 2, 2]
    // Token 4: n = 16, gaps: 16 << 3 = 80 01; 16 places end the item, but with a length: 16;
    // 0 and 15 gaps of 20.
    expected += [0x80, 0x01, 16, 0] + Array(repeating: 20, count: 15)
    #expect(bytes == expected)
    let mapped = MappedBytes(copying: bytes)
    let postings = try Postings(mapped.buffer, fileOffset: 0, placeCount: 300)
    expectCorrupt("POSTINGS") { try postings.verify() }  // place 300 of 300
    let wider = try Postings(mapped.buffer, fileOffset: 0, placeCount: 301)
    try wider.verify()
    #expect(try wider.length(of: 0..<5) == 2 + 41 + 42 + 3 + 16)
    func places(_ token: Int, _ part: PostingsPart) throws -> [Int] {
      var c = try wider.list(token, part)
      var out: [Int] = []
      while let p = try c.next() { out.append(p) }
      return out
    }
    #expect(try places(2, .alternative) == [9] && places(2, .context) == [5])
    #expect(try places(3, .alternative) == [2, 4] && places(3, .context) == [])
    #expect(try places(4, .name) == Array(stride(from: 0, through: 300, by: 20)))
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
    let table = try ItemTable<LengthPrefixed>(ByteReader(bytes.buffer, section: "TEST"))
    #expect(table.count == count && table.blockSize == w.blockSize)
    for (i, item) in items.enumerated() { #expect(Array(try table.item(i).buffer) == item) }
    var seen = 0
    try table.forEach { i, r in
      #expect(Array(r.buffer) == items[i])
      seen += 1
    }
    #expect(seen == count)
    expectCorrupt("TEST") { try table.item(count) }
    // Any range, walked sequentially from its block.
    let lo = Int(rng.next() % UInt64(count))
    let hi = lo + Int(rng.next() % UInt64(count - lo + 1))
    var walked: [Int] = []
    try table.walk(lo..<hi) { i, r in
      #expect(Array(r.buffer) == items[i])
      walked.append(i)
    }
    #expect(walked == Array(lo..<hi))
    expectCorrupt("TEST") { try table.walk(lo..<(count + 1)) { _, _ in } }
  }

  /// Seeded property test: reading a token range's lists sequentially (a prefix's postings)
  /// gives the same cursors as reading each list by its number, and the range's length is
  /// the sum of its tokens' lengths.
  @Test(arguments: [1, 9, 40, 333])
  func sequentialListReadsMatchListsByNumber(tokens: Int) throws {
    var rng = SplitMix64(seed: UInt64(tokens) &* 7)
    let placeCount = 500
    // Some tokens have no alternative-name or context list, as most do in an index. (The
    // writer does not need the lists disjoint.)
    let lists: [[Int]] = (0..<(3 * tokens)).map { i in
      let n = i % 3 != 0 && rng.next() % 2 == 0 ? 0 : Int(rng.next() % 40)
      return Set((0..<n).map { _ in Int(rng.next() % UInt64(placeCount)) }).sorted()
    }
    let triples: [(names: [Int], alternative: [Int], context: [Int])] = (0..<tokens).map {
      t in (lists[3 * t], lists[3 * t + 1], lists[3 * t + 2])
    }
    let bytes = MappedBytes(copying: PostingsWriter.serialize(triples))
    let postings = try Postings(bytes.buffer, fileOffset: 0, placeCount: placeCount)
    try postings.verify()
    func drain(_ c: PostingsCursor) throws(IndexFormatError) -> [Int] {
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
      try postings.forEachList(of: set) { (t, lists) throws(IndexFormatError) in
        visited.append(t)
        for part in PostingsPart.allCases { read.append(try drain(lists[part])) }
      }
      #expect(visited == set)
      let expected: [[Int]] = set.flatMap { t in (0..<3).map { lists[3 * t + $0] } }
      #expect(read == expected)
      var sum = 0
      for t in 3 * lo..<3 * hi { sum += lists[t].count }
      let length = try postings.length(of: lo..<hi)
      #expect(length == sum)
    }
    expectCorrupt("POSTINGS") { try postings.forEachList(of: [tokens]) { _, _ in } }
    expectCorrupt("POSTINGS") { try postings.length(of: 0..<(tokens + 1)) }
  }

  @Test(arguments: [0, 3, 12, 512])
  func aBlockSizeThatIsNotAPowerOfTwoUpTo256IsRefused(size: Int) throws {
    var bytes = ItemTableWriter().bytes
    for k in 0..<4 { bytes[4 + k] = UInt8(truncatingIfNeeded: size >> (8 * k)) }
    let mapped = MappedBytes(copying: bytes)
    expectCorrupt("TEST") {
      try ItemTable<LengthPrefixed>(ByteReader(mapped.buffer, section: "TEST"))
    }
  }

  @Test func aBlockOffsetThatMissesItsItemFailsVerification() throws {
    var w = ItemTableWriter()
    for i in 0..<20 { w.append([UInt8(i), 1, 2]) }
    var bytes = w.bytes
    bytes[12] += 1  // block 1's offset, one byte too far
    let mapped = MappedBytes(copying: bytes)
    let table = try ItemTable<LengthPrefixed>(ByteReader(mapped.buffer, section: "TEST"))
    expectCorrupt("TEST") { try table.forEach { _, _ in } }
  }

  @Test func aBitmapWithMorePlacesThanItsCountFailsVerification() throws {
    // The name list alone (ending the item), and the name list before a context list.
    for context in [[], [70]] {
      var bytes = PostingsWriter.serialize([(Array(0..<64), [], context)])
      let flag: UInt8 = context.isEmpty ? 1 : 5
      #expect(bytes[12] == 0x80 | flag && bytes[13] == 0x04)  // 64 << 3 | flag
      bytes[12] = 0xF8 | flag  // the count says 63 (63 << 3 | flag), the bitmap holds 64
      bytes[13] = 0x03
      let mapped = MappedBytes(copying: bytes)
      let p = try Postings(mapped.buffer, fileOffset: 0, placeCount: 80)
      expectCorrupt("POSTINGS") { try p.verify() }
    }
  }

  /// Golden bytes: a gap list of 130 places (every tenth, too sparse for a bitmap) carries a
  /// skip table (since 9.0) with one entry per block of 64 places after the first.
  @Test func aLongGapListCarriesTheDocumentedSkipTable() throws {
    let list = Array(stride(from: 0, to: 1300, by: 10))
    #expect(list.count == 130 && list.count >= Postings.skipsFrom)
    let bytes = PostingsWriter.serialize([(list, [], [])])
    var expected: [UInt8] = [1, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]  // count, block size, offset
    // n = 130, gaps: 130 << 3 = 1040 = 90 08; the list's length 1 + 6 + 130 = 137 = 89 01.
    expected += [0x90, 0x08, 0x89, 0x01]
    // The table's length, 6; entry 1: place 63 = 630 (F6 04), gap 64 at offset 64 (40);
    // entry 2: place 127, 640 further (80 05), gap 128 at 64 bytes further (40).
    expected += [6, 0xF6, 0x04, 0x40, 0x80, 0x05, 0x40]
    expected += [0] + Array(repeating: 10, count: 129)  // first place 0, then gaps of 10
    #expect(bytes == expected)
    let mapped = MappedBytes(copying: bytes)
    let postings = try Postings(mapped.buffer, fileOffset: 0, placeCount: 1300)
    try postings.verify()
    var c = try postings.list(0, .name)
    #expect(try c.advance(to: 1275) == 1280)
    #expect(try c.next() == 1290 && c.next() == nil)
  }

  /// Seeded property test: on lists around and far above the skip threshold, any mix of
  /// `next()` and `advance(to:)` gives what a plain scan gives, whichever blocks it jumps.
  @Test(arguments: [127, 128, 129, 200, 1_000, 5_000])
  func advancingThroughSkipTablesMatchesAScan(count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count) &* 13)
    let placeCount = 40 * count
    var set = Set<Int>()
    while set.count < count { set.insert(Int(rng.next() % UInt64(placeCount))) }
    let list = set.sorted()
    let bytes = MappedBytes(copying: PostingsWriter.serialize([(list, [], [])]))
    let postings = try Postings(bytes.buffer, fileOffset: 0, placeCount: placeCount)
    try postings.verify()
    var jumps = 0
    for _ in 0..<30 {
      var c = try postings.list(0, .name)
      // The index of the next place the cursor should return.
      var position = 0
      var target = 0
      while true {
        let got: Int?
        let expected: Int
        if rng.next() % 5 == 0 {
          got = try c.next()
          expected = position
        } else {
          // Mostly ahead, by a little or by many blocks; sometimes behind the cursor.
          target += Int(rng.next() % UInt64(placeCount / 3 + 1)) - placeCount / 40
          expected = list[position...].firstIndex { $0 >= target } ?? list.count
          if expected - position >= Postings.skipBlock { jumps += 1 }
          got = try c.advance(to: target)
        }
        guard expected < list.count else {
          #expect(got == nil)
          break
        }
        #expect(got == list[expected])
        position = expected + 1
        target = max(target, list[expected])
      }
    }
    // The targets jump over whole blocks on the lists long enough to have them.
    #expect(count < 3 * Postings.skipBlock || jumps > 0)
  }

  /// A skip table entry that names the wrong place or offset fails verification; reading
  /// through a damaged table gives an error or places in increasing order, never a crash.
  @Test func aDamagedSkipTableFailsVerification() throws {
    let list = Array(stride(from: 0, to: 1300, by: 10))
    let clean = PostingsWriter.serialize([(list, [], [])])
    // Bytes 17...22 are the table's entries (golden test above): each byte changed in turn.
    for at in 17...22 {
      for delta: UInt8 in [1, 0x7F] {
        var bytes = clean
        bytes[at] &+= delta
        let mapped = MappedBytes(copying: bytes)
        let postings = try Postings(mapped.buffer, fileOffset: 0, placeCount: 1300)
        expectCorrupt("POSTINGS") { try postings.verify() }
        for target in [0, 635, 640, 1275, 2000] {
          var c = try postings.list(0, .name)
          var out: [Int] = []
          do {
            if let p = try c.advance(to: target) { out.append(p) }
            while let p = try c.next() { out.append(p) }
          } catch {
            continue
          }
          #expect(zip(out, out.dropFirst()).allSatisfy { $0 < $1 })
        }
      }
    }
  }

  @Test func aBitmapPastThePlaceCountIsAnError() throws {
    let lists: [[(names: [Int], alternative: [Int], context: [Int])]] = [
      [(Array(0..<64), [], [])], [([1], [], Array(0..<64))], [([1], Array(0..<64), [])],
    ]
    for lists in lists {
      let bytes = MappedBytes(copying: PostingsWriter.serialize(lists))
      let p = try Postings(bytes.buffer, fileOffset: 0, placeCount: 60)
      expectCorrupt("POSTINGS") { try p.verify() }
    }
  }

  /// Seeded property test: every place of a random set gives back its element and is found by
  /// its ID, and absent IDs are not; ids from dense (renumbered extracts) to 2^40.
  @Test(arguments: [(1, 1 << 40), (300, 3_000_000_000), (1025, 12_000_000_000), (1500, 1600)])
  func placeIDsRoundTrip(count: Int, largest: Int64) throws {
    var rng = SplitMix64(seed: UInt64(count) &* 31)
    var keys = Set<Int64>()
    while keys.count < count { keys.insert(Int64(rng.next() % UInt64(largest))) }
    var content = IndexContent()
    for (i, id) in keys.sorted().shuffledDeterministically(&rng).enumerated() {
      content.places.append(
        PlaceRecord(
          osmKind: UInt8(i % 3), osmID: id, latitudeE7: 0, longitudeE7: 0, importance: 0,
          typeList: 0, primaryText: "p", secondaryParts: [], countryCode: "", names: [],
          components: []))
      content.placeTerms.append(["p"])
      content.placeContextTerms.append([])
    }
    content.typeNames = ["route"]
    content.typeLists = [[0]]
    // PLACE IDS on its own: the shuffled order gives many runs, which a whole index could not
    // hold (its writer refuses places out of rank order).
    let bytes = MappedBytes(copying: PlaceIDTableWriter.serialize(content.places))
    try withExtendedLifetime(bytes) {
      let ids = try PlaceIDTable(bytes.buffer, fileOffset: 0, placeCount: content.places.count)
      try ids.verify()
      for (i, p) in content.places.enumerated() {
        #expect(try ids.element(i) == (p.osmKind, p.osmID))
        #expect(try ids.placeIndex(kind: p.osmKind, id: p.osmID) == i)
        #expect(try ids.placeIndex(kind: (p.osmKind + 1) % 3, id: p.osmID) == nil)
      }
    }
  }

  /// Seeded property test: places in few long runs of clustered ids, so that many places
  /// share a high part, also across the blocks of 64 the lookup searches first; every ID is
  /// found, and an id after each that is not a place's is not.
  @Test(arguments: [(700, 3), (2000, 1), (4100, 7)])
  func denseIDsInLongRunsAreFound(count: Int, runs: Int) throws {
    var rng = SplitMix64(seed: UInt64(count) &* 131 &+ UInt64(runs))
    var records: [PlaceRecord] = []
    for r in 0..<runs {
      var id = Int64(r) * 1_000_000 + Int64(rng.below(50))
      for k in 0..<(count / runs) {
        // Clusters of 10 consecutive ids: a few low bits, and each high part shared by the
        // ids of a cluster that agree above them.
        id += k % 10 == 0 ? 30 + Int64(rng.below(20)) : 1
        records.append(
          PlaceRecord(
            osmKind: UInt8(r % 2), osmID: id, latitudeE7: 0, longitudeE7: 0, importance: 0,
            typeList: 0, primaryText: "p", secondaryParts: [], countryCode: "", names: [],
            components: []))
      }
    }
    let bytes = MappedBytes(copying: PlaceIDTableWriter.serialize(records))
    try withExtendedLifetime(bytes) {
      let ids = try PlaceIDTable(bytes.buffer, fileOffset: 0, placeCount: records.count)
      try ids.verify()
      let present = Set(records.map { Int64($0.osmKind) << 40 | $0.osmID })
      for (i, p) in records.enumerated() {
        #expect(try ids.placeIndex(kind: p.osmKind, id: p.osmID) == i)
        let gap = p.osmID + 1
        if !present.contains(Int64(p.osmKind) << 40 | gap) {
          #expect(try ids.placeIndex(kind: p.osmKind, id: gap) == nil)
        }
      }
    }
  }

  @Test func postingsTellPrimaryNamesAlternativeNamesAndContextsApart() throws {
    var content = IndexContent()
    content.places = [
      PlaceRecord(
        osmKind: 0, osmID: 1, latitudeE7: 471_410_000, longitudeE7: 95_209_000,
        importance: 900, typeList: 0, primaryText: "Vaduz Cafe", secondaryParts: [],
        countryCode: "LI", names: [LocalizedName(language: "de", name: "Kaffee Vaduz")],
        components: []),
      PlaceRecord(
        osmKind: 1, osmID: 2, latitudeE7: 471_390_000, longitudeE7: 95_220_000,
        importance: 100, typeList: 0, primaryText: "Main", secondaryParts: ["Vaduz"],
        countryCode: "LI", names: [], components: []),
    ]
    content.placeTerms = [["cafe", "vaduz"], ["main"]]
    content.placeAltTerms = [["kaffee"], []]
    content.placeContextTerms = [[], ["vaduz"]]
    content.typeNames = ["cafe"]
    content.typeLists = [[0]]
    let file = try open(content, path: "roles")
    let (ts, tb) = try file.requiredBytes(.tokens)
    let tokens = try TokenDictionary(tb, fileOffset: ts.offset)
    let (qs, qb) = try file.requiredBytes(.postings)
    let postings = try Postings(qb, fileOffset: qs.offset, placeCount: 2)
    try postings.verify()
    #expect(postings.tokenCount == tokens.count)
    func places(_ word: String, _ part: PostingsPart) throws -> [Int] {
      let id = try #require(try tokens.exactID(word))
      var c = try postings.list(id, part)
      var out: [Int] = []
      while let v = try c.next() { out.append(v) }
      return out
    }
    // "vaduz" names place 0 and is the context of place 1.
    #expect(try places("vaduz", .name) == [0])
    #expect(try places("vaduz", .alternative) == [])
    #expect(try places("vaduz", .context) == [1])
    // An alternative name's word has its own list, below the primary name's.
    #expect(try places("kaffee", .name) == [])
    #expect(try places("kaffee", .alternative) == [0])
    #expect(try places("kaffee", .context) == [])
    #expect(try places("cafe", .name) == [0])
    #expect(try places("main", .name) == [1])
    #expect(try postings.length(try #require(try tokens.exactID("vaduz"))) == 2)
    let sections = try OpenedSections(file)
    try sections.places.verify()
  }

  /// An address whose primary text is its street and number (either order) stores neither
  /// again: the shape in its number's varint says how to put them together.
  @Test func anAddressGivesItsPrimaryTextAsItsStreetAndNumber() throws {
    func address(_ id: Int64, _ primary: String, street: String, number: String) -> PlaceRecord {
      PlaceRecord(
        osmKind: 0, osmID: id, latitudeE7: 471_410_000, longitudeE7: 95_209_000,
        importance: 0, typeList: 0, primaryText: primary, secondaryParts: ["9490 Vaduz"],
        countryCode: "LI", names: [],
        components: [
          AddressComponent(kind: .streetNumber, longText: number, shortText: number),
          AddressComponent(kind: .route, longText: street, shortText: street),
        ])
    }
    var content = IndexContent()
    content.places = [
      address(1, "Kanalstrasse 18", street: "Kanalstrasse", number: "18"),
      address(2, "124 South Memorial Drive", street: "South Memorial Drive", number: "124"),
      address(3, "Haus Kanal 7", street: "Kanalstrasse", number: "7"),
    ]
    #expect(
      content.places.map { PrimaryShape.of($0, number: $0.components[0].longText) } == [
        .streetNumber, .numberStreet, .written,
      ])
    content.placeTerms = [["kanalstrasse", "18"], ["124", "south"], ["haus", "7"]]
    content.placeContextTerms = [["vaduz"], ["vaduz"], ["vaduz"]]
    content.typeNames = ["street_address"]
    content.typeLists = [[0]]
    let file = try open(content, path: "shapes")
    let sections = try OpenedSections(file)
    let (ss, sb) = try file.requiredBytes(.strings)
    let strings = try StringTable(sb, fileOffset: ss.offset)
    for (i, p) in content.places.enumerated() {
      let e = try sections.places.entry(i)
      #expect(try strings.string(e.primaryText) == p.primaryText)
      #expect(try e.components.map { try strings.string($0.long) } == p.components.map(\.longText))
    }
    try sections.places.verify()
    // Shape 3 is not a shape: the first record's number varint made to say it.
    let (ps, pb) = try file.requiredBytes(.places)
    let table = try RecordTable(ByteReader(pb, section: "PLACES"))
    var (r, before) = try table.blockStart(0)
    #expect(before == 0)
    for _ in 0..<4 { _ = try r.varint() }  // context, latitude, longitude, type and flags
    var section = Array(pb)
    section[r.offset] |= 3
    let crafted = MappedBytes(copying: section)
    let (cs, cb) = try file.requiredBytes(.contexts)
    let places = try PlaceTable(
      crafted.buffer, fileOffset: ps.offset,
      contexts: try ContextTable(cb, fileOffset: cs.offset, stringCount: strings.count),
      importance: try {
        let (s, b) = try file.requiredBytes(.importance); return (b, s.offset)
      }(),
      ids: try {
        let (s, b) = try file.requiredBytes(.placeIDs); return (b, s.offset)
      }(),
      stringCount: strings.count, typeListCount: 1)
    expectCorrupt("PLACES") { try places.entry(0) }
    expectCorrupt("PLACES") { try places.verify() }
    #expect(try strings.string(try places.entry(1).primaryText) == "124 South Memorial Drive")
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
      #expect(a.countryCode == b.countryCode && a.latitudeE7 == b.latitudeE7)
      #expect(a.longitudeE7 == b.longitudeE7)
      // From IMPORTANCE: searched by rank for `a`, read from the decoded array for `b`.
      #expect(a.importance == b.importance && a.importance == [9000, 100, 50][i])
    }
  }

  @Test func tablesSurviveDictionaryCoding() throws {
    let tsv = "# comment\ntype\ttable\tgroup\ncafe\tA\tfood\n\nbar\tA\tfood\nx\t\t\n"
    let bytes = MappedBytes(copying: TableText.encode(tsv))
    let text = try TableText.decode(bytes.buffer, section: "TEST", fileOffset: 0)
    #expect(text == "type\ttable\tgroup\ncafe\tA\tfood\nbar\tA\tfood\nx\t\t\n")
    let truncated = MappedBytes(copying: Array(TableText.encode(tsv).dropLast()))
    expectCorrupt("TEST") {
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
          ? [AddressComponent(kind: .streetNumber, longText: "\(i)", shortText: "\(i)")] : [])
      p.nameWordCount = words + i % 2
      content.places.append(p)
      content.placeTerms.append(["p\(i)"])
      content.placeContextTerms.append([])
    }
    let f = try open(content)
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
  /// The file whose bytes the tables view: kept, or the views would read freed memory (a test
  /// that opened a temporary file once read garbage under load).
  let file: IndexFile
  let places: PlaceTable
  let ids: PlaceIDTable
  let types: TypeTable

  init(_ f: IndexFile) throws {
    file = f
    func bytes(_ kind: SectionKind) throws -> (UnsafeRawBufferPointer, Int) {
      let (s, b) = try f.requiredBytes(kind)
      return (b, s.offset)
    }
    let (sb, so) = try bytes(.strings)
    let strings = try StringTable(sb, fileOffset: so)
    let (cb, co) = try bytes(.contexts)
    let contexts = try ContextTable(cb, fileOffset: co, stringCount: strings.count)
    let (yb, yo) = try bytes(.types)
    types = try TypeTable(yb, fileOffset: yo, strings: strings)
    let (pb, po) = try bytes(.places)
    places = try PlaceTable(
      pb, fileOffset: po, contexts: contexts, importance: try bytes(.importance),
      ids: try bytes(.placeIDs), stringCount: strings.count, typeListCount: types.lists.count)
    ids = places.ids
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

/// The record table (RecordTable.swift) that holds PLACES: records without lengths, found
/// through group and block offsets.
@Suite struct RecordTableTests {
  /// Records of the toy format "n, then n varints": a reader that skips one.
  static func skip(_ r: inout ByteReader) throws(IndexFormatError) {
    for _ in 0..<(try r.varint(below: 1 << 20)) { try r.skipVarint() }
  }

  /// The record at `index`, read through its block's offset and the records before it.
  static func record(_ table: RecordTable, _ index: Int) throws -> [UInt64] {
    var (r, before) = try table.blockStart(index)
    for _ in 0..<before { try skip(&r) }
    return try (0..<(try r.varint())).map { _ in try r.varint() }
  }

  static func encode(_ values: [UInt64]) -> [UInt8] {
    var w = ByteWriter()
    w.varint(values.count)
    for v in values { w.varint(v) }
    return w.bytes
  }

  /// Golden bytes: six records of one and two bytes, one group of 64, two blocks.
  @Test func bytesMatchTheDocumentedLayout() throws {
    var writer = RecordTableWriter()
    for values: [UInt64] in [[], [1], [], [2], [3], [300]] { writer.append(Self.encode(values)) }
    var expected: [UInt8] = [6, 0, 0, 0]  // u32 count
    expected += [64, 0, 0, 0]  // u32 group size
    expected += [0, 0, 0, 0]  // group 0 at offset 0
    expected += [0, 0, 6, 0]  // u16 block offsets: block 0 at 0, block 1 at 6 in its group
    expected += [0, 1, 1, 0, 1, 2]  // records 0-3: [], [1], [], [2]
    expected += [1, 3, 1, 0xAC, 0x02]  // records 4-5: [3], [300]
    #expect(writer.bytes == expected)
    let mapped = MappedBytes(copying: expected)
    let table = try RecordTable(ByteReader(mapped.buffer, section: "TEST"))
    #expect(try Self.record(table, 5) == [300] && Self.record(table, 3) == [2])
  }

  /// Seeded property test: records of random sizes come back by index; records too large for
  /// 16-bit block offsets in groups of 64 make the writer take smaller groups.
  @Test(arguments: [(1, 10), (9, 10), (130, 20), (300, 900), (77, 4000)])
  func recordsComeBackByIndex(count: Int, maxValues: Int) throws {
    var rng = SplitMix64(seed: UInt64(count * 31 + maxValues))
    let records: [[UInt64]] = (0..<count).map { _ in
      (0..<Int(rng.next() % UInt64(maxValues))).map { _ in rng.next() >> (rng.next() % 64) }
    }
    var writer = RecordTableWriter()
    for r in records { writer.append(Self.encode(r)) }
    let mapped = MappedBytes(copying: writer.bytes)
    let table = try RecordTable(ByteReader(mapped.buffer, section: "TEST"))
    #expect(table.count == count)
    // Up to 4,000 varints of up to 10 bytes: groups of 64 records overflow 16 bits.
    #expect(maxValues < 900 ? table.groupSize == 64 : table.groupSize < 64)
    for i in 0..<count { #expect(try Self.record(table, i) == records[i]) }
    var seen = 0
    try table.forEach { (i, r) throws(IndexFormatError) in
      try Self.skip(&r)
      seen += 1
    }
    #expect(seen == count)
    expectCorrupt("TEST") { try Self.record(table, count) }
  }

  /// A block offset that points inside a record, and bytes after the last record, fail the
  /// walk that verify uses.
  @Test func aWrongBlockOffsetOrTrailingBytesFailTheWalk() throws {
    var writer = RecordTableWriter()
    for values: [UInt64] in [[1], [2], [3], [4], [5, 6], [7]] {
      writer.append(Self.encode(values))
    }
    var bytes = writer.bytes
    let blockOffsets = 12
    bytes[blockOffsets + 2] += 1  // block 1 now starts one byte into record 4
    for damaged in [bytes, writer.bytes + [0]] {
      let mapped = MappedBytes(copying: damaged)
      let table = try RecordTable(ByteReader(mapped.buffer, section: "TEST"))
      expectCorrupt("TEST") {
        try table.forEach { (_, r) throws(IndexFormatError) in try Self.skip(&r) }
      }
    }
  }
}
