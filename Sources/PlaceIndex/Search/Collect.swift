import PlaceCore
import PlaceIndexFormat

/// One pass over the candidates: read them in rank order, score them, and stop when no later
/// place can enter the results.
extension LoadedIndex {
  /// Scores the places of the drivers' postings that match all words but exactly `missing`,
  /// keeping the best in `best`: in rank order, and when nearness keeps that from stopping,
  /// from both ends (``collectNearFirst(after:_:importanceBound:scorer:into:)``).
  func collect(
    _ resolved: [ResolvedToken], drivers: [Int], missing: Int, context: SearchContext,
    into best: inout TopPlaces
  ) throws(IndexFormatError) {
    var candidates = try Candidates(
      self, resolved: resolved, drivers: drivers, context: context)
    var scorer = try PlaceScorer(
      self, resolved: resolved, drivers: drivers, missing: missing, context: context,
      candidates: candidates)
    // The importance of the last record decoded: every later one's is at most this.
    var lastImportance = Double.infinity
    let maxGeo = scorer.maxGeo
    var decodes = 0
    // Once set, the places whose name carries a typed word whole: the only candidates left
    // that can enter.
    var exactOnly: PostingsMerger? = nil
    while let rank = try candidates.next() {
      if exactOnly != nil, try exactOnly!.hits(at: rank) == [] { continue }
      // Nearness keeps this scan from stopping: read the rest from both ends.
      if decodes == Ranking.nearFirstAfter && candidates.readsBothEnds && maxGeo > 0,
        try collectNearFirst(
          after: rank, &candidates, importanceBound: lastImportance, scorer: &scorer,
          into: &best)
      {
        return
      }
      // The postings tell, before the record is read, when the word lies in its context alone.
      if best.isFull
        && scorer.textBound(
          name: candidates.mayMatchName, exactName: candidates.mayMatchExactName)
          + maxGeo + lastImportance < best.worst
      {
        // No later place whose word lies only in its context can enter either: stop reading
        // those lists (a town's or country's name is every place's context there).
        if !candidates.mayMatchName { candidates.dropContextLists() }
        continue
      }
      let importance = try scorer.importance(of: rank)
      decodes += 1
      lastImportance = importance
      // Places come in rank order, so importance only falls from here: stop when even a
      // perfect text and geo match could not enter the results.
      if best.isFull,
        try scorer.laterText(rank, driverLast: candidates.lastExactName) + maxGeo + importance
          < best.worst
      {
        break
      }
      // No later place whose name lacks every typed word whole can enter: only the
      // candidates whose name carries one are read from here (a search of several short
      // words, "R A", would else read every candidate: each word may be some name's whole
      // word, so the bound above stays high).
      if exactOnly == nil && best.isFull && !candidates.readsBothEnds
        && scorer.maxTextOfPrefixes + maxGeo + importance < best.worst
      {
        guard let names = try scorer.exactNames() else { break }
        exactOnly = names
        guard try exactOnly!.hits(at: rank) != [] else { continue }
      }
      try scorer.score(
        rank, driverHits: candidates.hits, importance: importance, geoBound: maxGeo, into: &best)
    }
  }
}
