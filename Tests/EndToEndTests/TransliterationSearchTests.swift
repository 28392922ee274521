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
  ]

  @Test(arguments: 0..<cases.count)
  func aLatinSpellingFindsTheName(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let (query, id) = Self.cases[i]
    let s = try placeSuggestions(client, query)
    #expect(s.first?.placeID == id, "'\(query)' gave \(s.prefix(5).map(\.fullText.text))")
  }

  /// The displayed name stays the original; its highlight ranges lie inside it (a Latin
  /// spelling matches no letters of it, so it has none).
  @Test func theDisplayedNameIsTheOriginal() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let s = try #require(try placeSuggestions(client, "sberbank").first)
    #expect(s.primaryText.text == "Сбербанк")
    #expect(s.primaryText.matches.allSatisfy { $0.upperBound <= 8 })
  }
}
