import Foundation
import TestSupport
import Testing

@testable import PlaceIndex

/// docs/RANKING.md states the weights the code uses.
@Suite struct RankingDocumentTests {
  @Test func theRankingPageStatesTheWeightsInTheCode() throws {
    let doc = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/RANKING.md"), encoding: .utf8)
    typealias W = Ranking
    let statements = [
      "| name | \(W.nameExact) | \(W.namePrefix) |",
      "| alternative name only | \(W.alternativeName) × \(W.nameExact) | \(W.alternativeName) × \(W.namePrefix) |",
      "| context only | \(W.contextExact) | \(W.contextPrefix) |",
      "counts \(W.typoShare) of a prefix match",
      "plus \(W.coverage) × the share of the name's words",
      "plus \(W.wholeName) when the typed words cover every word",
      "\(W.importance) × the place's importance",
      "\(W.nearness) × exp(−distance / \(Int(W.nearnessScale / 1000)) km)",
      "\(W.localNearness) × exp(−distance / \(Int(W.localNearnessScale / 1000)) km)",
      "gets the full \(W.maxNearness) and \(W.insideBias) more",
      "earns it from \(Ranking.wholeNameMinimum) letters on",
      "**Whole address:** a place whose address was typed whole scores as a name typed whole, with\n  \(W.wholeAddress) in place of the whole-name bonus",
      "holds at most \(Ranking.wholeAddressPlaces)\n  places over all shards",
      "**Name start:** plus \(W.nameStart), in place of the whole-name bonus",
      "shorter than \(W.startsNamesBelowLetters) letters,\n  starts the names its prefix starts",
      "earns \(W.typoShare) of the whole-name bonus",
      "shorter than \(W.exactFromLetters) letters, counts as a prefix",
      "From \(W.typoOneEditFrom) letters on, a word also matches tokens within one edit",
      "one edit from \(W.syllableTypoOneEditFrom) characters, two from \(W.syllableTypoTwoEditsFrom)",
      "closer than \(Int(W.stationRadius(true))) m are one station",
      "closer than \(Int(W.namedAfterRadius / 1000)) km, is shown after that place",
      "more than \(Ranking.nearFirstMinimumCost) places",
      "after \(Ranking.nearFirstAfter) records,",
      "goes on past \(Ranking.filterAfter) places",
      "at most\n  \(Ranking.filterRatio) times as many places",
      "when they hold at most\n  \(Ranking.nearOtherPlaces) places",
      "From \(Int(Ranking.nearnessReach / 1000)) km on the nearness is 0",
    ]
    for s in statements {
      #expect(doc.contains(s), "docs/RANKING.md should say: \(s)")
    }
  }
}
