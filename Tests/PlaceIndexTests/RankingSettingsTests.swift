import Testing

@testable import PlaceIndex

/// The ranking settings keep their rules (Search/Ranking.swift).
@Suite struct RankingSettingsTests {
  @Test func everyRuleOfTheSettingsHolds() {
    #expect(Ranking.rules.count >= 10)
    #expect(Ranking.violations.isEmpty, "\(Ranking.violations)")
  }

  @Test func theRelaxedPenaltyBoundIsTight() {
    // The stated word count is the most the penalty covers, so the rule would catch a penalty
    // lowered below it.
    #expect(Ranking.relaxedPenalty > Ranking.bestScore(words: Ranking.relaxedOrderWords))
    #expect(Ranking.relaxedPenalty <= Ranking.bestScore(words: Ranking.relaxedOrderWords + 8))
  }

  @Test(arguments: [(3, 0), (4, 1), (5, 1), (8, 1), (9, 2), (30, 2)])
  func editsGrowWithTheWordLength(length: Int, edits: Int) {
    #expect(Ranking.allowedEdits(length: length) == edits)
  }
}
