import PlaceCore
import Testing

@testable import placeidx_bench

/// The pieces of the harness the Tantivy peer and the split into halves rest on: the pipe
/// protocol's encoding and decoding, the seeded halves, and keystrokes saved.
@Suite struct PeerProtocolTests {
  @Test func answerLinesParseToRanks() {
    #expect(TantivyPeer.parseRanks(Array("[12,5,7]".utf8)) == [12, 5, 7])
    #expect(TantivyPeer.parseRanks(Array("[3, 40]".utf8)) == [3, 40])
    #expect(TantivyPeer.parseRanks(Array("[]".utf8)) == [])
  }

  @Test func errorAndBrokenLinesAreRefused() {
    #expect(TantivyPeer.parseRanks(Array("{\"error\": \"bad request\"}".utf8)) == nil)
    #expect(TantivyPeer.parseRanks(Array("[1,2".utf8)) == nil)
    #expect(TantivyPeer.parseRanks(Array("[1,x]".utf8)) == nil)
    #expect(TantivyPeer.parseRanks(Array("[-1]".utf8)) == nil)
  }

  @Test func queriesAreEscapedAsJSONStrings() {
    #expect(jsonStringLiteral("Kauppahalli") == "\"Kauppahalli\"")
    #expect(jsonStringLiteral("a\"b\\c") == "\"a\\\"b\\\\c\"")
    #expect(jsonStringLiteral("x\ny\u{1}") == "\"x\\ny\\u0001\"")
    #expect(jsonStringLiteral("Mannerheimvägen ß") == "\"Mannerheimvägen ß\"")
  }

  @Test func halvesAreStableAndSplitRoughlyEvenly() {
    var tuning = 0
    for i in 0..<1_000 {
      let h = TargetHalf.of(seed: 20_240_601, category: .poi, placeID: "N\(i)", text: "Place \(i)")
      #expect(
        h == TargetHalf.of(seed: 20_240_601, category: .poi, placeID: "N\(i)", text: "Place \(i)"))
      if h == .tuning { tuning += 1 }
    }
    #expect(tuning > 400 && tuning < 600)
    // Another seed gives another split.
    let other = (0..<200).filter {
      TargetHalf.of(seed: 1, category: .poi, placeID: "N\($0)", text: "Place \($0)")
        != TargetHalf.of(seed: 20_240_601, category: .poi, placeID: "N\($0)", text: "Place \($0)")
    }
    #expect(!other.isEmpty)
  }

  @Test func keystrokesSavedCountsTheUntypedShare() {
    let targets = [
      Target(category: .poi, rank: 0, text: "abcd", origin: nil, half: .tuning),
      Target(category: .poi, rank: 1, text: "abcdefgh", origin: nil, half: .heldOut),
      Target(category: .street, rank: 2, text: "xy", origin: nil, half: .tuning),
    ]
    func outcome(_ first: Int?) -> TargetOutcome {
      TargetOutcome(firstTop5: first, top5: first != nil, top1: false, fullPosition: nil)
    }
    // Entered at 1 of 4 (3/4 saved), at 8 of 8 (none saved), never (none saved).
    let ours = [outcome(1), outcome(8), outcome(nil)]
    let peer = [outcome(2), outcome(4), outcome(1)]
    let rows = QualityScorer.rows(targets, ours: ours, peer: peer)
    let poi = rows.first { $0.category == "poi" }!
    #expect(abs(poi.ours.keystrokesSaved - (0.75 + 0) / 2) < 1e-9)
    #expect(abs(poi.peer.keystrokesSaved - (0.5 + 0.5) / 2) < 1e-9)
    let all = rows.first { $0.category == "all" }!
    #expect(abs(all.ours.keystrokesSaved - 0.75 / 3) < 1e-9)
    // Pairs only where every system entered: the street target is the ours-missed one.
    #expect(all.pairedTargets == 2)
    let tuning = QualityScorer.rows(targets, ours: ours, peer: peer, half: .tuning)
    #expect(tuning.first { $0.category == "all" }?.targets == 2)
    #expect(
      tuning.first { $0.category == "all" }.map { abs($0.peer.keystrokesSaved - 0.5) } ?? 1 < 1e-9)
  }
}
