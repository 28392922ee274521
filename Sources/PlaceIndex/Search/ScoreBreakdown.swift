import Foundation
import PlaceCore
import PlaceIndexFormat

/// One result's score in the parts of ``Ranking``'s formula, for `placeidx query --explain`:
/// where each typed word lies in the place and what it earned, the coverage and whole-name
/// bonuses, importance, nearness and the relaxed pass's penalty. The parts add up to the
/// score the search ranked the place by (a test checks it on every result of a request set).
package struct ScoreBreakdown: Sendable, Equatable, CustomStringConvertible {
  /// What one typed word earned in the place.
  package struct Word: Sendable, Equatable {
    /// The word as folded for matching.
    package var word: String
    /// Where it lies: "name", "alternative name" or "context"; nil when it lies nowhere (the
    /// one word a relaxed match leaves out).
    package var part: String?
    /// How it matches there: "whole word", "prefix", "typo" or "inside a word".
    package var match: String?
    /// What it earned.
    package var points: Double
  }

  package var words: [Word] = []
  /// ``Ranking/coverage`` times the share of the name's words that the typed words matched.
  package var coverage = 0.0
  /// ``Ranking/wholeName`` when the typed words cover the whole name, else 0.
  package var wholeName = 0.0
  /// ``Ranking/nameStart`` when the typed words start the name without covering it, else 0.
  package var nameStart = 0.0
  /// ``Ranking/importance`` times the place's importance.
  package var importance = 0.0
  /// The nearness bonus (0 without an origin or bias).
  package var nearness = 0.0
  /// ``Ranking/relaxedPenalty`` when one typed word is left unmatched, else 0 (subtracted).
  package var penalty = 0.0

  /// Whether the place's address was typed whole (``Ranking/wholeAddress``): then
  /// ``wholeName`` holds that bonus, and every word scored as a whole name word.
  package var wholeAddress = false

  /// The text part of the score: the words, the coverage and the whole-name bonus.
  var text: Double {
    words.reduce(0) { $0 + $1.points } + coverage + (wholeName + nameStart)
  }

  /// The sum of the parts: the score.
  package var total: Double {
    words.reduce(0) { $0 + $1.points } + coverage + (wholeName + nameStart) + importance + nearness
      - penalty
  }

  package var description: String {
    let f = { (x: Double) in String(format: "%.3f", x) }
    let w = words.map { word in
      guard let part = word.part, let match = word.match else { return "\(word.word): missing" }
      return "\(word.word): \(part) \(match) \(f(word.points))"
    }
    var parts = ["words \(f(words.reduce(0) { $0 + $1.points })) (\(w.joined(separator: "; ")))"]
    parts.append("coverage \(f(coverage))")
    parts.append(
      wholeAddress
        ? "whole address \(f(wholeName))"
        : nameStart > 0 ? "name start \(f(nameStart))" : "whole name \(f(wholeName))")
    parts.append("importance \(f(importance))")
    parts.append("nearness \(f(nearness))")
    var line = "score \(f(total)) = " + parts.joined(separator: " + ")
    if penalty != 0 { line += " - relaxed \(f(penalty))" }
    return line
  }
}

extension LoadedIndex {
  /// The parts of the score of `place`, found by a search for `plan` with `filter` and
  /// `limit` whose words this index resolved as `resolved` (`LoadedIndex.resolveWords`, which
  /// takes the decisions over all shards): every word's hits in it are read from that word's whole postings (not from the
  /// search's merged ones), so that the sum is an independent check of the search's score.
  func breakdown(
    of place: ScoredPlace, words resolved: [ResolvedToken], plan: QueryPlan,
    filter: AutocompleteFilter, typeFilter: TypeFilter, limit: Int
  ) throws(IndexFormatError) -> ScoreBreakdown {
    var words = resolved
    // The relaxed pass looks for the words found only inside longer tokens in no place.
    if place.missing > 0 {
      for i in words.indices where words[i].infixOnly {
        words[i] = ResolvedToken(
          range: words[i].range, exact: nil, typos: [], cost: 0,
          typedLength: words[i].typedLength)
      }
    }
    var entry = PlaceMatch()
    try places.match(place.rank, into: &entry, contexts: try decodedContexts.view)
    var terms = PlaceTermRefs()
    try self.terms.refs(of: place.rank, into: &terms)
    let shared = try sharedTerms
    var out = ScoreBreakdown()
    var allInName = true
    var inName = 0.0
    var leastShare = 1.0
    var allHits: [WordHits] = []
    for (text, word) in zip(plan.tokens, words) {
      let hits = WordHits.of(word, in: terms, shared: shared)
      allHits.append(hits)
      guard let (part, share, exact) = hits.match else {
        allInName = false
        out.words.append(.init(word: text, part: nil, match: nil, points: 0))
        continue
      }
      if part == .name { inName += share } else { allInName = false }
      leastShare = min(leastShare, share)
      let kind =
        share < 1 ? (word.infixOnly ? "inside a word" : "typo") : exact ? "whole word" : "prefix"
      out.words.append(
        .init(
          word: text, part: part.explanationName, match: kind,
          points: share * part.weight(exact: exact)))
    }
    out.coverage = Self.coverage(inName: inName, nameWordCount: entry.nameWordCount)
    if allInName {
      let starts = startsName(place.rank, with: words[0], terms: terms, shared: shared)
      if words.count >= entry.nameWordCount && Self.mayEarnWholeName(words) {
        let asNamed = typedAsNamed(words[0], startsName: starts)
        out.wholeName =
          Self.wholeNameBonus(typedAsNamed: asNamed, firstHits: allHits.first) * leastShare
      } else if starts {
        out.nameStart = Ranking.nameStart * leastShare
      }
    }
    // An address typed whole, when it scores more: every word a whole name word.
    if let address = Self.wholeAddressText(allHits, words, missing: place.missing),
      address > out.text
    {
      for i in out.words.indices {
        out.words[i].match = "whole word"
        out.words[i].points = Ranking.nameExact
      }
      out.coverage = Ranking.coverage
      out.wholeName = Ranking.wholeAddress
      out.nameStart = 0
      out.wholeAddress = true
    }
    out.importance = Ranking.importance(stored: entry.importance)
    let context = SearchContext(filter: filter, typeFilter: typeFilter, limit: limit)
    let point = Coordinate(
      latitude: Double(entry.latitudeE7) / 1e7, longitude: Double(entry.longitudeE7) / 1e7)
    out.nearness = geoScore(point, context: context).0
    out.penalty = place.missing > 0 ? Ranking.relaxedPenalty : 0
    return out
  }
}

extension PostingsPart {
  /// The part's name in an explanation.
  var explanationName: String {
    switch self {
    case .name: "name"
    case .alternative: "alternative name"
    case .context: "context"
    }
  }
}
