import Foundation
import PlaceIndex
import PlaceIndexFormat
import Testing

/// `verify()` checks every rule docs/FORMAT.md states, each with a named fault
/// (`IndexFormatError.fault` carrying an `IndexFault`): META's schema, the section table's
/// order, alignment, sections that share bytes, and the places' rank order. Each case starts
/// from the real sample index (built with IndexBuilder) and breaks one rule with every
/// checksum made consistent, so that only the rule's check can refuse it.
@Suite("verify: the format's rules")
struct VerifyRulesTests {
  static let path = "rules.placeidx"

  /// The fault `verify()` reports for `bytes`, or nil when it passes; opening must succeed.
  /// The format's checks (`verifyFormat()`) name the fault; `verify()` must report it as an
  /// ``IndexProblem/invalid(section:offset:)`` of the file with the fault's words.
  func fault(_ bytes: [UInt8]) throws -> (section: String, offset: Int, fault: IndexFault)? {
    let index = try LoadedIndex(
      file: IndexFile(bytes: MappedBytes(copying: bytes), path: Self.path))
    let found: (section: String, offset: Int, fault: IndexFault)
    do throws(IndexFormatError) {
      try index.verifyFormat()
      #expect(throws: Never.self) { try index.verify() }
      return nil
    } catch {
      guard case .fault(_, let section, let offset, let f) = error else {
        Issue.record("verifyFormat threw \(error), not a named fault")
        return nil
      }
      found = (section, offset, f)
    }
    let expected = PlacesError.index(
      path: Self.path, problem: .invalid(section: found.section, offset: found.offset),
      reason: "invalid index: section \(found.section) at byte \(found.offset): \(found.fault)")
    #expect(throws: expected) { try index.verify() }
    return found
  }

  /// The sample index with META replaced by `meta`.
  func withMetadata(_ meta: String) throws -> [UInt8] {
    try CorruptIndexTests.replacingSection(.metadata, of: FuzzHarness.sampleIndexBytes) { _ in
      Array(meta.utf8)
    }
  }

  /// The sample's META as a JSON object with `change` applied.
  func sampleMetadata(_ change: (inout [String: Any]) -> Void) throws -> String {
    let file = try IndexFile(bytes: MappedBytes(copying: FuzzHarness.sampleIndexBytes), path: "s")
    let (_, bytes) = try file.requiredBytes(.metadata)
    var json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    change(&json)
    return String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
  }

  @Test("the intact sample index passes every rule")
  func intact() throws {
    #expect(try fault(FuzzHarness.sampleIndexBytes) == nil)
  }

  @Test("META decodes as IndexMetadata, which encodes back to the very bytes")
  func metadataRoundTrip() throws {
    let file = try IndexFile(bytes: MappedBytes(copying: FuzzHarness.sampleIndexBytes), path: "s")
    let (section, bytes) = try file.requiredBytes(.metadata)
    let metadata = try IndexMetadata(decoding: bytes, fileOffset: section.offset)
    #expect(metadata.encoded() == Array(bytes))
    #expect(metadata.attribution == IndexMetadata.openStreetMapAttribution)
    #expect(metadata.license == IndexMetadata.openStreetMapLicense)
    #expect(metadata.formatVersion == "\(file.major).\(file.minor)")
    let index = try LoadedIndex(file: file)
    #expect(metadata.placeCount == index.placeCount)
    #expect(try index.metadata.get() == metadata)
    #expect(index.info.source == metadata.source && index.info.options == metadata.options)
  }

  @Test("a META that does not decode is a corrupt META section; the index still opens")
  func metadataThatDoesNotDecode() throws {
    let cases: [(String, String)] = [
      ("", "the section is empty"),
      ("garbage", "not a JSON object"),
      ("[1,2]", "not a JSON object"),
      (#"{"source":"x"}"#, "no 'formatVersion' field"),
      (try sampleMetadata { $0["placeCount"] = "many" }, "'placeCount' has the wrong JSON type"),
    ]
    for (meta, reason) in cases {
      let bytes = try withMetadata(meta)
      let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: Self.path)
      let section = try #require(file.section(.metadata))
      let expected = IndexFormatError.corrupt(
        path: "", section: "META", offset: section.offset, reason: reason)
      #expect(throws: expected, "\(meta)") {
        _ = try IndexMetadata(decoding: file.bytes(of: section), fileOffset: section.offset)
      }
      let index = try LoadedIndex(file: file)
      #expect(throws: expected) { _ = try index.metadata.get() }
      #expect(index.info.source == nil && index.info.license == nil)
      #expect(index.info.attribution == IndexMetadata.openStreetMapAttribution)
    }
  }

  @Test("garbage, empty, non-object and truncated META are refused")
  func metadataNotJSON() throws {
    let cases: [(String, String)] = [
      ("", "the section is empty"),
      ("garbage", "malformed JSON: unexpected 'g' where a value should be at byte 0"),
      ("[1,2]", "the value is an array"),
      (#"{"source":"x""#, "malformed JSON: the text ends inside an object at byte 13"),
    ]
    for (meta, reason) in cases {
      let f = try fault(try withMetadata(meta))
      #expect(f?.section == "META")
      #expect(f?.fault == .metadataNotJSON(reason: reason), "\(meta)")
    }
  }

  @Test("META's fields: each listed one present, of its type, agreeing with the file")
  func metadataFields() throws {
    let missing = try withMetadata(try sampleMetadata { $0["license"] = nil })
    #expect(try fault(missing)?.fault == .metadataMissingField("license"))
    let wrongType = try withMetadata(try sampleMetadata { $0["placeCount"] = "many" })
    #expect(
      try fault(wrongType)?.fault
        == .metadataFieldType(field: "placeCount", expected: "a JSON integer"))
    let count = FuzzHarness.sampleClient.indexes[0].placeCount
    let wrongCount = try withMetadata(try sampleMetadata { $0["placeCount"] = count + 1 })
    #expect(
      try fault(wrongCount)?.fault
        == .metadataMismatch(
          field: "placeCount", stored: "\(count + 1)", actual: "\(count) places"))
    let wrongVersion = try withMetadata(try sampleMetadata { $0["formatVersion"] = "5.0" })
    #expect(
      try fault(wrongVersion)?.fault
        == .metadataMismatch(
          field: "formatVersion", stored: "\"5.0\"",
          actual: "version \(IndexLayout.majorVersion).\(IndexLayout.minorVersion)"))
    // More fields are allowed (a later minor version may add some).
    let extra = try withMetadata(try sampleMetadata { $0["builtBy"] = "tests" })
    #expect(try fault(extra) == nil)
  }

  /// The sample index with its section table rewritten by `edit` (entries as (kind, offset,
  /// length)), checksums recomputed.
  func withTable(_ edit: (inout [(kind: UInt32, offset: UInt64, length: UInt64)]) -> Void) throws
    -> [UInt8]
  {
    var b = FuzzHarness.sampleIndexBytes
    let file = try IndexFile(bytes: MappedBytes(copying: b), path: "s")
    var entries = file.sections.map {
      (kind: $0.kind, offset: UInt64($0.offset), length: UInt64($0.length))
    }
    edit(&entries)
    for (i, e) in entries.enumerated() {
      let at = IndexLayout.headerSize + i * IndexLayout.sectionEntrySize
      for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: e.kind >> (8 * UInt32(k))) }
      for k in 0..<8 { b[at + 8 + k] = UInt8(truncatingIfNeeded: e.offset >> (8 * UInt64(k))) }
      for k in 0..<8 { b[at + 16 + k] = UInt8(truncatingIfNeeded: e.length >> (8 * UInt64(k))) }
    }
    return try #require(FuzzHarness.repairingChecksums(b))
  }

  @Test("a section table not sorted by kind is refused")
  func unsortedTable() throws {
    // VOCABULARY (4) and ABBREVIATIONS (8) are decoded on first use only, so the file opens.
    let swapped = try withTable { t in
      let v = t.firstIndex { $0.kind == SectionKind.vocabulary.rawValue }!
      let a = t.firstIndex { $0.kind == SectionKind.abbreviations.rawValue }!
      t.swapAt(v, a)
    }
    let f = try #require(try fault(swapped))
    #expect(f.section == "SECTION TABLE")
    #expect(
      f.fault
        == .sectionsOutOfOrder(
          previousKind: SectionKind.abbreviations.rawValue,
          kind: SectionKind.places.rawValue))
  }

  @Test("a section that does not start on an 8-byte boundary is refused")
  func misaligned() throws {
    var start = 0
    let shifted = try withTable { t in
      let v = t.firstIndex { $0.kind == SectionKind.vocabulary.rawValue }!
      t[v].offset += 1
      t[v].length -= 1
      start = Int(t[v].offset)
    }
    let f = try #require(try fault(shifted))
    #expect(f.section == "VOCABULARY")
    #expect(f.fault == .misalignedSection(offset: start))
  }

  @Test("aliased and overlapping sections are refused")
  func overlapping() throws {
    var strings = (offset: 0, length: 0)
    // META aliased onto the STRINGS bytes (its JSON check would fail too; the layout check
    // runs first and names the aliasing).
    let aliased = try withTable { t in
      let m = t.firstIndex { $0.kind == SectionKind.metadata.rawValue }!
      let s = t.firstIndex { $0.kind == SectionKind.strings.rawValue }!
      t[m].offset = t[s].offset
      t[m].length = t[s].length
      strings = (Int(t[s].offset), Int(t[s].length))
    }
    let f = try #require(try fault(aliased))
    #expect(
      f.fault
        == .overlappingSections(
          other: "META", otherOffset: strings.offset, otherLength: strings.length)
        || f.fault
          == .overlappingSections(
            other: "STRINGS", otherOffset: strings.offset, otherLength: strings.length)
    )
    // META grown by 8 bytes into the section after it.
    var meta = (offset: 0, length: 0)
    let grown = try withTable { t in
      let m = t.firstIndex { $0.kind == SectionKind.metadata.rawValue }!
      t[m].length += 8
      meta = (Int(t[m].offset), Int(t[m].length))
    }
    let g = try #require(try fault(grown))
    #expect(
      g.fault
        == .overlappingSections(other: "META", otherOffset: meta.offset, otherLength: meta.length))
  }

  @Test("places out of importance order are refused by verify")
  func importanceOrder() throws {
    // IMPORTANCE with its runs' values reversed: the least important first.
    let file = try IndexFile(bytes: MappedBytes(copying: FuzzHarness.sampleIndexBytes), path: "s")
    let (s, b) = try file.requiredBytes(.importance)
    let table = try ImportanceTable(
      b, fileOffset: s.offset, placeCount: FuzzHarness.sampleClient.indexes[0].placeCount)
    let runs = Int(b.load(fromByteOffset: 0, as: UInt32.self).littleEndian)
    try #require(runs >= 2, "the sample index has one importance value: nothing to reorder")
    // Each run's value and the first rank of the second, from the public per-rank decoding.
    let byRank = try table.decodeAll()
    var values: [UInt16] = [byRank[0]]
    var secondRank = 0
    for rank in byRank.indices.dropFirst() where byRank[rank] != byRank[rank - 1] {
      if values.count == 1 { secondRank = rank }
      values.append(byRank[rank])
    }
    try #require(values.count == runs)
    let reversed = try CorruptIndexTests.replacingSection(
      .importance, of: FuzzHarness.sampleIndexBytes
    ) { section in
      var out = Array(section[0..<(4 + 4 * runs)])
      for v in values.reversed() { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
      return out
    }
    let f = try #require(try fault(reversed))
    #expect(f.section == "IMPORTANCE")
    #expect(
      f.fault
        == .placesOutOfImportanceOrder(
          rank: secondRank, previous: values[runs - 1], importance: values[runs - 2]))
  }

  /// The sample's TERMS rewritten with `change` applied to each place's lists (name,
  /// alternative, context, each ascending), every checksum consistent.
  func withTerms(_ change: @escaping (Int, inout [[Int]]) -> Void) throws -> [UInt8] {
    let file = try IndexFile(bytes: MappedBytes(copying: FuzzHarness.sampleIndexBytes), path: "s")
    let (s, b) = try file.requiredBytes(.terms)
    let (_, tb) = try file.requiredBytes(.tokens)
    let dictionary = try TokenDictionary(tb, fileOffset: 0)
    let tokenCount = dictionary.count
    // The builder's split of a name's tokens (shared, or its own), which NAME STARTS counts in.
    let own = try (0..<tokenCount).map { TermListsWriter.isOwn(try dictionary.tokenBytes($0)) }
    let placeCount = FuzzHarness.sampleClient.indexes[0].placeCount
    let table = try TermLists(
      b, fileOffset: s.offset, placeCount: placeCount, tokenCount: tokenCount)
    var lists: [[[Int]]] = []
    var t = PlaceTerms()
    for rank in 0..<placeCount {
      try table.terms(of: rank, into: &t)
      let ints = t.tokens.map(Int.init)
      var parts = [
        ints[..<t.nameEnd].sorted(), ints[t.nameEnd..<t.alternativeEnd].sorted(),
        ints[t.alternativeEnd...].sorted(),
      ]
      change(rank, &parts)
      lists.append(parts)
    }
    var w = TermListsWriter(isOwn: { own[$0] })
    for l in lists { w.count(name: l[0], context: l[2]) }
    for l in lists { w.append(name: l[0], alternative: l[1], context: l[2]) }
    let section = w.bytes
    return try CorruptIndexTests.replacingSection(.terms, of: FuzzHarness.sampleIndexBytes) {
      _ in section
    }
  }

  @Test("TERMS rewritten as they are passes; TERMS that disagree with POSTINGS are refused")
  func termsAgainstPostings() throws {
    #expect(try fault(try withTerms { _, _ in }) == nil)
    // Place 0 without its first name token: POSTINGS still lists it there.
    var dropped = -1
    let missing = try withTerms { rank, parts in
      if rank == 0 { dropped = parts[0].removeFirst() }
    }
    let f = try #require(try fault(missing))
    #expect(f.section == "TERMS")
    #expect(f.fault == .termMissing(place: 0, token: dropped, part: "name"))
    // Place 1's name token also in its context, where POSTINGS does not list it: a token in
    // two parts of one place.
    let twice = try withTerms { rank, parts in
      if rank == 1, let first = parts[0].first { parts[2] = (parts[2] + [first]).sorted() }
    }
    expectTermsRefused(twice, reason: "place 1 lists a token twice")
    // Place 2 with a context token that POSTINGS does not give it.
    let extra = try withTerms { rank, parts in
      if rank == 2 {
        let all = Set(parts.joined())
        let t = (0..<1_000).first { !all.contains($0) }!
        parts[2] = (parts[2] + [t]).sorted()
      }
    }
    let g = try #require(try fault(extra))
    #expect(g.section == "TERMS")
    guard case .termsBeyondPostings(let terms, let postings) = g.fault else {
      Issue.record("expected termsBeyondPostings, got \(g.fault)")
      return
    }
    #expect(terms == postings + 1)
  }

  /// `verify()` refuses `bytes` as a corrupt TERMS section whose reason holds `reason`.
  func expectTermsRefused(_ bytes: [UInt8], reason: String) {
    #expect {
      let index = try LoadedIndex(
        file: IndexFile(bytes: MappedBytes(copying: bytes), path: Self.path))
      try index.verifyFormat()
    } throws: { error in
      guard case .corrupt(_, let section, _, let r) = error as? IndexFormatError else {
        return false
      }
      return section == "TERMS" && r.contains(reason)
    }
  }

  /// Two places of equal importance, and one less important.
  static func tiedContent() -> IndexContent {
    var content = IndexContent()
    func place(_ kind: UInt8, _ id: Int64, _ importance: UInt16, _ name: String) -> PlaceRecord {
      PlaceRecord(
        osmKind: kind, osmID: id, latitudeE7: 471_410_000, longitudeE7: 95_209_000,
        importance: importance, typeList: 0, primaryText: name, secondaryParts: ["Vaduz"],
        countryCode: "LI", names: [], components: [])
    }
    content.places = [place(0, 5, 700, "Post"), place(0, 9, 700, "Bank"), place(1, 3, 10, "Weg")]
    content.placeTerms = [["post"], ["bank"], ["weg"]]
    content.placeContextTerms = [["vaduz"], ["vaduz"], ["vaduz"]]
    content.typeNames = ["establishment"]
    content.typeLists = [[0]]
    content.metadataJSON = Array(
      #"{"attribution":"a","formatVersion":"9.0","license":"l","options":"","placeCount":3,"source":"t","sourceTimestamp":""}"#
        .utf8)
    content.vocabularyTSV = "type\ttable\tgroup\tgeneric\n"
    content.abbreviationsTSV = "language\tfull\tabbreviations\tsuffix\n"
    return content
  }

  @Test("tied places out of element order are refused by verify")
  func tieOrder() throws {
    let content = Self.tiedContent()
    let good = try IndexImageWriter.image(content).bytes
    #expect(try fault(good) == nil)
    // PLACE IDS written for the two tied places swapped: N9 before N5 at equal importance.
    var swapped = content.places
    swapped.swapAt(0, 1)
    let bad = try CorruptIndexTests.replacingSection(.placeIDs, of: good) { _ in
      PlaceIDTableWriter.serialize(swapped)
    }
    let f = try #require(try fault(bad))
    #expect(f.section == "PLACE IDS")
    #expect(f.fault == .tiedPlacesOutOfOrder(rank: 1, previous: "N9", place: "N5"))
  }

  @Test("the writer refuses places out of rank order")
  func writerRefuses() throws {
    var content = Self.tiedContent()
    content.places.swapAt(0, 1)
    #expect(
      throws: IndexWriterError(fault: .tiedPlacesOutOfOrder(rank: 1, previous: "N9", place: "N5"))
    ) { _ = try IndexImageWriter.image(content) }
    var upward = Self.tiedContent()
    upward.places[2].importance = 900
    #expect(
      throws: IndexWriterError(
        fault: .placesOutOfImportanceOrder(rank: 2, previous: 700, importance: 900))
    ) { _ = try IndexImageWriter.image(upward) }
  }
}
