import Testing

@testable import PlaceCore

@Suite struct TextNormalizationHighlightTests {
  let table = TextTestData.abbreviations

  static let cases: [([String], String, [Range<Int>])] = [
    (["zur"], "Zürich", [0..<3]),
    (["zurich"], "Zürich", [0..<6]),
    (["zue"], "Zürich", [0..<2]),
    (["zuerich"], "Zürich", [0..<6]),
    (["zur"], "Zu\u{308}rich", [0..<4]),
    (["zu"], "Zu\u{308}rich", [0..<3]),
    (["z"], "Zu\u{308}rich", [0..<1]),
    (["stra"], "Straße", [0..<4]),
    (["stras"], "Straße", [0..<5]),
    (["strass"], "Straße", [0..<5]),
    (["strasse"], "Hauptstraße", [5..<11]),
    (["haupt", "strasse"], "Hauptstraße", [0..<11]),
    (["hauptstr"], "Hauptstraße", [0..<8]),
    (["st"], "Main Street", [5..<7]),
    (["street"], "Main St", [5..<7]),
    (["main", "st"], "Main Street", [0..<4, 5..<7]),
    (["ae"], "Ærø", [0..<1]),
    (["a"], "Ærø", [0..<1]),
    (["aero"], "Ærø", [0..<3]),
    (["17"], "Stroupežnického 3191/17, Praha", [21..<23]),
    (["3191/17"], "Stroupežnického 3191/17, Praha", [16..<23]),
    (["3191"], "Stroupežnického 3191/17, Praha", [16..<20]),
    (["strou", "praha"], "Stroupežnického 3191/17, Praha", [0..<5, 25..<30]),
    (["stroupez"], "Stroupežnického 3191/17, Praha", [0..<8]),
    (["23-30", "29th", "st"], "23-30 29th St, Queens", [0..<5, 6..<10, 11..<13]),
    (["30"], "23-30 29th St", [3..<5]),
    (["kanal", "18"], "Kanalstraße 18", [0..<5, 12..<14]),
    (["kanalstrasse"], "Kanal Straße", [0..<5, 6..<12]),
    (["kanalst"], "Kanal Straße", [0..<5, 6..<8]),
    (["kanalstrasse"], "Kanal Str. 5", [0..<9]),
    (["hauptstrasse"], "Hauptstr. 5", [0..<8]),
    (["12bis"], "12 bis", [0..<2, 3..<6]),
    (["yrjonk"], "Yrjönkatu", [0..<6]),
    (["yrjoen"], "Yrjönkatu", [0..<5]),
    (["katu"], "Yrjönkatu", [5..<9]),
    (["zurich"], "ＺＵＲＩＣＨ", [0..<6]),
    (["f"], "ﬁnal", [0..<1]),
    (["fi"], "ﬁnal", [0..<1]),
    (["fin"], "ﬁnal", [0..<2]),
    (["mcdonalds"], "McDonald's", [0..<10]),
    (["mcdonald"], "McDonald's", [0..<8]),
    (["eglise"], "Rue de l'Église", [9..<15]),
    (["leg"], "Rue de l'Église", [7..<11]),
    (["zu", "zur"], "Zürich", [0..<3]),
    (["Zür"], "Zürich", [0..<3]),
    (["bahnhof"], "Zürich HB", []),
    ([], "Zürich", []),
    ([""], "Zürich", []),
    (["zur"], "", []),
    (["h"], "Hà Nội", [0..<1]),
    (["noi"], "Hà Nội", [3..<6]),
    (["東京"], "東京駅", [0..<2]),
    (["ｶ"], "ガス", [0..<1]),
    (["pizza"], "🍕 Pizza", [2..<7]),
  ]

  @Test(arguments: cases)
  func ranges(query: [String], text: String, expected: [Range<Int>]) {
    let ranges = MatchHighlighter.matches(queryTokens: query, in: text, abbreviations: table)
    #expect(ranges == expected, "\(query) in \(text)")
  }

  /// One prepared text serves every query: each table case's text, prepared once, gives
  /// every case's query the ranges that preparing it anew gives.
  @Test func aPreparedTextKeepsNothingOfThePreviousQuery() {
    var compared = 0
    for text in Set(Self.cases.map(\.1)) {
      let prepared = MatchHighlighter.Prepared(text, abbreviations: table)
      for (query, _, _) in Self.cases {
        let reused = MatchHighlighter.matches(
          queryTokens: query, in: prepared, abbreviations: table)
        #expect(
          reused == MatchHighlighter.matches(queryTokens: query, in: text, abbreviations: table))
        if !reused.isEmpty { compared += 1 }
      }
    }
    #expect(compared >= Self.cases.count)
  }

  @Test func everyMatchingDisplayTokenIsMarked() {
    let ranges = MatchHighlighter.matches(
      queryTokens: ["main"], in: "Main Street, Main Town", abbreviations: table)
    #expect(ranges == [0..<4, 13..<17])
  }

  @Test func rangesConvertToStringIndices() {
    let text = "Café Zürich"
    let ranges = MatchHighlighter.matches(queryTokens: ["zur"], in: text, abbreviations: table)
    let scalars = text.unicodeScalars
    let pieces = ranges.map { range in
      String(
        scalars[
          scalars.index(
            scalars.startIndex, offsetBy: range.lowerBound)..<scalars.index(
              scalars.startIndex, offsetBy: range.upperBound)])
    }
    #expect(pieces == ["Zür"])
  }
}
