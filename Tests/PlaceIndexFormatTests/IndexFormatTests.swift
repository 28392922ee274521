import Foundation
import PlaceCore
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// A tiny index image with three places (one an address), for layout and error tests.
func tinyImage(extraSection: UInt32? = nil) -> [UInt8] {
  var content = IndexContent()
  content.places = [
    PlaceRecord(
      osmKind: 0, osmID: 240_109_189, latitudeE7: 471_410_000, longitudeE7: 95_209_000,
      importance: 9000, typeList: 0, primaryText: "Café Zürich",
      secondaryParts: ["Vaduz", "Liechtenstein"], countryCode: "LI",
      names: [LocalizedName(language: "en", name: "Zurich Cafe")],
      components: [AddressComponent(kind: .country, longText: "Liechtenstein", shortText: "LI")]),
    PlaceRecord(
      osmKind: 1, osmID: 4444, latitudeE7: -337_000_000, longitudeE7: 1_512_000_000,
      importance: 100, typeList: 1, primaryText: "Main Street", secondaryParts: [],
      countryCode: "", names: [], components: []),
    PlaceRecord(
      osmKind: 0, osmID: 77, latitudeE7: 471_390_000, longitudeE7: 95_220_000,
      importance: 50, typeList: 1, primaryText: "Kanalstrasse 18",
      secondaryParts: ["9490 Vaduz", "Liechtenstein"], countryCode: "LI", names: [],
      components: [
        AddressComponent(kind: .streetNumber, longText: "18", shortText: "18"),
        AddressComponent(kind: .route, longText: "Kanalstrasse", shortText: "Kanalstrasse"),
        AddressComponent(kind: .locality, longText: "Vaduz", shortText: "Vaduz"),
        AddressComponent(kind: .country, longText: "Liechtenstein", shortText: "LI"),
        AddressComponent(kind: .postalCode, longText: "9490", shortText: "9490"),
      ]),
  ]
  content.placeTerms = [
    ["cafe", "zurich", "zuerich"], ["main", "street", "st"], ["kanalstrasse", "18"],
  ]
  content.placeContextTerms = [
    ["vaduz", "liechtenstein"], [], ["9490", "vaduz", "liechtenstein"],
  ]
  content.typeNames = ["cafe", "food", "route"]
  content.typeLists = [[0, 1], [2]]
  content.metadataJSON = Array(#"{"source":"tiny"}"#.utf8)
  content.vocabularyTSV = "type\ttable\tgroup\tgeneric\n"
  content.dataTimestamp = 1_600_000_000
  return try! IndexImageWriter.image(content).bytes
}

func open(_ bytes: [UInt8], path: String = "tiny.placeidx") throws -> IndexFile {
  try IndexFile(bytes: MappedBytes(copying: bytes), path: path)
}

/// The index image of `content`, opened.
func open(_ content: IndexContent, path: String = "tiny.placeidx") throws -> IndexFile {
  try open(try IndexImageWriter.image(content).bytes, path: path)
}

@Suite struct IndexFormatTests {
  @Test func headerBytesMatchTheDocumentedLayout() throws {
    let b = tinyImage()
    #expect(Array(b[0..<8]) == [0x89, 0x50, 0x4C, 0x49, 0x44, 0x58, 0x0D, 0x0A])
    #expect(b[8] == 9 && b[9] == 0)  // major 9, little-endian
    #expect(b[10] == 0 && b[11] == 0)  // minor 0
    let length = b[16..<24].enumerated().reduce(UInt64(0)) {
      $0 | UInt64($1.element) << (8 * UInt64($1.offset))
    }
    #expect(length == UInt64(b.count))
    let count = Int(b[24]) | Int(b[25]) << 8
    #expect(count == SectionKind.allCases.count)
    let stamp = b[32..<40].enumerated().reduce(UInt64(0)) {
      $0 | UInt64($1.element) << (8 * UInt64($1.offset))
    }
    #expect(stamp == 1_600_000_000)
    // Section table entries are sorted by kind and sections are 8-byte aligned.
    let f = try open(b)
    #expect(f.sections.map(\.kind) == f.sections.map(\.kind).sorted())
    for s in f.sections { #expect(s.offset % 8 == 0) }
    try f.verifyChecksums()
  }

  @Test func buildsAreDeterministic() {
    #expect(tinyImage() == tinyImage())
  }

  @Test func roundTripsPlacesTokensAndStrings() throws {
    let f = try open(tinyImage())
    let (sb, so) = try sectionBytes(f, .strings)
    let strings = try StringTable(sb, fileOffset: so)
    let (tb, to) = try sectionBytes(f, .tokens)
    let tokens = try TokenDictionary(tb, fileOffset: to)
    #expect(tokens.count == 11)
    #expect(try tokens.prefixRange("zu").count == 2)
    #expect(try tokens.exactID("street") != nil)
    #expect(try tokens.exactID("stree") == nil)
    let (cb, co) = try sectionBytes(f, .contexts)
    let contexts = try ContextTable(cb, fileOffset: co, stringCount: strings.count)
    let (pb, po) = try sectionBytes(f, .places)
    let places = try PlaceTable(
      pb, fileOffset: po, contexts: contexts, importance: try sectionBytes(f, .importance),
      ids: try sectionBytes(f, .placeIDs), stringCount: strings.count, typeListCount: 2)
    let e = try places.entry(0)
    #expect(e.osmID == 240_109_189 && e.osmKind == 0)
    #expect(try strings.string(e.primaryText) == "Café Zürich")
    #expect(try e.secondaryParts.map { try strings.string($0) } == ["Vaduz", "Liechtenstein"])
    // A place's words come back from the postings, by part.
    let (qb, qo) = try sectionBytes(f, .postings)
    let postings = try Postings(qb, fileOffset: qo, placeCount: places.count)
    func words(of place: Int, _ part: PostingsPart) throws -> [String] {
      var out: [String] = []
      for t in 0..<tokens.count {
        var c = try postings.list(t, part)
        while let p = try c.next() {
          if p == place { out.append(try tokens.token(t)) }
        }
      }
      return out.sorted()
    }
    #expect(try words(of: 0, .name) == ["cafe", "zuerich", "zurich"])
    #expect(try words(of: 0, .context) == ["liechtenstein", "vaduz"])
    #expect(try words(of: 0, .alternative) == [])
    let e1 = try places.entry(1)
    #expect(e1.latitudeE7 == -337_000_000 && e1.longitudeE7 == 1_512_000_000)
    let ids = places.ids
    #expect(try ids.placeIndex(kind: 1, id: 4444) == 1)
    #expect(try ids.placeIndex(kind: 0, id: 4444) == nil)
    #expect(try ids.placeIndex(kind: 0, id: 77) == 2)
    try ids.verify()
    // An address's texts are stored as the street and number strings, not as new strings.
    let e2 = try places.entry(2)
    #expect(try strings.string(e2.primaryText) == "Kanalstrasse 18")
    #expect(e2.primaryText.second != nil)
    #expect(
      try e2.secondaryParts.map { try strings.string($0) } == ["9490 Vaduz", "Liechtenstein"])
    #expect(
      try e2.components.map { "\($0.kind):\(try strings.string($0.long))" } == [
        "streetNumber:18", "route:Kanalstrasse", "locality:Vaduz", "country:Liechtenstein",
        "postalCode:9490",
      ])
    let all = try (0..<strings.count).map { try strings.string($0) }
    #expect(!all.contains("Kanalstrasse 18") && !all.contains("9490 Vaduz"))
    #expect(all == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    try strings.verify()
    try contexts.verify()
    try places.verify()
  }

  func sectionBytes(_ f: IndexFile, _ kind: SectionKind) throws -> (UnsafeRawBufferPointer, Int) {
    let (s, b) = try f.requiredBytes(kind)
    return (b, s.offset)
  }

  /// The tiny image's places in rank order are N240109189, W4444 and N77: with an id limit of
  /// 240109190, keys 240109189, 240109190 + 4444 = 240113634 and 77, two runs (77 is below the
  /// key before it). Two runs over a universe of 240113635 for three places leave 27 low bits
  /// and a span of (240113634 >> 27) + 1 = 2, so the high parts are 0 · 2 + 1, 0 · 2 + 1 and
  /// 1 · 2 + 0, setting bits 1, 1 + 1 and 2 + 2.
  @Test func placeIDsBytesMatchTheDocumentedLayout() throws {
    let file = try open(tinyImage())
    let (b, _) = try sectionBytes(file, .placeIDs)
    let expected: [UInt8] =
      [3, 0, 0, 0, 27, 0, 0, 0]  // count, low bits, zero
      + [2, 0, 0, 0, 1, 0, 0, 0]  // two runs, one word of high bits
      + [134, 198, 79, 14, 0, 0, 0, 0]  // id limit 240109190
      + [2, 0, 0, 0, 0, 0, 0, 0]  // span
      + [1, 0, 0, 0]  // sample 0: place 0's bit is bit 1
      + [0b1_0110, 0, 0, 0, 0, 0, 0, 0]  // bits 1, 2 and 4
      // (240109189 - 2^27) | (240113634 - 2^27) << 27 | 77 << 54, in 81 bits
      + [0x85, 0xC6, 0x4F, 0x16, 0xBF, 0x7E, 0x72, 0x13, 0x00, 0x00, 0x00]
    #expect(Array(b) == expected)
    let mapped = MappedBytes(copying: Array(b))
    let ids = try PlaceIDTable(mapped.buffer, fileOffset: 0, placeCount: 3)
    #expect(try ids.element(0) == (0, 240_109_189) && ids.element(1) == (1, 4444))
    #expect(try ids.element(2) == (0, 77) && ids.placeIndex(kind: 1, id: 4444) == 1)
  }

  /// A derived postcode's key is kind 3 (format 8.0): ids 5 (node), 5 (way) and 9 (postcode)
  /// with an id limit of 10 are keys 5, 15 and 39; each reads back with its kind, is found by
  /// kind and id, and verifies. A key of kind 4 (id limit 10, key 40 and more) is a fault.
  @Test func postcodeKeysAreKindThree() throws {
    func place(_ kind: UInt8, _ id: Int64) -> PlaceRecord {
      PlaceRecord(
        osmKind: kind, osmID: id, latitudeE7: 0, longitudeE7: 0, importance: 0, typeList: 0,
        primaryText: "p", secondaryParts: [], countryCode: "", names: [], components: [])
    }
    let places = [place(0, 5), place(1, 5), place(PlaceID.Kind.postcode.rawValue, 9)]
    let mapped = MappedBytes(copying: PlaceIDTableWriter.serialize(places))
    let ids = try PlaceIDTable(mapped.buffer, fileOffset: 0, placeCount: 3)
    try ids.verify()
    #expect(try ids.element(2) == (3, 9) && ids.placeIndex(kind: 3, id: 9) == 2)
    #expect(try ids.placeIndex(kind: 3, id: 5) == nil && ids.placeIndex(kind: 4, id: 9) == nil)
    #expect(PlaceRecord.placeID(kind: 3, id: 9) == "P9" && PlaceID("P9")?.kind == .postcode)
    // Key 39 + 10 = 49 (the id limit at offset 16 is 10): kind 4.
    var b = PlaceIDTableWriter.serialize([place(0, 5), place(1, 5), place(3, 9)])
    let limit = b[16..<24].enumerated().reduce(UInt64(0)) {
      $0 | UInt64($1.element) << (8 * $1.offset)
    }
    #expect(limit == 10)
    b[16] = 9  // id limit 9: key 39 is kind 4, id 3
    let bad = MappedBytes(copying: b)
    let wrong = try PlaceIDTable(bad.buffer, fileOffset: 0, placeCount: 3)
    #expect { try wrong.verify() } throws: { "\($0)".contains("element kind 4") }
  }

  /// Each fault of the PLACE IDS layout above, made in the tiny image's section, is named by
  /// verify.
  @Test(arguments: [
    (32, [0], "sample 0"), (36, [0b1001_0110], "bits set"),
    (44, [0xFF, 0xFF, 0xFF, 0x17], "keys not increasing"),  // place 0's low part 2^27 - 1
    (36, [0b1000_0110], "run 2 of 2"),  // place 2's high part 5: bits 1, 2, 7
    (16, [1, 0, 0, 0], "element kind 240109189"),  // id limit 1
  ])
  func placeIDsFaultsAreNamed(at: Int, bytes: [UInt8], reason: String) throws {
    let file = try open(tinyImage())
    var b = Array(try sectionBytes(file, .placeIDs).0)
    b.replaceSubrange(at..<(at + bytes.count), with: bytes)
    let mapped = MappedBytes(copying: b)
    let ids = try PlaceIDTable(mapped.buffer, fileOffset: 0, placeCount: 3)
    #expect {
      try ids.verify()
    } throws: {
      "\($0)".contains(reason) && "\($0)".contains("PLACE IDS")
    }
  }

  /// A sample that points before the bits of the places ahead of its own (sample 1, place 64,
  /// made to point at bit 0) gives a typed error, not a negative high part.
  @Test func aSampleBehindItsPlaceIsAnError() throws {
    let places = (0..<70).map { i in
      PlaceRecord(
        osmKind: 0, osmID: Int64(1_000 * i), latitudeE7: 0, longitudeE7: 0, importance: 0,
        typeList: 0, primaryText: "p", secondaryParts: [], countryCode: "", names: [],
        components: [])
    }
    var b = PlaceIDTableWriter.serialize(places)
    let good = MappedBytes(copying: b)
    #expect(try PlaceIDTable(good.buffer, fileOffset: 0, placeCount: 70).element(64) == (0, 64_000))
    b.replaceSubrange(36..<40, with: [0, 0, 0, 0])
    let bad = MappedBytes(copying: b)
    let ids = try PlaceIDTable(bad.buffer, fileOffset: 0, placeCount: 70)
    expectCorrupt("PLACE IDS") { try ids.element(64) }
    expectCorrupt("PLACE IDS") { try ids.verify() }
  }

  /// Two places with one key (a writer fault) fail verification.
  @Test func aKeyGivenTwiceFailsVerification() throws {
    let place = PlaceRecord(
      osmKind: 0, osmID: 5, latitudeE7: 0, longitudeE7: 0, importance: 0, typeList: 0,
      primaryText: "p", secondaryParts: [], countryCode: "", names: [], components: [])
    let mapped = MappedBytes(copying: PlaceIDTableWriter.serialize([place, place]))
    let ids = try PlaceIDTable(mapped.buffer, fileOffset: 0, placeCount: 2)
    #expect(try ids.element(0) == (0, 5) && ids.element(1) == (0, 5))
    #expect {
      try ids.verify()
    } throws: {
      "\($0)".contains("key 5 given to two places")
    }
  }

  @Test func wrongMagicIsNotAnIndex() {
    var b = tinyImage()
    b[1] = 0x51
    #expect(throws: IndexFormatError.notAnIndex(path: "tiny.placeidx")) { try open(b) }
  }

  @Test func otherMajorVersionIsRefusedNamingBoth() {
    var b = tinyImage()
    b[8] = 3
    #expect(
      throws: IndexFormatError.unsupportedVersion(
        path: "tiny.placeidx", expected: 9, got: 3, gotMinor: IndexLayout.minorVersion)
    ) {
      try open(b)
    }
    let message = IndexFormatError.unsupportedVersion(path: "x", expected: 2, got: 1, gotMinor: 0)
      .description
    #expect(message.contains("1.0") && message.contains("2.x"))
  }

  @Test func newerMinorVersionAndUnknownSectionsAreAccepted() throws {
    var w = IndexFileWriter()
    w.add(.metadata, [1, 2, 3])
    w.add(rawKind: 999, [9, 9])
    var b = w.image()
    b[10] = 7  // minor 7
    // Re-seal the header checksum after editing the minor version.
    let crc = b.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<60])) }
    for i in 0..<4 { b[60 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    let f = try open(b)
    #expect(f.minor == 7)
    #expect(f.sections.count == 2)
    #expect(f.section(.metadata) != nil)
  }

  @Test func truncationAtEverySectionBoundaryIsATypedError() throws {
    let b = tinyImage()
    let f = try open(b)
    var cuts =
      [0, 4, 8, 63, 64, 70] + f.sections.flatMap { [$0.offset, $0.offset + $0.length / 2] }
    cuts.append(b.count - 1)
    for cut in cuts where cut < b.count {
      #expect {
        try open(Array(b[0..<cut]))
      } throws: { error in
        // Cut in the magic bytes: not an index; past them: shorter than the header says.
        switch error as? IndexFormatError {
        case .truncated?, .notAnIndex?: true
        default: false
        }
      }
    }
  }

  @Test func aFlippedByteInEachSectionIsNamedByVerify() throws {
    let b = tinyImage()
    let f = try open(b)
    for s in f.sections where s.length > 0 {
      var c = b
      c[s.offset + s.length / 2] ^= 0x40
      let g = try open(c)
      #expect(
        throws: IndexFormatError.checksumMismatch(
          path: "tiny.placeidx", section: s.name, expected: s.checksum,
          actual: CRC32.checksum(Array(c[s.offset..<(s.offset + s.length)])))
      ) {
        try g.verifyChecksums()
      }
    }
  }

  @Test func crc32MatchesTheStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  @Test func varintsRoundTripAndOverlongOnesFail() throws {
    var w = ByteWriter()
    let values: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, UInt64.max]
    for v in values { w.varint(v) }
    w.zigzag(-5)
    let written = MappedBytes(copying: w.bytes)
    var r = ByteReader(written.buffer, section: "TEST")
    for v in values { #expect(try r.varint() == v) }
    #expect(try r.zigzag() == -5)
    expectCorrupt("TEST") { try r.varint() }
    let overlong = MappedBytes(copying: [UInt8](repeating: 0xFF, count: 11))
    var o = ByteReader(overlong.buffer, section: "TEST")
    expectCorrupt("TEST") { try o.varint() }
  }

  /// Golden bytes: the documented TOKENS layout (TokenDictionary.swift) for "ab", "abc", "abd":
  /// the first token as it is, the others' heads, then their suffixes in one coded stream.
  @Test func tokenBytesMatchTheDocumentedLayout() throws {
    let bytes = TokenDictionaryWriter.serialize(["ab", "abc", "abd"])
    var expected: [UInt8] = [3, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0]  // count, block size, blocks
    expected += [0, 0, 0, 0]  // block 0 at offset 0
    // The suffixes "c" and "d" and the end symbol: c takes 1 bit (0), d and the end symbol 2
    // bits (10, 11), the end symbol the last code.
    var lengths = [UInt8](repeating: 0, count: 257)
    lengths[0x63] = 1
    lengths[0x64] = 2
    lengths[256] = 2
    expected += lengths
    expected += [2, 0x61, 0x62]  // the first token: length 2, "ab"
    expected += [2 << 4 | 1, 2 << 4 | 1]  // "abc", "abd": 2 bytes shared, a 1-byte suffix
    expected += [0b0101_1111]  // c = 0, d = 10, then 1 bits to the byte's end
    #expect(bytes == expected)
    let mapped = MappedBytes(copying: bytes)
    let dict = try TokenDictionary(mapped.buffer, fileOffset: 0)
    #expect(try (0..<3).map { try dict.token($0) } == ["ab", "abc", "abd"])
    // A stream that ends before its suffixes is an error, not a short token.
    let cut = MappedBytes(copying: Array(bytes.dropLast()))
    let damaged = try TokenDictionary(cut.buffer, fileOffset: 0)
    expectCorrupt("TOKENS") { try damaged.token(2) }
  }

  /// Token heads at the edges of their one-byte form: suffixes of 14, 15 and 16 bytes, shared
  /// prefixes of 7, 8 and 16 bytes.
  @Test func tokenHeadsAtTheirLimitsReadBack() throws {
    let y15 = String(repeating: "y", count: 15)
    let tokens = [
      "k", "k" + String(repeating: "w", count: 15), "k" + String(repeating: "x", count: 14),
      "k" + y15,
      "k" + y15 + String(repeating: "z", count: 16),
      "kyyyyyy", "kyyyyyya", "kyyyyyyab",
    ].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let bytes = MappedBytes(copying: TokenDictionaryWriter.serialize(tokens))
    let dict = try TokenDictionary(bytes.buffer, fileOffset: 0)
    var shares: [Int] = []
    try dict.scanBlock(0) { id, token, shared in
      #expect(token == Array(tokens[id].utf8))
      shares.append(shared)
      return true
    }
    #expect(shares == [0, 1, 1, 1, 7, 8, 7, 16])
    for (i, t) in tokens.enumerated() { #expect(try dict.exactID(t) == i) }
  }

  /// Seeded property test: prefix enumeration equals a brute-force filter of the sorted list.
  @Test(arguments: [1, 7, 42, 2026])
  func prefixRangesEqualBruteForce(seed: UInt64) throws {
    var rng = SplitMix(seed: seed)
    let alphabet = Array("abcdeäöz0129/-")
    var set = Set<String>()
    // Mostly short words; some long ones, and some sharing a long stem, so that shared
    // prefixes of 8 bytes or more and suffixes of 15 or more take their longer heads.
    let stem = "abcdeabcdeabcde"
    for _ in 0..<Int(rng.next() % 400 + 1) {
      let n = rng.next() % 5 == 0 ? Int(rng.next() % 40 + 1) : Int(rng.next() % 8 + 1)
      let word = String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
      set.insert(rng.next() % 4 == 0 ? stem + word : word)
    }
    let sorted = set.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let bytes = MappedBytes(copying: TokenDictionaryWriter.serialize(sorted))
    let dict = try TokenDictionary(bytes.buffer, fileOffset: 0)
    #expect(dict.count == sorted.count)
    for (i, t) in sorted.enumerated() {
      #expect(try dict.token(i) == t)
      #expect(try dict.exactID(t) == i)
    }
    // A block scan reports each token's prefix shared with the one before (0 for a block's
    // first), which the typo search relies on.
    for b in 0..<((sorted.count + dict.blockSize - 1) / dict.blockSize) {
      try dict.scanBlock(b) { id, token, shared in
        let before = id % dict.blockSize == 0 ? [] : Array(sorted[id - 1].utf8)
        #expect(shared == zip(before, token).prefix { $0 == $1 }.count)
        #expect(token == Array(sorted[id].utf8))
        return true
      }
    }
    for _ in 0..<100 {
      let n = Int(rng.next() % 4)
      let prefix = String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
      let expected = sorted.indices.filter { sorted[$0].utf8.starts(with: prefix.utf8) }
      let got = try dict.prefixRange(prefix)
      #expect(Array(got) == expected, "prefix '\(prefix)'")
      #expect(try dict.exactID(prefix) == sorted.firstIndex(of: prefix), "exact '\(prefix)'")
      // The galloping search from any block up to the one of the first token >= the prefix
      // lands on the last block whose first token is at most the prefix.
      let lower =
        sorted.firstIndex { !$0.utf8.lexicographicallyPrecedes(prefix.utf8) }
        ?? sorted.count
      let from = Int(rng.next() % UInt64(lower / dict.blockSize + 1))
      let start = try dict.blockStart(atMost: Array(prefix.utf8), fromBlock: from)
      #expect(start % dict.blockSize == 0 && start <= lower, "from block \(from): \(start)")
      #expect(lower - start <= dict.blockSize, "'\(prefix)' from block \(from): \(start)")
      let heads = stride(from: from * dict.blockSize, to: sorted.count, by: dict.blockSize)
      let atMost = heads.filter { !prefix.utf8.lexicographicallyPrecedes(sorted[$0].utf8) }
      #expect(start == (atMost.last ?? from * dict.blockSize), "from block \(from)")
    }
  }

  /// Seeded property test: cursors over several dictionaries, moved on by random steps and
  /// seeks (``TokenCursor``), and their union (``TokenUnion``), give what the sorted lists
  /// give: the first token at least the key from where the cursor stood, within its range;
  /// the union's least token and every dictionary that holds it.
  @Test(arguments: [5, 77, 2026])
  func tokenCursorsAndTheirUnionEqualTheSortedLists(seed: UInt64) throws {
    var rng = SplitMix(seed: seed)
    let alphabet = Array("abcdeäz0/")
    func word() -> String {
      let n = Int(rng.next() % 6 + 1)
      return String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
    }
    // Three dictionaries that share some words (a common pool) and hold some of their own.
    let pool = (0..<300).map { _ in word() }
    let lists: [[String]] = (0..<3).map { _ in
      Set(
        pool.filter { _ in rng.next() % 2 == 0 } + (0..<Int(rng.next() % 200)).map { _ in word() }
      )
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
    let mapped = lists.map { MappedBytes(copying: TokenDictionaryWriter.serialize($0)) }
    let dicts = try mapped.map { try TokenDictionary($0.buffer, fileOffset: 0) }
    var seeks = 0
    for _ in 0..<40 {
      let ranges = lists.map { list -> Range<Int> in
        let a = Int(rng.next() % UInt64(list.count + 1))
        return a..<(a + Int(rng.next() % UInt64(list.count - a + 1)))
      }
      // One cursor, stepped and seeked.
      let s = Int(rng.next() % 3)
      var cursor = try TokenCursor(dicts[s], range: ranges[s], source: s)
      var at = ranges[s].lowerBound
      while !cursor.done {
        #expect(cursor.id == at)
        #expect(cursor.withToken { Array($0) } == Array(lists[s][at].utf8))
        if rng.next() % 2 == 0 {
          try cursor.advance()
          at += 1
        } else {
          let key = Array(word().utf8)
          try cursor.seek(atLeast: key)
          at =
            (at..<ranges[s].upperBound).first { !lists[s][$0].utf8.lexicographicallyPrecedes(key) }
            ?? ranges[s].upperBound
          seeks += 1
        }
      }
      #expect(at == ranges[s].upperBound)
      // The union of all three, seeked now and then.
      var union = TokenUnion(
        try dicts.indices.map { try TokenCursor(dicts[$0], range: ranges[$0], source: $0) })
      var floor: [UInt8] = []
      var holders: [Int] = []
      var token: [UInt8] = []
      while !union.isEmpty {
        union.popLeast(into: &holders, token: &token)
        // Each dictionary's first token at least the floor, in its range.
        let next = lists.indices.compactMap { d -> (d: Int, id: Int)? in
          ranges[d].first { !lists[d][$0].utf8.lexicographicallyPrecedes(floor) }.map { (d, $0) }
        }
        let texts = next.map { Array(lists[$0.d][$0.id].utf8) }
        #expect(token == texts.min { $0.lexicographicallyPrecedes($1) })
        let holding = next.indices.filter { texts[$0] == token }.map { next[$0] }
        #expect(holders.map { union.at($0).source } == holding.map(\.d))
        #expect(holders.map { union.at($0).id } == holding.map(\.id))
        try union.advance(holders)
        floor = token + [0]
        if rng.next() % 3 == 0 {
          let key = Array(word().utf8)
          if floor.lexicographicallyPrecedes(key) { floor = key }
          try union.seek(atLeast: floor)
          seeks += 1
        }
      }
    }
    #expect(seeks > 50)
    // (The dictionaries read the mapped bytes to here.)
    withExtendedLifetime(mapped) {}
  }

  /// Seeded property test: the number prefix ranges that get NEAR LISTS
  /// (``NearListsWriter/numberRanges(_:without:entries:)``) are, among every byte prefix of
  /// the tokens that start with a digit, those of two tokens or more whose entries reach
  /// ``NearListsWriter/minimumPlaces``, but the ranges given as listed already; no token of
  /// letters is in one.
  @Test(arguments: [3, 31, 2026])
  func numberRangesAreTheHeavyPrefixesOfDigitTokens(seed: UInt64) throws {
    var rng = SplitMix(seed: seed)
    let digits = Array("0123456789")
    var set = Set<String>()
    for _ in 0..<400 {
      let n = Int(rng.next() % 4 + 1)
      var t = String((0..<n).map { _ in digits[Int(rng.next() % 10)] })
      if rng.next() % 5 == 0 { t += "a" }
      set.insert(rng.next() % 4 == 0 ? "st" + t : t)
    }
    let tokens = set.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    // Each token's entries: mostly 0 to 60, one in ten 600 to 1,400, so that one-digit
    // prefixes reach the minimum, some longer ones do and most do not.
    let weight = tokens.map { _ in
      rng.next() % 10 == 0 ? 600 + Int(rng.next() % 801) : Int(rng.next() % 61)
    }
    func entries(_ r: Range<Int>) -> Int { weight[r].reduce(0, +) }
    var expected = Set<Range<Int>>()
    for t in tokens where t.first!.isNumber {
      for length in 1...t.utf8.count {
        let prefix = Array(t.utf8.prefix(length))
        let r = tokens.indices.filter { tokens[$0].utf8.starts(with: prefix) }
        let range = r.first!..<(r.last! + 1)
        if range.count >= 2, entries(range) >= NearListsWriter.minimumPlaces {
          expected.insert(range)
        }
      }
    }
    // More than the ten one-digit prefixes.
    #expect(expected.count > 12, "\(expected.count) ranges")
    let listed = Set(expected.shuffled(using: &rng).prefix(2))
    let found = NearListsWriter.numberRanges(tokens, without: listed, entries: entries)
    #expect(Set(found) == expected.subtracting(listed))
    #expect(found.count == Set(found).count)
    #expect(found.allSatisfy { r in r.allSatisfy { tokens[$0].first!.isNumber } })
  }

  /// Seeded property test: postings lists come back as written.
  @Test(arguments: [3, 99])
  func postingsRoundTrip(seed: UInt64) throws {
    var rng = SplitMix(seed: seed)
    let placeCount = 5000
    let lists: [[Int]] = (0..<200).map { i in
      // Every fourth list is dense, so that both encodings are written.
      let n = i % 4 == 0 ? Int(rng.next() % 3000) : Int(rng.next() % 50)
      return Set((0..<n).map { _ in Int(rng.next() % UInt64(placeCount)) }).sorted()
    }
    // Token t's name list is lists[t], its alternative-name list lists[(t + 7) % 200] for
    // every third token, its context list lists[199 - t].
    let triples = lists.indices.map {
      [lists[$0], $0 % 3 == 0 ? lists[($0 + 7) % 200] : [], lists[199 - $0]]
    }
    let bytes = MappedBytes(
      copying: PostingsWriter.serialize(triples.map { ($0[0], $0[1], $0[2]) }))
    let p = try Postings(bytes.buffer, fileOffset: 0, placeCount: placeCount)
    try p.verify()
    for (t, triple) in triples.enumerated() {
      for part in PostingsPart.allCases {
        var c = try p.list(t, part)
        var got: [Int] = []
        while let v = try c.next() { got.append(v) }
        #expect(got == triple[part.rawValue])
      }
    }
  }
}

typealias SplitMix = SplitMix64

/// The format's size limits are refused with an error that names them, not a trap: a section
/// past its 32-bit offsets, a file past its place count.
@Suite struct FormatLimitTests {
  @Test func aSectionPastItsOffsetsIsRefusedNamingIt() throws {
    try IndexImageWriter.checkSectionSize(.postings, bytes: IndexLayout.maxSectionBytes)
    #expect(IndexLayout.maxSectionBytes == 4_294_967_295)
    #expect(
      throws: IndexWriterError(
        fault: .sectionTooLarge(
          section: "POSTINGS", bytes: IndexLayout.maxSectionBytes + 1,
          limit: IndexLayout.maxSectionBytes))
    ) {
      try IndexImageWriter.checkSectionSize(.postings, bytes: IndexLayout.maxSectionBytes + 1)
    }
    let message = IndexWriterError(
      fault: .sectionTooLarge(section: "PLACES", bytes: 5_000_000_000, limit: 4_294_967_295)
    ).description
    #expect(message.contains("PLACES") && message.contains("5000000000"))
    #expect(message.contains("shards"))
  }

  @Test func morePlacesThanAFileHoldsAreRefused() throws {
    try IndexImageWriter.checkPlaceCount(IndexLayout.maxPlaces)
    #expect(
      throws: IndexWriterError(
        fault: .tooManyPlaces(count: IndexLayout.maxPlaces + 1, limit: IndexLayout.maxPlaces))
    ) {
      try IndexImageWriter.checkPlaceCount(IndexLayout.maxPlaces + 1)
    }
    // PLACE IDS' high bits for that many places (about 3 a place) stay below 2^32.
    #expect(3 * IndexLayout.maxPlaces < 1 << 32)
  }
}
