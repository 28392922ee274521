import Foundation
import TestSupport
import Testing

@testable import PlaceCore

// MARK: - Shared helpers

/// Files the text tests read: the package's abbreviation table and the shared OSM extracts.
enum TextTestData {
  /// The package root.
  static let packageRoot: URL = TestPaths.repoRoot

  /// The shared folder: `$PLACEINDEX_SHARED`, or `<package root>/../shared`.
  static let sharedDirectory: URL = TestPaths.shared

  /// `Data/abbreviations.tsv`, parsed.
  static let abbreviations: Abbreviations = {
    let url = packageRoot.appendingPathComponent("Data/abbreviations.tsv")
    do {
      return try Abbreviations(tsv: String(contentsOf: url, encoding: .utf8))
    } catch {
      Issue.record("cannot load \(url.path): \(error)")
      return .empty
    }
  }()

  /// The Unicode scalar offsets of `text` as a range, for readable expectations.
  static func scalarCount(_ text: String) -> Int { text.unicodeScalars.count }
}

/// Whether every token of `query` equals or is a prefix of one of `terms` (prefix search).
func textQueryMatches(_ query: String, terms: [String]) -> Bool {
  Tokenizer.tokens(query).allSatisfy { token in
    terms.contains { $0.unicodeScalars.starts(with: token.text.unicodeScalars) }
  }
}

// MARK: - Folding

@Suite struct TextNormalizationFoldTests {
  @Test(arguments: [
    ("Zürich", "zurich"),
    ("ZÜRICH", "zurich"),
    ("Straße", "strasse"),
    ("STRASSE", "strasse"),
    ("ẞ", "ss"),
    ("ÆØÅ", "aeoa"),
    ("æøå", "aeoa"),
    ("Œuvre", "oeuvre"),
    ("ＺＵＲＩＣＨ", "zurich"),
    ("ｚｕｒｉｃｈ １２", "zurich 12"),
    ("ﬁnland", "finland"),
    ("ﬂoor ﬀ", "floor ff"),
    ("Stroupežnického", "stroupeznickeho"),
    ("Třída Náměstí", "trida namesti"),
    ("Hà Nội", "ha noi"),
    ("Đà Nẵng", "da nang"),
    ("Thừa Thiên Huế", "thua thien hue"),
    ("Nguyễn Thị Minh Khai", "nguyen thi minh khai"),
    ("Zu\u{308}rich", "zurich"),
    ("İstanbul", "istanbul"),
    ("Łódź", "lodz"),
    ("Þingvellir", "thingvellir"),
    ("Reykjavík Aðalstræti", "reykjavik adalstraeti"),
    ("ΑΘΗΝΑ", "αθηνα"),
    ("Αθήνα", "αθηνα"),
    ("ΟΔΟΣ", "οδοσ"),
    ("Москва Ёлки", "москва елки"),
    ("Ⅻ ① ²", "xii 1 2"),
    ("\u{212A}elvin", "kelvin"),
    ("Saint\u{2013}Denis", "saint-denis"),
    ("soft\u{AD}hyphen", "softhyphen"),
    ("東京駅", "東京駅"),
    ("서울", "서울"),
    ("McDonald's", "mcdonald's"),
    ("", ""),
    ("plain ascii 123", "plain ascii 123"),
  ])
  func primaryFold(input: String, expected: String) {
    #expect(TextNormalizer.fold(input) == expected)
  }

  @Test(arguments: [
    ("Zürich", "zuerich"),
    ("Tölö", "toeloe"),
    ("Töölö", "toeoeloe"),
    ("Åbo", "aabo"),
    ("MÜNCHEN", "muenchen"),
    ("Ærø", "aero"),
    ("Straße", "strasse"),
    ("Zu\u{308}rich", "zuerich"),
    ("A\u{30A}", "aa"),
    ("Citroën", "citroen"),
    ("Noël", "noel"),
    ("Ústí", "usti"),
  ])
  func alternateFold(input: String, expected: String) {
    #expect(TextNormalizer.alternateFold(input) == expected)
  }

  @Test func widthVariantsOfKanaFoldAlike() {
    #expect(TextNormalizer.fold("ｶﾞｽ") == TextNormalizer.fold("ガス"))
    #expect(TextNormalizer.fold("ガ") == TextNormalizer.fold("ガ"))  // decomposed input
  }

  @Test func foldAcceptsSubstrings() {
    let text = "Grüezi Zürich"
    #expect(TextNormalizer.fold(text.split(separator: " ")[1]) == "zurich")
  }

  @Test func foldIsIdempotentOnSamples() {
    for text in ["Zürich", "Straße", "ÆØÅ", "ＺＵＲＩＣＨ", "ﬁ", "Hà Nội", "ガス", "Ⅻ"] {
      let once = TextNormalizer.fold(text)
      #expect(TextNormalizer.fold(once) == once, "\(text)")
    }
  }
}

// MARK: - Tokenizing

/// A token as (folded text, lower offset, upper offset) for compact expectations.
typealias TextTokenTriple = (String, Int, Int)

@Suite struct TextNormalizationTokenizerTests {
  static let cases: [(String, [TextTokenTriple])] = [
    ("Hauptstraße 12, Vaduz", [("hauptstrasse", 0, 11), ("12", 12, 14), ("vaduz", 16, 21)]),
    ("McDonald's", [("mcdonalds", 0, 10)]),
    ("McDonald’s Bar", [("mcdonalds", 0, 10), ("bar", 11, 14)]),
    ("l'Église Saint-Jean", [("leglise", 0, 8), ("saint", 9, 14), ("jean", 15, 19)]),
    (
      "Stroupežnického 3191/17, Praha",
      [("stroupeznickeho", 0, 15), ("3191/17", 16, 23), ("praha", 25, 30)]
    ),
    (
      "23-30 29th St, Queens",
      [("23-30", 0, 5), ("29th", 6, 10), ("st", 11, 13), ("queens", 15, 21)]
    ),
    ("47-380 Kamehameha Hwy", [("47-380", 0, 6), ("kamehameha", 7, 17), ("hwy", 18, 21)]),
    ("12a", [("12a", 0, 3)]),
    ("1-4", [("1-4", 0, 3)]),
    ("12 bis", [("12", 0, 2), ("bis", 3, 6)]),
    ("23\u{2013}30", [("23-30", 0, 5)]),
    ("３１９１／１７", [("3191/17", 0, 7)]),
    ("Zu\u{308}rich", [("zurich", 0, 7)]),
    ("Kanal\u{AD}strasse", [("kanalstrasse", 0, 13)]),
    ("Paral·lel", [("parallel", 0, 9)]),
    ("A - B", [("a", 0, 1), ("b", 4, 5)]),
    ("-12-", [("12", 1, 3)]),
    ("12-a", [("12", 0, 2), ("a", 3, 4)]),
    ("Rautatieasema (M)", [("rautatieasema", 0, 13), ("m", 15, 16)]),
    ("🍕 Pizza", [("pizza", 2, 7)]),
    ("東京駅 Tokyo", [("東京駅", 0, 3), ("tokyo", 4, 9)]),
    ("'s-Hertogenbosch", [("s", 1, 2), ("hertogenbosch", 3, 16)]),
    ("  \t ", []),
    ("", []),
    ("ＺＵＲＩＣＨ", [("zurich", 0, 6)]),
    ("\u{308}abc", [("abc", 0, 4)]),
  ]

  @Test(arguments: cases)
  func tokens(input: String, expected: [TextTokenTriple]) {
    let tokens = Tokenizer.tokens(input)
    let actual = tokens.map { "\($0.text)@\($0.range.lowerBound)..<\($0.range.upperBound)" }
    let wanted = expected.map { "\($0.0)@\($0.1)..<\($0.2)" }
    #expect(actual == wanted, "\(input)")
  }

  @Test func queryKeepsHousenumbersWhole() {
    #expect(Tokenizer.tokens("23-30 29th st").map(\.text) == ["23-30", "29th", "st"])
    #expect(Tokenizer.tokens("3191/17").map(\.text) == ["3191/17"])
    #expect(Tokenizer.tokens("23-").map(\.text) == ["23"])
  }

  @Test func textTokenInitializerStillWorks() {
    let token = TextToken(text: "zurich", range: 0..<6)
    #expect(token.text == "zurich" && token.range == 0..<6)
  }
}

// MARK: - Abbreviation table

@Suite struct TextNormalizationAbbreviationTableTests {
  @Test func packageTableParses() {
    let table = TextTestData.abbreviations
    #expect(table.entries.count >= 60)
    let languages = Set(table.entries.map(\.language))
    #expect(languages.isSuperset(of: ["en", "de", "fr", "fi", "sv", "cs", "it", "es", "nl"]))
    #expect(table.variants(of: "street") == ["st"])
    #expect(table.variants(of: "st").contains("street"))
    #expect(table.variants(of: "st").contains("saint"))
    #expect(table.variants(of: "str").contains("strasse"))
    #expect(table.variants(of: "nam") == ["namesti"])
    #expect(table.variants(of: "tr") == ["trida"])
    #expect(
      table.entries.contains { $0.full == "katu" && $0.isSuffix && $0.abbreviations == ["k"] })
    #expect(table.variants(of: "zurich").isEmpty)
  }

  @Test func valuesAreFolded() throws {
    let table = try Abbreviations(
      tsv: "language\tfull\tabbreviations\tsuffix\nde\tStraße\tStr.\tyes\r\ncs\tnáměstí\tnám.\tno\n"
    )
    #expect(table.entries.map(\.full) == ["strasse", "namesti"])
    #expect(table.entries.map(\.abbreviations) == [["str"], ["nam"]])
    #expect(table.entries.map(\.isSuffix) == [true, false])
  }

  @Test func columnsInAnyOrderAndCommentsSkipped() throws {
    let table = try Abbreviations(
      tsv: """
        # comment
        suffix\tfull\tlanguage\tabbreviations\tnote

        no\tstreet\ten\tst, st.\tany note
          # indented comment
        """)
    #expect(
      table.entries == [
        .init(language: "en", full: "street", abbreviations: ["st"], isSuffix: false)
      ])
  }

  @Test(arguments: [
    ("", 1, "no header"),
    ("# only a comment\n", 1, "no header"),
    ("language\tfull\tsuffix\n", 1, "abbreviations"),
    ("# c\nlanguage\tfull\tabbreviations\tsuffix\nen\tstreet\tst\n", 3, "fields"),
    ("language\tfull\tabbreviations\tsuffix\nen\tstreet\tst\tmaybe\n", 2, "suffix"),
    ("language\tfull\tabbreviations\tsuffix\nit\tpiazza\tp. za\tno\n", 2, "one word"),
    ("language\tfull\tabbreviations\tsuffix\nen\tmain street\tms\tno\n", 2, "one word"),
    ("language\tfull\tabbreviations\tsuffix\n\tstreet\tst\tno\n", 2, "language"),
  ])
  func malformedTablesNameTheLine(tsv: String, line: Int, fragment: String) {
    #expect {
      _ = try Abbreviations(tsv: tsv)
    } throws: { error in
      guard let error = error as? TableError, error.table == "abbreviations.tsv" else {
        return false
      }
      return error.line == line && error.description.contains(fragment)
    }
  }

  @Test func restrictedKeepsOnlyLanguages() {
    let german = TextTestData.abbreviations.restricted(toLanguages: ["de"])
    #expect(Set(german.entries.map(\.language)) == ["de"])
    #expect(german.variants(of: "str") == ["strasse"])
    #expect(Abbreviations.empty.variants(of: "st").isEmpty)
  }
}
