import OSMReader
import TestSupport
import Testing

@testable import PlaceIndexBuilder

/// Packed tags give back what a dictionary of the same tags (first of a key kept) gives.
@Suite struct PackedTagsTests {
  /// The dictionary the collector built before tags were packed: the first tag of a key wins.
  static func firstWins(_ tags: [OSMTag]) -> [String: String] {
    var d: [String: String] = [:]
    for t in tags where d[t.key] == nil { d[t.key] = t.value }
    return d
  }

  @Test func keepsTheFirstOfAKeyAndLongAndNonASCIITexts() {
    let long = String(repeating: "Hauptstraße ", count: 40)  // over 127 bytes: 2-byte length
    let tags = [
      OSMTag(key: "name", value: "Zürich"), OSMTag(key: "amenity", value: "cafe"),
      OSMTag(key: "name", value: "Second"), OSMTag(key: "note", value: ""),
      OSMTag(key: "description", value: long), OSMTag(key: "name:ja", value: "チューリッヒ"),
    ]
    let packed = PackedTags(tags)
    #expect(packed["name"] == "Zürich")
    #expect(packed["note"] == "")
    #expect(packed["description"] == long)
    #expect(packed["name:ja"] == "チューリッヒ")
    #expect(packed["nam"] == nil && packed["shop"] == nil)
    #expect(packed.dictionary == Self.firstWins(tags))
    #expect(PackedTags([]).dictionary.isEmpty && PackedTags.empty["name"] == nil)
  }

  @Test func seededTagListsRoundTrip() {
    var random = SplitMix64(seed: 42)
    func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    let keys = ["name", "addr:street", "k", "ü", "building", "name:en"]
    let pieces = ["a", "é", "漢", " ", "long value ", ";"]
    // How many lists repeat a key, and carry a value over 127 bytes (a 2-byte length).
    var repeated = 0
    var long = 0
    for _ in 0..<500 {
      let tags = (0..<next(12)).map { _ in
        OSMTag(
          key: keys[next(keys.count)],
          value: (0..<next(60)).map { _ in pieces[next(pieces.count)] }.joined())
      }
      let packed = PackedTags(tags)
      let expected = Self.firstWins(tags)
      #expect(packed.dictionary == expected)
      for key in keys { #expect(packed[key] == expected[key]) }
      if expected.count < tags.count { repeated += 1 }
      if tags.contains(where: { $0.value.utf8.count > 127 }) { long += 1 }
    }
    // The cases the layout must get right turn up, so the comparisons above test them.
    #expect(repeated > 100 && long > 100)
  }
}
