import Foundation
import PlaceCore
import PlaceIndexFormat
import TestSupport
import Testing

@testable import PlaceIndex

/// NAME STARTS (format 7.3): where each place's name's first word lies among its name tokens
/// in TERMS, which the search tells the name-start bonus by. Every value of the sample names
/// the token of its place's first word; a wrong value is refused naming the place; a file
/// without the section (7.2) answers with no name-start bonus.
@Suite("NAME STARTS: where each place's name's first word lies among its tokens")
struct NameStartsRulesTests {
  @Test("every place's value names the token of its name's first word")
  func valuesNameTheFirstWord() throws {
    let index = FuzzHarness.sampleClient.indexes[0]
    let starts = try #require(index.nameStarts)
    let shared = try index.sharedTerms
    var refs = PlaceTermRefs()
    var named = 0
    for rank in 0..<index.places.count {
      let name = try index.strings.string(try index.places.entry(rank).primaryText)
      try index.terms.refs(of: rank, into: &refs)
      guard let position = starts[rank] else {
        // None: the first word is not among the name's first 15 tokens.
        if let word = Tokenizer.firstToken(name), let id = try index.tokens.exactID(word) {
          let first15 = (0..<15).compactMap { refs.nameToken(at: $0, shared: shared) }
          #expect(!first15.contains(id), "place \(rank) \(name)")
        }
        continue
      }
      let token = try #require(refs.nameToken(at: position, shared: shared))
      #expect(try index.tokens.token(token) == Tokenizer.firstToken(name), "place \(rank) \(name)")
      named += 1
    }
    #expect(named > index.places.count / 2, "\(named) of \(index.places.count)")
  }

  @Test("a value that is not the first word's position is refused naming the place")
  func wrongValueIsRefused() throws {
    let index = FuzzHarness.sampleClient.indexes[0]
    let starts = try #require(index.nameStarts)
    // The first place whose value is 0: made 1, another token or none.
    let rank = try #require((0..<index.places.count).first { starts[$0] == 0 })
    let bad = try CorruptIndexTests.replacingSection(
      .nameStarts, of: FuzzHarness.sampleIndexBytes
    ) { section in
      var s = section
      let shift = rank & 1 == 0 ? 0 : 4
      s[8 + rank / 2] = s[8 + rank / 2] & ~UInt8(15 << shift) | UInt8(1 << shift)
      return s
    }
    let broken = try PrefixUnionsRulesTests.open(bad)
    do throws(IndexFormatError) {
      try broken.verifyFormat()
      Issue.record("a wrong name start passed verify")
    } catch {
      #expect("\(error)".contains("place \(rank): name start 1"), "\(error)")
    }
  }

  @Test("a file without the section answers, with no name-start bonus")
  func withoutTheSection() throws {
    let without = try PrefixUnionsRulesTests.open(
      NameWordsRulesTests.withoutSection(.nameStarts))
    #expect(without.nameStarts == nil)
    try without.verifyFormat()
    let with = FuzzHarness.sampleClient.indexes[0]
    let (tokens, _) = try PrefixUnionsRulesTests.sampleLists()
    var answered = 0
    var started = 0
    for t in tokens.prefix(200) {
      let plan = QueryPlan(query: String(t.prefix(2)), inputOffset: nil)
      let a = try with.search(plan, filter: .init(), typeFilter: .any, limit: 5)
      let b = try without.search(plan, filter: .init(), typeFilter: .any, limit: 5)
      #expect(a.count == b.count, "\(t.prefix(2))")
      if !b.isEmpty { answered += 1 }
      // The best score with the section is the one without it, or that plus the bonus.
      if let x = a.first?.score, let y = b.first?.score {
        #expect(x >= y && x <= y + Ranking.nameStart + 1e-9, "\(t.prefix(2))")
        if x > y { started += 1 }
      }
    }
    #expect(answered > 100 && started > 50, "\(answered) answered, \(started) started")
  }
}
