import Foundation
import PlaceIndexFormat
import TestSupport
import Testing

@testable import PlaceIndex

/// NAME WORDS (format 7.2): each place's name's word count, which the search scores a place's
/// coverage with before reading its record. Values read back as written (15 standing for 15
/// or more); the sample answers the same with and without the section; a count that is not its
/// record's is refused naming the place.
@Suite("NAME WORDS: each place's name's word count")
struct NameWordsRulesTests {
  @Test("seeded counts read back, 15 standing for 15 or more", arguments: [0, 1, 2, 7, 1000])
  func countsReadBack(count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count + 1))
    let counts = (0..<count).map { _ in Int(rng.next() % 40) }
    let bytes = NameWordsWriter.serialize(counts)
    #expect(bytes.count == 8 + (count + 1) / 2)
    try bytes.withUnsafeBytes { raw in
      let table = try NameWords(raw, fileOffset: 0, placeCount: count)
      #expect((0..<count).map { table[$0] } == counts.map { min($0, 15) })
    }
    // A count that is not the place count, or values cut short, is refused.
    #expect(throws: IndexFormatError.self) {
      try bytes.withUnsafeBytes { _ = try NameWords($0, fileOffset: 0, placeCount: count + 1) }
    }
    if count > 1 {
      let cut = Array(bytes.dropLast())
      #expect(throws: IndexFormatError.self) {
        try cut.withUnsafeBytes { _ = try NameWords($0, fileOffset: 0, placeCount: count) }
      }
    }
  }

  /// The sample's bytes without its section `kind` (as a file of the format before it).
  static func withoutSection(_ kind: SectionKind = .nameWords) throws -> [UInt8] {
    let file = try IndexFile(
      bytes: MappedBytes(copying: FuzzHarness.sampleIndexBytes), path: "sample")
    var writer = IndexFileWriter()
    writer.dataTimestamp = file.dataTimestamp
    writer.optionsHash = file.optionsHash
    for s in file.sections where s.kind != kind.rawValue {
      writer.add(rawKind: s.kind, Array(file.bytes(of: s)))
    }
    return writer.image()
  }

  @Test("the sample answers the same with the section as without it")
  func sameAnswersWithout() throws {
    let with = FuzzHarness.sampleClient
    #expect(with.indexes[0].nameWords != nil)
    let without = PlacesClient(indexes: [try PrefixUnionsRulesTests.open(Self.withoutSection())])
    #expect(without.indexes[0].nameWords == nil)
    let (tokens, _) = try PrefixUnionsRulesTests.sampleLists()
    var asked = 0
    var answered = 0
    for (i, t) in tokens.enumerated() {
      for n in 1...min(4, t.count) {
        let second = tokens[(i * 7) % tokens.count]
        for query in [String(t.prefix(n)), "\(t.prefix(n)) \(second.prefix(2))"] {
          for origin in [nil, Coordinate(latitude: 47.185, longitude: 9.9)] {
            let request = AutocompleteRequest(
              query: query, filter: AutocompleteFilter(origin: origin))
            let a = try with.autocompleteSuggestions(for: request)
            #expect(a == (try without.autocompleteSuggestions(for: request)), "\(query)")
            asked += 1
            if !a.isEmpty { answered += 1 }
          }
        }
      }
    }
    #expect(asked > 1000 && answered > asked / 3, "\(answered) of \(asked) answered")
  }

  @Test("a count that is not the record's is refused naming the place")
  func wrongCountIsRefused() throws {
    let index = FuzzHarness.sampleClient.indexes[0]
    let table = try #require(index.nameWords)
    // Place 3's count, one more (within the 4 bits).
    let rank = 3
    let bad = try CorruptIndexTests.replacingSection(
      .nameWords, of: FuzzHarness.sampleIndexBytes
    ) { section in
      var s = section
      let shift = rank & 1 == 0 ? 0 : 4
      let value = (table[rank] + 1) & 15
      s[8 + rank / 2] = s[8 + rank / 2] & ~UInt8(15 << shift) | UInt8(value << shift)
      return s
    }
    let broken = try PrefixUnionsRulesTests.open(bad)
    #expect(throws: IndexFormatError.self) { try broken.verifyFormat() }
    do throws(IndexFormatError) {
      try broken.verifyFormat()
    } catch {
      #expect(
        "\(error)".contains("place \(rank): \((table[rank] + 1) & 15) name words"), "\(error)")
    }
  }
}
