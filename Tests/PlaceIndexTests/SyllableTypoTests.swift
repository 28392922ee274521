import Foundation
import PlaceIndexBuilder
import TestSupport
import Testing

@testable import PlaceCore
@testable import PlaceIndex

/// Short names written in syllables (Han, Kana, Hangul), made for the test, beside decoys that
/// share their first characters, and a Latin control: each character is a syllable, so a
/// word of 3 of them gets the edit a Latin word of 5 letters gets.
let syllableFixtureIndex: Result<String, Error> = Result {
  let names: [(id: Int, name: String)] = [
    (1, "滨海花园"), (2, "牛车水"), (3, "サクラヤ"), (4, "한강공원"), (5, "Lenz"), (6, "Brunn"),
    // Decoys: the same first character (滨江大厦), the first two (滨海大道, 牛车站), the rest
    // of a name (海花园), the first syllable of the Korean one (한국식당).
    (10, "滨江大厦"), (11, "滨海大道"), (12, "海花园"), (13, "牛车站"), (14, "한국식당"),
  ]
  return try buildFixtureIndex(
    names.enumerated().map { i, n in
      FixtureNode(
        id: n.id, latitude: 1.2800 + Double(i) * 0.0004, longitude: 103.8500,
        tags: [("amenity", "restaurant"), ("name", n.name)])
    }, name: "syllables")
}

/// The place suggestions (5, the default) for `query`.
private func suggestions(_ client: PlacesClient, _ query: String) throws
  -> [AutocompletePlaceSuggestion]
{
  try client.autocompleteSuggestions(for: AutocompleteRequest(query: query)).compactMap(
    \.placeSuggestion)
}

@Suite struct SyllableTypoTests {
  /// The edit budget: syllables for a word of Han, Kana or Hangul, letters for any other.
  @Test(arguments: [
    ("滨海", 0), ("牛车水", 1), ("滨海花园", 1), ("滨海湾金沙", 1), ("滨海湾金沙城", 2),
    ("ミド", 0), ("ミドリ", 1), ("カ\u{3099}ス", 0), ("ミト\u{3099}リ", 1), ("한강", 0), ("한강공", 1), ("々木村", 1),
    // Latin, Cyrillic and mixed words count letters, as before.
    ("len", 0), ("lenz", 1), ("brunn", 1), ("rheinberg", 2), ("мос", 0), ("мост", 1),
    ("мосты", 1), ("7号楼", 0),
    ("aeon百货", 1),
  ])
  func theBudgetCountsSyllablesInAWordOfThem(word: String, edits: Int) {
    #expect(Ranking.allowedEdits(scalars: word.unicodeScalars.map(\.value)) == edits, "\(word)")
  }

  /// Per name: a deletion, a substitution and a swap of one character past the first (which
  /// typo search keeps fixed), each finding the name in the top 5. A deletion needs a name of
  /// 4: it leaves the 3 an edit needs.
  static let cases: [(id: String, name: String, typos: [String])] = [
    ("N1", "滨海花园", ["滨花园", "滨海化园", "滨花海园"]),
    ("N2", "牛车水", ["牛东水", "牛水车"]),
    ("N3", "サクラヤ", ["サラヤ", "サクミヤ", "サラクヤ"]),
    ("N4", "한강공원", ["한공원", "한강곰원", "한공강원"]),
  ]

  @Test(arguments: 0..<cases.count)
  func oneCharacterDeletionSubstitutionAndSwapAreFound(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try syllableFixtureIndex.get()])
    let (id, name, typos) = Self.cases[i]
    #expect(try suggestions(client, name).first?.placeID == id, "\(name)")
    for typo in typos {
      let s = try suggestions(client, typo)
      #expect(s.contains { $0.placeID == id }, "'\(typo)' gave \(s.map(\.primaryText.text))")
    }
  }

  /// Latin words keep their budget: none at 3 letters, one at 4 on a whole token ("Lanz" is
  /// Lenz; "Brum" is not the start of Brunn, one edit from "brun"), one at 5 on a token's
  /// start too ("Brumn").
  @Test func latinWordsKeepTheirRules() throws {
    let client = try PlacesClient(indexPaths: [try syllableFixtureIndex.get()])
    #expect(try suggestions(client, "Lenz").first?.placeID == "N5")
    #expect(try suggestions(client, "Lnz").isEmpty)
    #expect(try suggestions(client, "Lez ").isEmpty)
    #expect(try suggestions(client, "Lanz").first?.placeID == "N5")
    #expect(try suggestions(client, "Lnez").first?.placeID == "N5")
    #expect(try suggestions(client, "Brum").isEmpty)
    #expect(try suggestions(client, "Brumn").first?.placeID == "N6")
    #expect(try suggestions(client, "Bru").first?.placeID == "N6")
  }

  /// A word of one or two syllables still being typed is a prefix and nothing else: no
  /// typo brings in a name that does not start with it.
  @Test func shortSyllableWordsStayPrefixes() throws {
    let client = try PlacesClient(indexPaths: [try syllableFixtureIndex.get()])
    let cases: [(query: String, ids: Set<String>)] = [
      ("滨", ["N1", "N10", "N11"]), ("滨海", ["N1", "N11"]), ("牛车", ["N2", "N13"]),
      ("한", ["N4", "N14"]), ("한강", ["N4"]), ("サク", ["N3"]),
    ]
    for (query, ids) in cases {
      let found = Set(try suggestions(client, query).map(\.placeID))
      #expect(found == ids, "'\(query)'")
    }
  }

  /// Past two syllables a typo may come in, but after every name that starts with the word.
  @Test func aPrefixComesBeforeATypoOfIt() throws {
    let client = try PlacesClient(indexPaths: [try syllableFixtureIndex.get()])
    let s = try suggestions(client, "滨海花")
    #expect(s.first?.placeID == "N1", "\(s.map(\.primaryText.text))")
    let t = try suggestions(client, "牛车站")
    #expect(t.first?.placeID == "N13", "\(t.map(\.primaryText.text))")
  }
}

/// The Chinese names of the shared Singapore extract, read from its index's dictionary, each
/// with one seeded typo past its first character.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct SingaporeSyllableTypoTests {
  /// The share of the variants whose place is in the top 5 must reach this. Below 1: a
  /// substitution can make another name of the extract (or a prefix of one), and a deletion
  /// can leave the start of more important names (a name of 4 keeps 3 characters).
  static let threshold = 0.9
  /// Seeded variants of each name.
  static let variantsPerName = 4

  @Test func oneTypoChineseNamesAreFoundInTheTop5() throws {
    let path = try TestPaths.temporaryDirectory().appendingPathComponent("singapore.placeidx")
      .path
    _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
      IndexBuilder.Options(
        extract: TestPaths.osm("bayfront-singapore-2019.osm.gz").path, output: path))
    let index = try LoadedIndex(path: path)
    let client = PlacesClient(indexes: [index])
    // Every token of 4 characters or more, all Han: a name (or a word of one) in Chinese.
    var names: [String] = []
    try index.tokens.forEach { _, bytes in
      let word = String(decoding: bytes, as: UTF8.self)
      let scalars = Array(word.unicodeScalars)
      if scalars.count >= 4, scalars.allSatisfy({ $0.value >= 0x4E00 && $0.value <= 0x9FFF }) {
        names.append(word)
      }
    }
    // The extract has few (its name:zh tags): each gets several variants.
    #expect(!names.isEmpty, "no Chinese name read from the index")
    var random = SplitMix64(seed: 23)
    var tried = 0
    var found = 0
    var missed: [String] = []
    for name in names {
      let place = try #require(try suggestions(client, name).first, "\(name) finds nothing")
      for _ in 0..<Self.variantsPerName {
        let typo = Self.typo(name, &random)
        tried += 1
        let s = try suggestions(client, typo)
        if s.contains(where: { $0.placeID == place.placeID }) {
          found += 1
        } else {
          missed.append("\(typo) (\(name)): \(s.map(\.primaryText.text))")
        }
      }
    }
    #expect(tried > 0)
    let share = Double(found) / Double(max(1, tried))
    #expect(share >= Self.threshold, "\(found) of \(tried); missed \(missed)")
  }

  /// One seeded edit of a character past the first: a deletion, a substitution or an
  /// insertion of a common ideograph, or a swap with the next character.
  static func typo(_ name: String, _ random: inout SplitMix64) -> String {
    var c = Array(name.unicodeScalars)
    let at = 1 + random.below(c.count - 1)
    func ideograph() -> Unicode.Scalar {
      while true {
        let s = Unicode.Scalar(UInt32(0x4E00 + random.below(0x9FA6 - 0x4E00)))!
        if !c.contains(s) { return s }
      }
    }
    switch random.below(4) {
    case 0: c.remove(at: at)
    case 1: c[at] = ideograph()
    case 2: c.insert(ideograph(), at: at)
    default:
      if at + 1 < c.count && c[at] != c[at + 1] {
        c.swapAt(at, at + 1)
      } else {
        c[at] = ideograph()
      }
    }
    var s = ""
    s.unicodeScalars.append(contentsOf: c)
    return s
  }
}

/// Folding splits a voiced kana (ガ) into its kana and a combining mark (カ, U+3099); the typo
/// walk reads the two as one letter, so that a voiced kana for another is one edit.
@Suite struct VoicedKanaTypoWalkTests {
  /// Kana, with and without their voiced marks, beside other letters of 3 bytes.
  static let letters: [String] = ["カ", "カ\u{3099}", "ト", "ト\u{3099}", "ハ\u{309A}", "サ", "中", "a"]

  @Test func aVoicedKanaIsOneLetter() {
    for (word, typo, edits) in [
      ("サクラヤ", "サク\u{3099}ラヤ", 1), ("ト\u{3099}リヤ", "サリヤ", 1),
      ("ミト\u{3099}リヤ", "ミカ\u{3099}リヤ", 1), ("ミト\u{3099}リヤ", "ミトリヤ", 1),
      ("ミト\u{3099}リヤ", "ミリト\u{3099}ヤ", 1),
    ] {
      let w = Array(word.utf8)
      let q = Array(typo.utf8)
      #expect(TypoDistance.prefixDistance(q, w, limit: 2) == edits, "\(typo)")
      var walk = TypoWalk(query: q, limit: 1)
      let found = walk.matches(w, shared: 0)
      #expect(found, "\(typo)")
    }
  }

  /// Over sorted random words of kana, marks and other letters, the walk (reusing columns
  /// across shared bytes, skipping past dead prefixes) finds what the distance finds.
  @Test func walkAgreesWithTheDistanceOverVoicedKana() {
    var random = SplitMix64(seed: 31)
    var set = Set<[UInt8]>()
    while set.count < 2000 {
      var s = ""
      for _ in 0..<(1 + random.below(6)) { s += Self.letters[random.below(Self.letters.count)] }
      set.insert(Array(s.utf8))
    }
    let words = set.sorted { $0.lexicographicallyPrecedes($1) }
    var matched = 0
    var skipped = 0
    for _ in 0..<60 {
      var q = Array(String(decoding: words[random.below(words.count)], as: UTF8.self))
      if q.count > 1 {
        let at = 1 + random.below(q.count - 1)
        q[at] = Character(Self.letters[random.below(Self.letters.count)])
      }
      let query = Array(String(q).utf8)
      let limit = 1
      var walk = TypoWalk(query: query, limit: limit)
      var previous: [UInt8] = []
      for (k, word) in words.enumerated() {
        let shared = zip(previous, word).prefix { $0 == $1 }.count
        let expected = TypoDistance.prefixDistance(query, word, limit: limit)
        let found = walk.matches(word, shared: shared)
        #expect(found == (expected != nil), "\(String(decoding: word, as: UTF8.self))")
        if found { matched += 1 }
        if !found && walk.deadDepth > 0 {
          let prefix = word[0..<walk.deadBytes]
          for later in words[(k + 1)...] {
            guard later.starts(with: prefix) else { break }
            skipped += 1
            #expect(TypoDistance.prefixDistance(query, later, limit: limit) == nil)
          }
        }
        previous = word
      }
    }
    #expect(matched > 100)
    #expect(skipped > 100)
  }
}
