import PlaceCore
import PlaceIndexFormat

/// Addresses typed whole: "Bergstrasse 1" is the Rathaus at Bergstrasse 1, whose name carries
/// neither word, before the bare addresses Bergstrasse 12 and 175 whose names the number only
/// starts (``Ranking/wholeAddress``).
///
/// The scan in rank order bounds a place whose words lie in its context by a context match's
/// points; a place whose address was typed whole scores more than that. So such places are
/// looked for apart, after the scan, among the places that carry every word's whole token (the
/// words' exact postings intersected), and merged into its results: a place keeps the higher
/// of the two scores, which is its score as ``LoadedIndex/textScore(nameWordCount:hits:_:missing:startsName:)``
/// gives it.
extension LoadedIndex {
  /// Marks the last word of every shard's `resolved` (``ResolvedToken/wholeAddress``) when the
  /// search looks for addresses typed whole: two words or more, the last a number and the
  /// only one (a number after a street and town is a postcode: "Kalevankatu 13, 00100"; an
  /// ordinal of a street's name is none: "East 2nd" is the street), the others of
  /// ``Ranking/exactFromLetters`` letters at least ("P 5" names no street), every word a
  /// whole token in some shard, and the rarest of them held by at most
  /// ``Ranking/wholeAddressPlaces`` places over all shards. Taken over all shards at once, so
  /// that N shards answer as one index.
  static func markWholeAddress(
    _ indexes: [LoadedIndex], _ resolved: inout [[ResolvedToken]], _ plan: QueryPlan
  ) throws(IndexFormatError) {
    func number(_ t: String) -> Bool {
      t.unicodeScalars.first?.properties.numericType != nil
        && !Tokenizer.isOrdinal(Array(t.unicodeScalars))
    }
    guard plan.tokens.count >= 2, let last = plan.tokens.last, number(last),
      plan.tokens.dropLast().allSatisfy({
        !number($0) && $0.unicodeScalars.count >= Ranking.exactFromLetters
      })
    else { return }
    var rarest = Int.max
    for i in plan.tokens.indices {
      var places = 0
      for (s, index) in indexes.enumerated() {
        guard let exact = resolved[s][i].exact else { continue }
        places += try index.located { () throws(IndexFormatError) in
          try index.postings.length(exact)
        }
      }
      rarest = min(rarest, places)
    }
    guard rarest > 0, rarest <= Ranking.wholeAddressPlaces else { return }
    for s in resolved.indices { resolved[s][resolved[s].count - 1].wholeAddress = true }
  }

  /// Adds to `best` the places whose address the scorer's words typed whole (every word's
  /// whole token in the place, the last one's in its context), scored by `scorer` as any
  /// other place (its text then holds ``Ranking/wholeAddress``); a place already held with a
  /// lower score (the scan's filters may not have told it the context's words) is scored
  /// again. Nothing unless the search looks for them (``markWholeAddress(_:_:_:)``).
  func collectWholeAddresses(_ scorer: inout PlaceScorer, into best: inout TopPlaces)
    throws(IndexFormatError)
  {
    let words = scorer.resolved
    guard scorer.missing == 0, words.last?.wholeAddress == true else { return }
    var filters: [WordFilter] = []
    for (i, word) in words.enumerated() {
      guard let exact = word.exact else { return }
      let whole = ResolvedToken(
        range: exact..<(exact + 1), exact: exact, typos: [], cost: 0,
        typedLength: word.typedLength)
      filters.append(try WordFilter(word: i, resolved: whole, postings: postings, contextText: 0))
    }
    let addressText = Ranking.wholeAddressText(words: words.count)
    var rank = 0
    while true {
      // The first place from `rank` on that every word's whole token lies in.
      var target = rank
      var agreed = false
      while !agreed {
        agreed = true
        for k in filters.indices {
          let first = try filters[k].first(from: target)
          if first == .max { return }
          if first > target {
            target = first
            agreed = false
          }
        }
      }
      rank = target + 1
      // The last word's token must lie in the context; a place that cannot enter with an
      // address typed whole is passed over before its tokens are read (one that scores more
      // otherwise, a name typed whole, was the scan's).
      guard try filters[filters.count - 1].hits(at: target).contains(.exact(.context)) else {
        continue
      }
      let importance = try scorer.importance(of: target)
      if best.excludes(
        Ranking.score(text: addressText, importance: importance, geo: scorer.maxGeo),
        ranksFrom: target)
      {
        continue
      }
      if let held = best.places.firstIndex(where: { $0.rank == target }) {
        best.places.remove(at: held)
      }
      try scorer.score(
        target, importance: importance, geoBound: scorer.maxGeo, ordered: false, into: &best)
    }
  }
}
