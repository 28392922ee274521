import Foundation
import PlaceIndexBuilder
import TestSupport
import Testing

@testable import PlaceIndex

/// The project's sample extract's index, built once.
let sampleSearchIndex: Result<String, Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("sample.placeidx").path
  let tables = try BuildTables(directory: TestPaths.data)
  _ = try IndexBuilder(tables: tables).build(
    IndexBuilder.Options(extract: TestPaths.data + "/sample.osm", output: out))
  return out
}

/// `placeidx query --explain`: each result's parts add up to the score it was ranked by, and
/// the explained results are the ones shown.
@Suite struct ExplanationTests {
  /// Every prefix of `texts`, without and with `origin`, explained; returns what was covered.
  func checkEveryPrefix(_ client: PlacesClient, _ texts: [String], origin: Coordinate) throws
    -> (results: Int, relaxed: Int, folded: Int, near: Int)
  {
    var results = 0
    var relaxed = 0
    var folded = 0
    var near = 0
    for text in texts {
      let chars = Array(text)
      for n in 1...chars.count {
        for filter in [AutocompleteFilter(), AutocompleteFilter(origin: origin)] {
          let request = AutocompleteRequest(query: String(chars[0..<n]), filter: filter)
          let explained = try client.explainedSuggestions(for: request)
          let shown = try client.autocompleteSuggestions(for: request)
          #expect(
            explained.map(\.suggestion.placeID) == shown.compactMap(\.placeSuggestion?.placeID),
            "\(request.query)")
          for e in explained {
            #expect(
              abs(e.breakdown.total - e.score) < 1e-9,
              "\(request.query): \(e.suggestion.placeID) scored \(e.score), parts \(e.breakdown)")
            #expect(
              e.breakdown.words.count
                == QueryPlan(query: request.query, inputOffset: nil).tokens.count)
            results += 1
            if e.breakdown.penalty > 0 { relaxed += 1 }
            if e.breakdown.nearness > 0 { near += 1 }
            folded += e.collapsed.count
          }
        }
      }
    }
    return (results, relaxed, folded, near)
  }

  @Test func thePartsAddUpOnTheSampleIndex() throws {
    let client = try PlacesClient(indexPaths: [try sampleSearchIndex.get()])
    let covered = try checkEveryPrefix(
      client, ["Hauptstraße 12", "Apotheke", "Sankt Quirin", "xq hauptstr"],
      origin: Coordinate(latitude: 47.185, longitude: 9.9))
    #expect(covered.results > 100)
    #expect(covered.near > 0)
    #expect(covered.relaxed > 0)
  }

  @Test(.enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm"))
  func thePartsAddUpOnHelsinki() throws {
    let client = try PlacesClient(indexPaths: [try helsinkiSearchIndex.get()])
    let covered = try checkEveryPrefix(
      client,
      ["Suomen Pankki", "mannerheimintie 2", "Barbaossa", "Stockmann", "zz kaivokatu", "Kamppi"],
      origin: Coordinate(latitude: 60.1699, longitude: 24.9384))
    #expect(covered.results > 300)
    #expect(covered.relaxed > 0)
    #expect(covered.folded > 0)
  }

  @Test func theBreakdownPrintsEveryPart() {
    var b = ScoreBreakdown()
    b.words = [
      .init(word: "haupt", part: "name", match: "prefix", points: 2),
      .init(word: "xq", part: nil, match: nil, points: 0),
    ]
    b.coverage = 0.5
    b.importance = 1.25
    b.penalty = Ranking.relaxedPenalty
    #expect(b.total == 2 + 0.5 + 1.25 - Ranking.relaxedPenalty)
    let text = b.description
    for part in [
      "haupt: name prefix 2.000", "xq: missing", "coverage 0.500", "whole name 0.000",
      "importance 1.250", "nearness 0.000", "- relaxed 100.000", "score -96.250",
    ] {
      #expect(text.contains(part), "\(text) should say \(part)")
    }
  }

  @Test func theCommandLinePrintsTheParts() throws {
    let index = try sampleSearchIndex.get()
    let r = try runProcess(
      TestPaths.placeidx, ["query", "--index", index, "hauptstr 1", "--explain"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("1. ") == true)
    #expect(lines.filter { $0.contains("score ") && $0.contains(" = words ") }.count >= 2)
  }
}
