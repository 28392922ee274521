import Foundation
import PlaceCore
import PlaceIndexFormat
import TestSupport
import Testing

@testable import PlaceIndex

/// The direct JSON writer (``JSONWriter``, ``PlacesJSONProtocol/encodeResponseBytes(_:)``) and the
/// byte-level request decoder against the tree they replace on the hot path: the same bytes out,
/// the same requests (or the same errors) in.
@Suite struct JSONWriterTests {
  /// Strings that need every escape the writer has, and some that need none.
  static let nasty: [String] = [
    "", "plain", "quote \" inside", "back\\slash", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
    "tab\tnew\nline\r", "\u{7F}del", "Zürich – Ørsted ß 東京 🇫🇮", "\u{2028}\u{2029}",
    "\"\\\"\\", "end\\", "\u{1F}start", String(repeating: "ab\"", count: 400),
  ]

  @Test func escapesAsTheTreeDoes() {
    for s in Self.nasty {
      var writer = JSONWriter()
      writer.string(s)
      #expect(writer.bytes == Array(JSONValue.string(s).serialized.utf8), "\(s.debugDescription)")
      var prefixed = JSONWriter()
      prefixed.string("places/", s)
      #expect(
        prefixed.bytes == Array(JSONValue.string("places/" + s).serialized.utf8),
        "\(s.debugDescription)")
    }
  }

  /// Seeded strings of every length up to 40 from pieces that need escapes, ASCII, and
  /// multi-byte scalars, so that each kind lands at every place of the writer's 8-byte words.
  @Test func seededStringsEscapeAsTheTreeDoes() {
    let pieces = ["a", "Z", " ", "\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "東", "🇫🇮", "\u{7F}", "/"]
    var random = SplitMix64(seed: 8)
    var escaped = 0
    for _ in 0..<4000 {
      var s = ""
      for _ in 0..<(random.next() % 41) { s += pieces[Int(random.next() % UInt64(pieces.count))] }
      var writer = JSONWriter()
      writer.string(s)
      let tree = JSONValue.string(s).serialized
      #expect(writer.bytes == Array(tree.utf8), "\(s.debugDescription)")
      if tree.utf8.count > s.utf8.count + 2 { escaped += 1 }
    }
    #expect(escaped > 3000)
  }

  @Test func numbersAsTheTreeDoes() {
    var random = SplitMix64(seed: 24)
    var values: [Double] = [
      0, -0.0, 1, -1, 9, 10, 99, 100, 1e15 - 1, 1e15, -1e15 + 1, 1e16, 0.5, -0.25,
      47.145834199243765,
      9.564754617179739, -180, 90, .infinity, -.infinity, .nan, Double(Int64.max), 1e-300,
    ]
    for _ in 0..<2000 {
      let bits = random.next()
      values.append(Double(Int64(bitPattern: bits) >> Int(bits % 60)))
      values.append(Double(bitPattern: bits))
    }
    for v in values {
      var writer = JSONWriter()
      writer.number(v)
      #expect(writer.bytes == Array(JSONValue.number(v).serialized.utf8), "\(v)")
    }
    for n in [0, 1, -1, 42, Int(Int32.max), -987_654_321] {
      var writer = JSONWriter()
      writer.integer(n)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(n))
    }
  }

  @Test func nestingAndCommasAsTheTreeDoes() {
    var w = JSONWriter()
    w.beginObject()
    w.key("a")
    w.beginArray()
    w.endArray()
    w.key("b")
    w.beginObject()
    w.endObject()
    w.key("c")
    w.beginArray()
    w.integer(1)
    w.beginObject()
    w.key("x")
    w.null()
    w.key("y")
    w.bool(true)
    w.endObject()
    w.beginArray()
    w.string("s")
    w.bool(false)
    w.endArray()
    w.value(.object([("k", .array([.number(2), .string("t")]))]))
    w.endArray()
    w.key("d \"quoted\"")
    w.number(0.5)
    w.endObject()
    let tree = JSONValue.object([
      ("a", .array([])), ("b", .object([])),
      (
        "c",
        .array([
          .number(1), .object([("x", .null), ("y", .bool(true))]),
          .array([.string("s"), .bool(false)]),
          .object([("k", .array([.number(2), .string("t")]))]),
        ])
      ),
      ("d \"quoted\"", .number(0.5)),
    ])
    #expect(String(decoding: w.bytes, as: UTF8.self) == tree.serialized)
  }

  @Test func syntheticSuggestionsAsTheTreeDoes() {
    var random = SplitMix64(seed: 2024)
    var suggestions: [AutocompleteSuggestion] = []
    for i in 0..<300 {
      func text() -> MatchedText {
        let s = Self.nasty[Int(random.next() % UInt64(Self.nasty.count))]
        let count = s.unicodeScalars.count
        let matches = count > 1 && random.next() % 2 == 0 ? [0..<1, 1..<count] : []
        return MatchedText(text: s, matches: matches)
      }
      suggestions.append(
        .place(
          AutocompletePlaceSuggestion(
            placeID: "N\(i)\(Self.nasty[i % Self.nasty.count])",
            types: (0..<Int(random.next() % 4)).map { "type\($0)\"" },
            distanceMeters: random.next() % 3 == 0 ? nil : Int(random.next() % 20_000_000),
            fullText: text(), primaryText: text(), secondaryText: text())))
    }
    for n in [0, 1, 5, 300] {
      let some = Array(suggestions.prefix(n))
      #expect(
        PlacesJSONProtocol.encodeResponseBytes(some)
          == Array(PlacesJSONProtocol.responseObject(some).serialized.utf8))
    }
  }

  /// Seeded requests on the Helsinki index (Finnish and Swedish names, diacritics, origins):
  /// every answer written directly is the tree's answer, byte for byte.
  @Test(
    .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
  func realAnswersAsTheTreeDoes() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let client = PlacesClient(indexes: [index])
    var words: [String] = []
    try index.tokens.forEach { _, t in words.append(String(decoding: t, as: UTF8.self)) }
    #expect(words.count > 1000)
    var random = SplitMix64(seed: 11)
    var answered = 0
    var withMatches = 0
    var withDistance = 0
    for _ in 0..<1500 {
      var query = ""
      for _ in 0...(random.next() % 2) {
        let word = words[Int(random.next() % UInt64(words.count))]
        query += (query.isEmpty ? "" : " ") + String(word.prefix(1 + Int(random.next() % 6)))
      }
      var request = AutocompleteRequest(query: query)
      if random.next() % 2 == 0 {
        request.filter.origin = Coordinate(
          latitude: 60.15 + Double(random.next() % 1000) / 10_000,
          longitude: 24.9 + Double(random.next() % 1000) / 10_000)
      }
      let suggestions = try client.autocompleteSuggestions(for: request)
      let direct = PlacesJSONProtocol.encodeResponseBytes(suggestions)
      let tree = Array(PlacesJSONProtocol.responseObject(suggestions).serialized.utf8)
      #expect(direct == tree, "\(query)")
      #expect(PlacesJSONProtocol.encodeResponse(suggestions).utf8.elementsEqual(tree))
      if !suggestions.isEmpty { answered += 1 }
      let places = suggestions.compactMap(\.placeSuggestion)
      if places.contains(where: { !$0.primaryText.matches.isEmpty }) { withMatches += 1 }
      if places.contains(where: { $0.distanceMeters != nil }) { withDistance += 1 }
    }
    #expect(answered > 1000)
    #expect(withMatches > 1000)
    #expect(withDistance > 300)
  }

  /// The body decoder (ASCII parsed as bytes, the rest through a String) decodes what the line
  /// decoder decodes and refuses what it refuses, with the same message.
  @Test func bodiesDecodeAsLinesDo() {
    let pieces = [
      "{", "}", "[", "]", ",", ":", "\"input\"", "\"origin\"", "\"latitude\"", "\"longitude\"",
      "\"maxResultCount\"", "\"sessionToken\"", "\"includedPrimaryTypes\"", "\"zürich\"",
      "\"a\\u00e9\"",
      "\"\\ud83d\\ude00\"", "\"\\ud800\"", "1", "-2.5e3", "47.1", "true", "null", " ", "\n",
      "\"x\"",
      "\"in\\\"put\"", "\u{FEFF}",
    ]
    var random = SplitMix64(seed: 5)
    var decoded = 0
    var refused = 0
    var bodies: [[UInt8]] = [
      Array(
        #"{"input":"vaduz","origin":{"latitude":47.1,"longitude":9.5},"maxResultCount":3}"#.utf8),
      [0xEF, 0xBB, 0xBF] + Array(#"{"input":"bom"}"#.utf8),
      Array(#"{"input":"caf"#.utf8) + [0xC3] + Array(#""}"#.utf8),
      Array(#"{"input":"#.utf8) + [0xFF] + Array("}".utf8),
      [],
    ]
    for _ in 0..<3000 {
      var body: [UInt8] = []
      if random.next() % 3 == 0 {
        body = Array(#"{"input":"#.utf8)
      }
      for _ in 0..<(random.next() % 12) {
        body += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8)
      }
      if random.next() % 10 == 0 { body.append(UInt8(truncatingIfNeeded: random.next() | 0x80)) }
      if random.next() % 3 == 0 { body += Array("}".utf8) }
      bodies.append(body)
    }
    for body in bodies {
      let line = String(decoding: body, as: UTF8.self)
      let a = Result { () throws(PlacesError) in try PlacesJSONProtocol.decodeRequest(body: body) }
      let b = Result { () throws(PlacesError) in try PlacesJSONProtocol.decodeRequest(line) }
      #expect(a == b, "\(line.debugDescription)")
      if case .success = a { decoded += 1 } else { refused += 1 }
    }
    #expect(decoded >= 3)
    #expect(refused > 100)
  }
}
