import Foundation
import TestSupport
import Testing

@testable import PlaceCore

/// `name` values of OSM XML extracts, read with a plain line scan (no XML library).
enum TextOSMNames {
  static let helsinki = TextTestData.sharedDirectory
    .appendingPathComponent("data/osm/helsinki-center-2019.osm")
  static let manhattan = TextTestData.sharedDirectory
    .appendingPathComponent("data/osm/manhattan-lower-east-side-2020.osm")

  static var helsinkiAvailable: Bool { FileManager.default.fileExists(atPath: helsinki.path) }
  static var manhattanAvailable: Bool { FileManager.default.fileExists(atPath: manhattan.path) }

  /// The values of `<tag k="name" v="..."/>` (and `name:xx`, `addr:street` when asked), with
  /// XML entities decoded.
  static func names(in url: URL, keys: [String] = ["name"]) throws -> [String] {
    let text = try String(contentsOf: url, encoding: .utf8)
    let markers = keys.map { "k=\"\($0)\" v=\"" }
    var names: [String] = []
    for line in text.split(separator: "\n") {
      for marker in markers {
        guard let start = line.range(of: marker) else { continue }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { continue }
        names.append(decodeEntities(String(rest[..<end])))
      }
    }
    return names
  }

  static func decodeEntities(_ value: String) -> String { XMLText.unescape(value) }
}

@Suite struct TextNormalizationRealDataTests {
  let table = TextTestData.abbreviations

  /// Every token of every name is among its index terms, and a name's first token highlights
  /// that token from its start.
  func checkNames(_ names: [String], label: String, maxAverage: Double = 2.5) {
    #expect(names.count > 0)
    var tokenCount = 0
    var termCount = 0
    var maxTerms = 0
    var failures: [String] = []
    for name in names {
      let tokens = Tokenizer.tokens(name)
      let terms = IndexTerms.terms(for: name, abbreviations: table)
      tokenCount += tokens.count
      termCount += terms.count
      maxTerms = max(maxTerms, terms.count)
      for token in tokens where !terms.contains(token.text) {
        failures.append("\(name): term \(token.text) missing")
      }
      guard let first = tokens.first else { continue }
      let ranges = MatchHighlighter.matches(
        queryTokens: [first.text], in: name, abbreviations: table)
      if !ranges.contains(where: {
        $0.lowerBound <= first.range.lowerBound && $0.upperBound >= first.range.upperBound
      }) {
        failures.append(
          "\(name): first token \(first.text) \(first.range) not highlighted: \(ranges)")
      }
      if first.range.lowerBound == 0 && ranges.first?.lowerBound != 0 {
        failures.append("\(name): highlight does not start at 0: \(ranges)")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
    let average = Double(termCount) / Double(max(tokenCount, 1))
    print(
      "[text] \(label): \(names.count) names, \(tokenCount) tokens, \(termCount) terms, "
        + "\(String(format: "%.2f", average)) terms per token, max \(maxTerms) terms per name")
    #expect(average < maxAverage, "\(label)")
  }

  @Test(.enabled(if: TextOSMNames.helsinkiAvailable, "helsinki-center-2019.osm not found"))
  func helsinkiNames() throws {
    let names = try TextOSMNames.names(in: TextOSMNames.helsinki)
    print("[text] read \(names.count) names from \(TextOSMNames.helsinki.lastPathComponent)")
    checkNames(names, label: "helsinki name")
    let streets = try TextOSMNames.names(in: TextOSMNames.helsinki, keys: ["addr:street"])
    // Street names are mostly compounds ("Yrjönkatu" → yrjonkatu, yrjonk, yrjon, katu).
    checkNames(streets, label: "helsinki addr:street", maxAverage: 5)
    let translated = try TextOSMNames.names(
      in: TextOSMNames.helsinki, keys: ["name:sv", "name:ru", "name:zh", "name:en"])
    checkNames(translated, label: "helsinki name:sv/ru/zh/en")
  }

  @Test(
    .enabled(if: TextOSMNames.manhattanAvailable, "manhattan-lower-east-side-2020.osm not found"))
  func manhattanNames() throws {
    let names = try TextOSMNames.names(in: TextOSMNames.manhattan, keys: ["name", "addr:street"])
    print("[text] read \(names.count) names from \(TextOSMNames.manhattan.lastPathComponent)")
    checkNames(names, label: "manhattan name+addr:street", maxAverage: 3)
  }

  @Test(.enabled(if: TextOSMNames.helsinkiAvailable, "helsinki-center-2019.osm not found"))
  func finnishStreetAbbreviationsMatch() throws {
    let streets = Set(try TextOSMNames.names(in: TextOSMNames.helsinki, keys: ["addr:street"]))
    var checked = 0
    for street in streets.sorted() where street.hasSuffix("katu") && street.count > 6 {
      let terms = IndexTerms.terms(for: street, abbreviations: table)
      let stem = String(street.dropLast(4))
      #expect(textQueryMatches(stem + "k.", terms: terms), "\(street)")
      #expect(textQueryMatches(stem, terms: terms), "\(street)")
      checked += 1
    }
    print("[text] checked \(checked) Helsinki -katu streets")
    #expect(checked > 10)
  }

  @Test func foldTableIsBuiltOnFirstUse() {
    // The table is a lazily built global: its first use builds it.
    #expect(FoldTable.shared.storage.count > 0)
  }
}

@Suite struct TextNormalizationPropertyTests {
  static let pools: [[Unicode.Scalar]] = [
    Array("abcXYZ0123456789   -/'.,&".unicodeScalars),
    Array("äöüÄÖÜßéèêçñåøæÅØÆÐþŁ".unicodeScalars),
    (0x300...0x36F).compactMap(Unicode.Scalar.init),
    Array("東京駅大阪서울がガｶﾞｽ".unicodeScalars),
    Array("🍕👍🏽👨‍👩‍👧\u{FE0F}\u{20E3}".unicodeScalars),
    Array("\u{200D}\u{200C}\u{AD}\u{200B}\u{2019}·\u{2013}\u{2212}".unicodeScalars),
    Array("ＡＢ１２／－ﬁﬂ①½Ⅻ\u{212A}".unicodeScalars),
    Array("القاهرةנמסתेनमस्ते".unicodeScalars),
    Array("ΑΘΗΝΑάςМосква".unicodeScalars),
  ]

  static func randomText(_ generator: inout SplitMix64) -> String {
    var view = String.UnicodeScalarView()
    let length = generator.int(in: 0...40)
    for _ in 0..<length {
      let pool = generator.element(of: pools)
      view.append(generator.element(of: pool))
    }
    return String(view)
  }

  static func check(_ ranges: [Range<Int>], within count: Int, merged: Bool) -> Bool {
    var previousEnd = -1
    for range in ranges {
      guard range.lowerBound >= 0, range.upperBound <= count, !range.isEmpty else { return false }
      guard merged ? range.lowerBound > previousEnd : range.lowerBound >= previousEnd else {
        return false
      }
      previousEnd = range.upperBound
    }
    return true
  }

  @Test(arguments: [1, 2, 3, 4])
  func randomTextNeverBreaksInvariants(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    let table = TextTestData.abbreviations
    var failures: [String] = []
    for _ in 0..<500 {
      let text = Self.randomText(&generator)
      let count = text.unicodeScalars.count
      let tokens = Tokenizer.tokens(text)
      if !Self.check(tokens.map(\.range), within: count, merged: false)
        || tokens.contains(where: { $0.text.isEmpty })
      {
        failures.append("tokens of \(text.debugDescription): \(tokens)")
      }
      let terms = IndexTerms.terms(for: text, abbreviations: table)
      if Set(terms).count != terms.count || terms.contains(where: \.isEmpty)
        || tokens.contains(where: { !terms.contains($0.text) })
      {
        failures.append("terms of \(text.debugDescription): \(terms)")
      }
      var queries = tokens.map(\.text)
      for token in tokens {
        let scalars = Array(token.text.unicodeScalars)
        let cut = generator.int(in: 1...scalars.count)
        queries.append(String(textScalars: scalars[..<cut]))
      }
      queries.append(Self.randomText(&generator))
      queries.append(contentsOf: terms.prefix(3))
      let ranges = MatchHighlighter.matches(queryTokens: queries, in: text, abbreviations: table)
      if !Self.check(ranges, within: count, merged: true) {
        failures.append("highlight of \(text.debugDescription) for \(queries): \(ranges)")
      }
      for token in tokens {
        let own = MatchHighlighter.matches(
          queryTokens: [token.text], in: text, abbreviations: table)
        if !own.contains(where: {
          $0.lowerBound <= token.range.lowerBound && $0.upperBound >= token.range.upperBound
        }) {
          failures.append("own token \(token) of \(text.debugDescription) not covered: \(own)")
        }
      }
      _ = TextNormalizer.alternateFold(text)
    }
    #expect(failures.isEmpty, "\(failures.prefix(10))")
  }
}
