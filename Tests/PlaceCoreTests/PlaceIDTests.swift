import TestSupport
import Testing

@testable import PlaceCore

/// The one syntax of place IDs.
@Suite struct PlaceIDTests {
  @Test(arguments: [
    ("N240109189", PlaceID.Kind.node, Int64(240_109_189)), ("W4444", .way, 4444),
    ("R1155956", .relation, 1_155_956), ("N0", .node, 0),
    ("W9223372036854775807", .way, Int64.max), ("P3217227367", .postcode, 3_217_227_367),
  ])
  func parses(text: String, kind: PlaceID.Kind, id: Int64) throws {
    let parsed = try #require(PlaceID(text))
    #expect(parsed.kind == kind && parsed.id == id)
    #expect(parsed.description == text)
  }

  @Test(arguments: [
    "", "N", "n123", "X123", "N-1", "N+1", "N 1", "N1 ", "N١٢", "W9223372036854775808",
    "N123456789012345678901", "NN1", "p12", "P", "PFI00100",
  ])
  func refuses(text: String) {
    #expect(PlaceID(text) == nil, "\(text)")
  }

  @Test func everyIDPrintsAsItParses() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let kind = PlaceID.Kind.allCases[Int(random.next() % 4)]
      let id = Int64(random.next() >> (1 + random.next() % 63))
      let place = PlaceID(kind: kind, id: id)
      #expect(PlaceID(place.description) == place, "\(place)")
    }
    #expect(PlaceID(kind: 3, id: 1)?.description == "P1")
    #expect(PlaceID(kind: 4, id: 1) == nil)
  }
}
