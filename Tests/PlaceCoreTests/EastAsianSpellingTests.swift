import Testing

@testable import PlaceCore

/// The characters of a name in Han or Kana that a Latin query spelled (through the Pinyin and
/// Hepburn the builder indexes): the highlight of a match on them.
@Suite struct EastAsianSpellingTests {
  let table = TextTestData.abbreviations

  func covered(_ query: String, _ token: String, japanese: Bool = false) -> Range<Int>? {
    EastAsianSpelling.coveredRange(
      of: Array(query.unicodeScalars), in: Array(token.unicodeScalars), japanese: japanese)
  }

  /// Han: one syllable per character, from any syllable on, the last one typed in part.
  @Test func aQueryCoversTheHanSyllablesItTyped() {
    #expect(covered("zhong", "中山纪念图书馆") == 0..<1)
    #expect(covered("zho", "中山纪念图书馆") == 0..<1)
    #expect(covered("zhongsh", "中山纪念图书馆") == 0..<2)
    #expect(covered("zhongshanjinian", "中山纪念图书馆") == 0..<4)
    #expect(covered("shan", "中山纪念图书馆") == 1..<2)
    #expect(covered("tushuguan", "中山纪念图书馆") == 4..<7)
    #expect(covered("hualian", "华联") == 0..<2)
    // Typed past the name's syllables, or a spelling it does not have.
    #expect(covered("zhongshanjiniantushuguanx", "中山纪念图书馆") == nil)
    #expect(covered("beijing", "中山纪念图书馆") == nil)
    // In a Japanese name Han has no spelling (the builder gives it none).
    #expect(covered("zhong", "中山", japanese: true) == nil)
  }

  /// Kana: a run from its start, as far as the spelling of its first characters reaches,
  /// where two characters make one syllable ("kya") too.
  @Test func aQueryCoversTheKanaItTyped() {
    #expect(covered("sukai", "スカイツリー", japanese: true) == 0..<3)
    #expect(covered("suka", "スカイツリー", japanese: true) == 0..<2)
    #expect(covered("sukaitsuri", "スカイツリー", japanese: true) == 0..<6)
    #expect(covered("matsumoto", "マツモトキヨシ", japanese: true) == 0..<4)
    #expect(covered("ky", "キャンプ", japanese: true) == 0..<2)
    #expect(covered("kaisha", "会社", japanese: true) == nil)
    #expect(covered("tsuri", "スカイツリー", japanese: true) == nil)
  }

  /// Through the highlighter: the ranges point into the displayed name.
  @Test func theHighlightPointsIntoTheDisplayedName() {
    let cases: [(query: [String], text: String, ranges: [Range<Int>])] = [
      (["zhongsh"], "中山纪念图书馆", [0..<2]),
      (["zhong", "shan", "ji"], "中山纪念图书馆", [0..<3]),
      (["sukai"], "東京スカイツリー", [2..<5]),
      (["hua"], "华联 超市", [0..<1]),
      (["rosn"], "Роснефть", [0..<4]),
    ]
    for c in cases {
      #expect(
        MatchHighlighter.matches(queryTokens: c.query, in: c.text, abbreviations: table)
          == c.ranges, "\(c.query) on \(c.text)")
    }
  }
}
