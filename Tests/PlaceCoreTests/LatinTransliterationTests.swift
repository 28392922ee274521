import Testing

@testable import PlaceCore

/// PlaceCore's Latin spellings of Cyrillic, Greek, Hebrew and Arabic (the table the builder
/// indexes with), and the highlight ranges of a Latin query matched through them.
@Suite struct LatinTransliterationTests {
  let table = TextTestData.abbreviations

  @Test func eachLatinLetterKnowsTheLetterItCameFrom() {
    let s = LatinTransliteration.spelling(
      Array("Щука".unicodeScalars), language: .russian, variant: false)
    #expect(s.text == "shchuka")
    #expect(s.sources == [0, 0, 0, 0, 1, 2, 3])
    // A Greek digraph: the first Latin letter from the first letter, the rest from the second.
    let g = LatinTransliteration.spelling(
      Array("Μπουμπουλίνας".unicodeScalars), language: .russian, variant: false)
    #expect(g.text == "boumpoulinas")
    #expect(Array(g.sources.prefix(4)) == [1, 2, 3, 4])
  }

  @Test func hebrewAndArabicGetConsonantSkeletonsWithTheirVowelLetters() {
    #expect(
      LatinTransliteration.latin("שוק הכרמל", countryCode: "IL") == ["shok hkhrml", "shuk hchrml"])
    #expect(LatinTransliteration.latin("חיפה", countryCode: "IL") == ["hifa", "chifa"])
    #expect(LatinTransliteration.latin("מול مارينا", countryCode: nil).count == 2)
    #expect(
      LatinTransliteration.latin("مارينا مول", countryCode: "AE") == ["maryna mwl", "marina mul"])
    // Points and short-vowel marks: Hebrew points give nothing, Arabic harakat their vowel.
    #expect(LatinTransliteration.latin("שָׁלוֹם", countryCode: "IL").first == "shlom")
    #expect(LatinTransliteration.latin("دُبَي", countryCode: "AE") == ["dubay", "dubai"])
    // Arabic-Indic digits are the digits people type.
    #expect(LatinTransliteration.latin("شارع ٢٣", countryCode: "EG").first == "shar 23")
  }

  /// Korean in the Revised Romanization, syllable by syllable; the variant carries a final
  /// consonant over to a syllable that starts with a vowel.
  @Test func hangulGetsTheRevisedRomanization() {
    #expect(LatinTransliteration.latin("마리나 베이 샌즈", countryCode: "SG") == ["marina bei saenjeu"])
    #expect(LatinTransliteration.latin("강남역", countryCode: "KR") == ["gangnamyeok"])
    #expect(LatinTransliteration.latin("명동", countryCode: "KR") == ["myeongdong"])
    #expect(LatinTransliteration.latin("한국어", countryCode: "KR") == ["hangukeo", "hangugeo"])
    #expect(
      LatinTransliteration.coveredPrefix(
        of: Array("gangn".unicodeScalars), in: Array("강남역".unicodeScalars)) == 2)
  }

  @Test func latinAndOtherScriptsGetNone() {
    #expect(LatinTransliteration.latin("Helsinki", countryCode: "FI").isEmpty)
    #expect(LatinTransliteration.latin("中山纪念图书馆", countryCode: "CN").isEmpty)
    #expect(
      LatinTransliteration.coveredPrefix(
        of: Array("hel".unicodeScalars), in: Array("Helsinki".unicodeScalars)) == nil)
  }

  @Test func aLatinPrefixCoversTheLettersItCameFrom() {
    func covered(_ query: String, _ token: String) -> Int? {
      LatinTransliteration.coveredPrefix(
        of: Array(query.unicodeScalars), in: Array(token.unicodeScalars))
    }
    #expect(covered("rosn", "Роснефть") == 4)
    // The whole spelling covers the whole word, its soft sign too.
    #expect(covered("rosneft", "Роснефть") == 8)
    // A query ending inside a letter's Latin letters covers that letter.
    #expect(covered("sh", "Щука") == 1)
    #expect(covered("shchu", "Щука") == 2)
    // The variant spelling and the other Cyrillic languages: "pja" and Ukrainian "h".
    #expect(covered("pja", "Пятёрочка") == 2)
    #expect(covered("hoh", "Гоголя") == 3)
    #expect(covered("akrop", "Ακρόπολη") == 5)
    // An accent written as a combining mark goes with its letter.
    #expect(covered("akro", "Ακρο\u{301}πολη") == 5)
    #expect(covered("shuk", "שוק") == 3)
    #expect(covered("mar", "مارينا") == 3)
    #expect(covered("rosx", "Роснефть") == nil)
  }

  static let highlightCases: [([String], String, [Range<Int>])] = [
    (["rosn"], "Роснефть", [0..<4]),
    (["rosneft"], "Роснефть", [0..<8]),
    (["sberbank"], "Сбербанк", [0..<8]),
    (["ulitsa", "gonch"], "улица Гончарова", [0..<5, 6..<10]),
    (["goncharova", "17k1"], "улица Гончарова, 17к1", [6..<15, 17..<21]),
    (["akrop"], "Ακρόπολη", [0..<5]),
    (["thessal"], "Θεσσαλονίκη", [0..<6]),
    (["shuk"], "שוק הכרמל", [0..<3]),
    (["marina"], "مول مارينا باي ساندي", [4..<10]),
    (["myeong"], "명동 교자", [0..<1]),
    (["myeongdong", "gyo"], "명동 교자", [0..<2, 3..<4]),
  ]

  /// The highlight of a Latin query on a name in another script: the letters the matched
  /// Latin letters came from, the same by both definitions and on a prepared text.
  @Test(arguments: highlightCases)
  func aLatinQueryHighlightsTheOriginalLetters(
    query: [String], text: String, expected: [Range<Int>]
  ) {
    let ranges = MatchHighlighter.matches(queryTokens: query, in: text, abbreviations: table)
    #expect(ranges == expected, "\(query) in \(text)")
    #expect(
      MatchHighlighter.matchesByTerms(queryTokens: query, in: text, abbreviations: table)
        == ranges)
    let prepared = MatchHighlighter.Prepared(text, abbreviations: table)
    #expect(
      MatchHighlighter.matches(queryTokens: query, in: prepared, abbreviations: table) == ranges)
  }

  /// A Latin query that is no spelling of the name highlights nothing of it.
  @Test func aLatinQueryThatIsNoSpellingHighlightsNothing() {
    #expect(
      MatchHighlighter.matches(queryTokens: ["rosx"], in: "Роснефть", abbreviations: table)
        .isEmpty)
    #expect(
      MatchHighlighter.matches(queryTokens: ["beix"], in: "北京", abbreviations: table).isEmpty)
    // "beij" spells it (Pinyin, EastAsianSpellingTests).
    #expect(
      MatchHighlighter.matches(queryTokens: ["beij"], in: "北京", abbreviations: table)
        == [0..<2])
  }
}
