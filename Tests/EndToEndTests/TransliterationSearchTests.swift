import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// Names in Cyrillic and Greek found by a Latin spelling typed on a Latin keyboard (indexed
/// at build time beside the name).
@Suite struct TransliterationSearchTests {
  static let cases: [(query: String, id: String)] = [
    ("sberbank", "N2"), ("Sberbank", "N2"), ("rosneft", "N3"), ("ostankino", "N4"),
    ("pyaterochka", "N5"), ("pjaterochka", "N5"), ("akropoli", "N6"), ("thessaloniki", "N7"),
    ("goncharova 17k1", "N11"), ("ulitsa goncharova 5", "N14"), ("ulica goncharova 5", "N14"),
    ("novoostankinskaya", "W50"), ("novoostankinskaja 2", "N15"),
    // Hebrew and Arabic consonant skeletons, with waw and yod/ya as vowels; Korean.
    ("shuk", "N42"), ("shok hkhrml", "N42"), ("marina mul", "N43"), ("maryna", "N43"),
    ("myeongdong", "N45"),
    // Han in Pinyin (syllables apart or run together), Kana in Hepburn.
    ("zhongshan", "N8"), ("zhong shan ji nian", "N8"), ("hualian", "N37"),
    ("sukaitsuri", "N9"), ("matsumoto", "N34"), ("matsumotokiyoshi", "N34"),
    // An alternative name in Han (name:zh) beside a Latin display name.
    ("tiananmen", "N44"), ("tian an men", "N44"),
  ]

  @Test(arguments: 0..<cases.count)
  func aLatinSpellingFindsTheName(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let (query, id) = Self.cases[i]
    let s = try placeSuggestions(client, query)
    #expect(s.first?.placeID == id, "'\(query)' gave \(s.prefix(5).map(\.fullText.text))")
  }

  /// The displayed name stays the original; a Latin spelling highlights the letters of it
  /// that the typed Latin letters came from.
  @Test func theDisplayedNameIsTheOriginalWithTheMatchedLettersHighlighted() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let cases: [(query: String, id: String, name: String, matches: [Range<Int>])] = [
      ("sberbank", "N2", "Сбербанк", [0..<8]),
      ("Rosn", "N3", "Роснефть", [0..<4]),
      ("rosneft", "N3", "Роснефть", [0..<8]),
      ("pjat", "N5", "Пятёрочка", [0..<3]),
      ("akrop", "N6", "Ακρόπολη", [0..<5]),
      ("shuk", "N42", "שוק הכרמל", [0..<3]),
      ("marina", "N43", "مارينا مول", [0..<6]),
      ("myeongdong", "N45", "명동교자", [0..<2]),
    ]
    for c in cases {
      let s = try #require(
        try placeSuggestions(client, c.query).first { $0.placeID == c.id }, "\(c.query)")
      #expect(s.primaryText.text == c.name)
      #expect(s.primaryText.matches == c.matches, "'\(c.query)' on \(c.name)")
    }
  }
}

/// The Chinese names of the shared Singapore extract (its name:zh, beside English display
/// names) found by their Pinyin: syllables run together, or two at a time as words.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct SingaporePinyinTests {
  @Test func chineseNamesAreFoundByTheirPinyin() throws {
    let client = try PlacesClient(indexPaths: [try singaporeIndex.get()])
    let cases: [(name: String, pinyin: String)] = [
      ("牛车水", "niucheshui"),
      ("滨海湾金沙购物广场", "binhaiwanjinsha"),
      ("濱海蓄水池", "binhai xushui"),
      ("藝術科學博物館", "yishu kexue"),
    ]
    for (name, pinyin) in cases {
      let place = try #require(try placeSuggestions(client, name).first, "\(name) finds nothing")
      let found = try placeSuggestions(client, pinyin)
      #expect(
        found.contains { $0.placeID == place.placeID },
        "'\(pinyin)' gave \(found.map(\.fullText.text)), not \(place.fullText.text)")
    }
  }
}
