import Foundation
import PlaceIndex
import TestSupport
import Testing

/// A name in Han or Kana found by its Pinyin or Hepburn shows the characters typed in bold.
@Suite struct EastAsianHighlightTests {
  @Test func aPinyinOrHepburnMatchHighlightsTheCharactersTyped() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let cases: [(query: String, id: String, name: String, matches: [Range<Int>])] = [
      ("zhongshan", "N8", "中山纪念图书馆", [0..<2]),
      ("zhong shan ji", "N8", "中山纪念图书馆", [0..<3]),
      ("hualian", "N37", "华联", [0..<2]),
      ("sukaitsuri", "N9", "東京スカイツリー", [2..<8]),
      ("matsumoto", "N34", "マツモトキヨシ", [0..<4]),
    ]
    for c in cases {
      let s = try #require(
        try placeSuggestions(client, c.query).first { $0.placeID == c.id }, "\(c.query)")
      #expect(s.primaryText.text == c.name)
      #expect(s.primaryText.matches == c.matches, "'\(c.query)' on \(c.name)")
    }
  }
}
