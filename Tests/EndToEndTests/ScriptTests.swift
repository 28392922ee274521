import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// The fixture of names in other scripts (Fixtures/scripts.osm), built once.
let scriptsIndex: Result<String, Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("scripts.placeidx").path
  let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/scripts.osm").path
  _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
    IndexBuilder.Options(extract: fixture, output: out))
  return out
}

/// The place suggestions for `query` from the client.
func placeSuggestions(_ client: PlacesClient, _ query: String) throws
  -> [AutocompletePlaceSuggestion]
{
  try client.autocompleteSuggestions(for: AutocompleteRequest(query: query)).compactMap(
    \.placeSuggestion)
}

/// Typos, highlights and lengths in scripts beyond ASCII: an edit is one letter (one Unicode
/// scalar), whatever the bytes of its UTF-8 form.
@Suite struct ScriptTypoTests {
  /// Per name: its place, then a one-letter deletion, substitution and swap (past the first
  /// letter, which typo search keeps fixed). Every name has 8 letters or more, so the
  /// deletion leaves the 5 a typo needs.
  static let cases: [(id: String, name: String, typos: [String])] = [
    ("N2", "Сбербанк", ["Сбрбанк", "Сбнрбанк", "Сбребанк"]),
    ("N3", "Роснефть", ["Рснефть", "Роснефтт", "Рсонефть"]),
    ("N4", "Останкино", ["Отанкино", "Оствнкино", "Останкнио"]),
    ("N6", "Ακρόπολη", ["Ακρπολη", "Ακρόπολι", "Ακρόπλοη"]),
    ("N7", "Θεσσαλονίκη", ["Θεσαλονίκη", "Θεσσαλονίκα", "Θεσσαλοίνκη"]),
    ("N8", "中山纪念图书馆", ["中山纪图书馆", "中山纪念图书官", "中山念纪图书馆"]),
    ("N9", "東京スカイツリー", ["東京スカツリー", "東京スカイツリ一", "東京カスイツリー"]),
  ]

  @Test(arguments: 0..<cases.count)
  func oneLetterDeletionSubstitutionAndSwapAreFound(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let (id, name, typos) = Self.cases[i]
    #expect(try placeSuggestions(client, name).first?.placeID == id, "\(name)")
    for typo in typos {
      let s = try placeSuggestions(client, typo)
      #expect(s.first?.placeID == id, "'\(typo)' gave \(s.map(\.primaryText.text))")
    }
  }

  /// The edit budget counts letters, however many bytes they take: "Сбе" with a wrong letter
  /// (3 letters, 6 bytes) is not Сбербанк, nor is "Сбкр" (4 letters: an edit on a whole
  /// token only); "Сбкрб" (5) is its start within one edit.
  @Test func aShortWordGetsNoEditInAnyScript() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    #expect(try placeSuggestions(client, "Сбер").first?.placeID == "N2")
    #expect(try placeSuggestions(client, "Сбк").isEmpty)
    #expect(try placeSuggestions(client, "Сбкр").isEmpty)
    #expect(try placeSuggestions(client, "Сбкрб").first?.placeID == "N2")
  }

  /// Highlight ranges count Unicode scalars of the displayed name.
  @Test func highlightsPointIntoTheOriginalName() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let cases: [(String, String, [Range<Int>])] = [
      ("сбер", "Сбербанк", [0..<4]),
      ("ακρο", "Ακρόπολη", [0..<4]),
      ("ακροπ", "Ακρόπολη", [0..<5]),
      ("中山纪", "中山纪念图书馆", [0..<3]),
      ("東京スカ", "東京スカイツリー", [0..<4]),
      ("пятеро", "Пятёрочка", [0..<6]),
    ]
    for (query, name, ranges) in cases {
      let s = try #require(try placeSuggestions(client, query).first, "\(query)")
      #expect(s.primaryText.text == name)
      #expect(s.primaryText.matches == ranges, "\(query) on \(name)")
    }
  }

  /// A word in another script is looked for inside longer tokens from 4 letters (not bytes).
  @Test func wordsInsideWordsCountLetters() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    #expect(try placeSuggestions(client, "рбанк").first?.placeID == "N2")
    #expect(try placeSuggestions(client, "нефть").first?.placeID == "N3")
    // 3 letters (6 bytes) is too short to look inside words.
    #expect(try placeSuggestions(client, "анк").isEmpty)
  }
}

/// The shared Singapore extract (names in English, Chinese, Malay and Tamil).
let singaporeIndex: Result<String, Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("singapore.placeidx").path
  _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
    IndexBuilder.Options(extract: TestPaths.osm("bayfront-singapore-2019.osm.gz").path, output: out)
  )
  return out
}

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct SingaporeScriptTests {
  /// Chinese names of the extract (its name:zh), each with one letter wrong, missing or
  /// swapped, find the place they name.
  @Test func oneTypoChineseNamesAreFound() throws {
    let client = try PlacesClient(indexPaths: [try singaporeIndex.get()])
    let cases: [(name: String, typo: String)] = [
      ("濱海灣金沙娛樂城", "濱海灣金沙娱樂城"),
      ("濱海灣金沙娛樂城", "濱海灣沙金娛樂城"),
      ("滨海湾金沙购物广场", "滨海湾金沙购广场"),
      ("新加坡丽思卡尔顿美年酒店", "新加坡丽思卡尔頓美年酒店"),
    ]
    for (name, typo) in cases {
      let exact = try placeSuggestions(client, name)
      let place = try #require(exact.first, "\(name) finds nothing")
      let found = try placeSuggestions(client, typo)
      #expect(
        found.contains { $0.placeID == place.placeID },
        "'\(typo)' gave \(found.map(\.fullText.text))")
    }
  }
}

/// Category words in the languages of the data (Data/type_synonyms.tsv) find the places of
/// their type in the fixture. English and the languages indexed everywhere find them in any
/// country; the other languages in the countries that speak them.
@Suite struct CategoryWordSearchTests {
  static let cases: [(word: String, id: String)] = [
    ("супермаркет", "N5"), ("супермаркеты", "N5"), ("продукты", "N5"), ("Supermercado", "N5"),
    ("超市", "N37"), ("farmácia", "N10"), ("farmácias", "N10"), ("drogaria", "N10"),
    ("аптека", "N38"), ("аптеки", "N38"), ("apteka", "N36"), ("薬局", "N34"), ("eczane", "N35"),
    ("банк", "N2"), ("азс", "N3"), ("заправка", "N3"), ("biblioteca", "N8"), ("图书馆", "N8"),
    ("pharmacie", "N38"),
  ]

  @Test(arguments: 0..<cases.count)
  func aCategoryWordFindsThePlaceOfItsType(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let (word, id) = Self.cases[i]
    let s = try placeSuggestions(client, word)
    #expect(s.contains { $0.placeID == id }, "'\(word)' gave \(s.map(\.primaryText.text))")
    #expect(!s.isEmpty && s.allSatisfy { !$0.types.isEmpty })
  }

  /// A word finds places of its own type only, and a language of its countries only: the
  /// Russian word finds the pharmacy in Moscow, not those in Brazil, Japan or Turkey; the
  /// French one (indexed everywhere) finds them all.
  @Test func aCategoryWordFindsItsTypeInItsCountries() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let russian = Set(try placeSuggestions(client, "аптека").map(\.placeID))
    #expect(russian == ["N38"])
    let french = Set(try placeSuggestions(client, "pharmacie").map(\.placeID))
    #expect(french == ["N10", "N34", "N35", "N36", "N38"])
  }
}
