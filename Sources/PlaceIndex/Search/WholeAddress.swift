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
  /// only one (a number after a street and town is a postcode: "Kalevankatu 13, 00100"), the
  /// others of ``Ranking/exactFromLetters`` letters at least ("P 5" names no street), every
  /// word a whole token in some shard, and the rarest of them held by at most
  /// ``Ranking/wholeAddressPlaces`` places over all shards. Taken over all shards at once, so
  /// that N shards answer as one index.
  static func markWholeAddress(
    _ indexes: [LoadedIndex], _ resolved: inout [[ResolvedToken]], _ plan: QueryPlan
  ) throws(IndexFormatError) {
    func number(_ t: String) -> Bool { t.unicodeScalars.first?.properties.numericType != nil }
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

  /// Adds to `best` the places whose address `words` typed whole (every word's whole token in
  /// the place, the last one's in its context) and that pass the request's filters, each
  /// with its score; a place already held keeps the higher score.
  func collectWholeAddresses(
    _ words: [ResolvedToken], context: SearchContext, into best: inout TopPlaces
  ) throws(IndexFormatError) {
    guard words.last?.wholeAddress == true else { return }
    var filters: [WordFilter] = []
    for (i, word) in words.enumerated() {
      guard let exact = word.exact else { return }
      let whole = ResolvedToken(
        range: exact..<(exact + 1), exact: exact, typos: [], cost: 0,
        typedLength: word.typedLength)
      filters.append(try WordFilter(word: i, resolved: whole, postings: postings, contextText: 0))
    }
    let decoded = try decodedContexts.view
    let shared = try sharedTerms
    let addressText = Ranking.wholeAddressText(words: words.count)
    let maxGeo = context.focus == nil ? 0 : Ranking.mostNearness(context.filter)
    var terms = PlaceTermRefs()
    var entry = PlaceMatch()
    var hits = [WordHits](repeating: [], count: words.count)
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
      // The last word's token must lie in the context; a place whose score is no more than
      // an address typed whole cannot enter is passed over before its record is read.
      guard try filters[filters.count - 1].hits(at: target).contains(.exact(.context)) else {
        continue
      }
      let importance = Ranking.importance(
        stored: try places.importance(of: target, decoded: decoded))
      if best.excludes(
        Ranking.score(text: addressText, importance: importance, geo: maxGeo), ranksFrom: target)
      {
        continue
      }
      try self.terms.refs(of: target, into: &terms)
      for i in words.indices { hits[i] = WordHits.of(words[i], in: terms, shared: shared) }
      try places.match(target, into: &entry, contexts: decoded)
      guard
        let text = textScore(
          nameWordCount: entry.nameWordCount, hits: hits, words, missing: 0,
          startsName: startsName(target, with: words[0], terms: terms, shared: shared)),
        try context.accepts(entry, in: self)
      else { continue }
      let point = Coordinate(
        latitude: Double(entry.latitudeE7) / 1e7, longitude: Double(entry.longitudeE7) / 1e7)
      if let restriction = context.filter.coordinateRegionRestriction,
        !restriction.contains(point)
      {
        continue
      }
      let (geo, distance) = geoScore(point, context: context)
      let score = Ranking.score(text: text, importance: importance, geo: geo)
      if let held = best.places.firstIndex(where: { $0.rank == target }) {
        guard best.places[held].score < score else { continue }
        best.places.remove(at: held)
      }
      if best.excludes(score, ranksFrom: target) { continue }
      best.insert(
        ScoredPlace(
          rank: target, score: score, distance: distance, latitudeE7: entry.latitudeE7,
          longitudeE7: entry.longitudeE7, importance: entry.importance))
    }
  }
}
