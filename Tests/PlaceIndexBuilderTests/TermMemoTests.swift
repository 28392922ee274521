import PlaceCore
import TestSupport
import Testing

@testable import PlaceIndexBuilder

/// The builder's memo of search terms gives what finding them anew gives.
@Suite struct TermMemoTests {
  @Test func aRememberedTextHasTheTermsItHadTheFirstTime() throws {
    let table = try BuildTables(directory: TestPaths.data).abbreviations
    var memo = TermMemo(abbreviations: table)
    let texts = [
      "Hauptstrasse 12", "St. Quirin", "Sankt Florinsgasse", "Hauptstrasse 12", "l'Église",
      "St. Quirin", "23-30 29th St", "pharmacy",
    ]
    var compared = 0
    for _ in 0..<2 {
      for text in texts {
        #expect(memo.terms(for: text) == IndexTerms.terms(for: text, abbreviations: table))
        #expect(
          memo.terms(for: text, abbreviated: false)
            == IndexTerms.terms(for: text, abbreviations: .empty))
        compared += 1
      }
    }
    // The abbreviation table matters for these texts, so the two kinds are kept apart.
    #expect(memo.terms(for: "St. Quirin") != memo.terms(for: "St. Quirin", abbreviated: false))
    #expect(compared == 16)
  }

  /// A memo over its limit starts over and still gives the terms found anew.
  @Test func aFullMemoStartsOverAndStaysRight() throws {
    let table = try BuildTables(directory: TestPaths.data).abbreviations
    var memo = TermMemo(abbreviations: table, limit: 3)
    var largest = 0
    for k in 0..<40 {
      let text = ["St. Quirin \(k % 7)", "Hauptstrasse \(k)", "l'Église"][k % 3]
      #expect(memo.terms(for: text) == IndexTerms.terms(for: text, abbreviations: table))
      largest = max(largest, memo.count)
    }
    #expect(largest == 3)
  }
}
