import PlaceCore
import PlaceIndexFormat

/// One pass over the candidates: read them in rank order, score them, and stop when no later
/// place can enter the results.
///
/// A later place that can at best tie with the worst place kept cannot enter either: ties go
/// to the lower rank, and every place kept came before it. Its bound is added up in the order
/// its score would be (``Ranking/text(words:coverage:wholeName:)``), so "at best a tie" holds
/// to the last bit. Where many places share one importance (the shops of 50 towns that bear
/// one name), the scan stops at the first of them that cannot beat the worst instead of
/// reading them all.
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
    try scan(&candidates, &scorer, into: &best)
    try collectWholeAddresses(&scorer, into: &best)
  }

  /// The scan of ``collect(_:drivers:missing:context:into:)``: the candidates in rank order,
  /// then from both ends when nearness keeps it from stopping.
  private func scan(
    _ candidates: inout Candidates, _ scorer: inout PlaceScorer, into best: inout TopPlaces
  ) throws(IndexFormatError) {
    // The importance of the last record decoded: every later one's is at most this.
    var lastImportance = Double.infinity
    let maxGeo = scorer.maxGeo
    var decodes = 0
    var longNames = LongNames(typed: scorer.resolved.count, nameWords: nameWords)
    // Once set, the places whose name carries enough typed words whole: the only candidates
    // left that can enter.
    var exactOnly: WholeWordNames? = nil
    // Once no later place whose name lacks every typed word whole can enter (every later place
    // having at most `importance`), only those that carry one are read: from their own name
    // lists when these hold fewer than half as many places as the drivers' postings, else as
    // places the scan skips to. (A search of several short words, "R A", would else read every
    // candidate: each word may be some name's whole word, so the importance bound stays high;
    // a word typed whole in the names of a few places and the context of many, "Lie",
    // likewise.) When even one word whole is not enough, only those that carry as many as it
    // takes are read ("K 1" after "1. Kusebasateweg": the names that carry "k" and "1").
    // `narrowedAt`: the importance at which the whole words needed were last worked out.
    var narrowedAt = Double.infinity
    let tokens = scorer.wholeTokens
    func narrowed(at rank: Int, importance: Double) throws(IndexFormatError) -> Narrowed {
      // Filtering already (the scan passed over this place if it lacked the words): only a
      // filter that needs more words changes it, as the importance falls.
      if let current = exactOnly, current.need >= tokens.count { return .read }
      guard !candidates.readsBothEnds, importance < narrowedAt,
        best.excludesLater(
          Ranking.score(text: scorer.maxTextOfPrefixes, importance: importance, geo: maxGeo),
          from: rank)
      else { return .read }
      narrowedAt = importance
      let need = scorer.wholeWordsNeeded(importance: importance, geo: maxGeo, best: best)
      if let current = exactOnly, need <= current.need { return .read }
      guard var names = try WholeWordNames(postings: postings, tokens: tokens, need: max(need, 1))
      else { return .over }
      // A name place read from its list is scored (its tokens, its importance); a candidate
      // passed over is a step of the name lists beside the scan: the lists are read on their
      // own only when they hold fewer than half the candidates ("Balzers Sspor", whose two
      // words hold about as many places each, took 8,475 name places scored against 976
      // records read as a filter at 200x).
      guard 2 * names.cost < candidates.cost else {
        let first = try names.first(from: rank)
        exactOnly = names
        return first == rank ? .read : first == nil ? .over : .skip
      }
      try collectWholeWordNames(
        &names, from: rank, tokens: tokens, boundImportance: importance,
        lastExactName: candidates.lastExactName, longNames: &longNames, &scorer, into: &best)
      return .over
    }
    // With full results: over when no place from `rank` on (text at most `laterText`,
    // importance at most `importance`) can enter, else what the narrowing says.
    func next(at rank: Int, laterText: Double, importance: Double) throws(IndexFormatError)
      -> Narrowed
    {
      if best.excludesLater(
        Ranking.score(text: laterText, importance: importance, geo: maxGeo), from: rank)
      {
        return .over
      }
      return try narrowed(at: rank, importance: importance)
    }
    while let rank = try scorer.nextCandidate(&candidates) {
      // Only the places that carry the whole words can enter: on to the next of them.
      if exactOnly != nil {
        guard let first = try exactOnly!.first(from: rank) else { return }
        if first > rank {
          try candidates.skip(to: first)
          continue
        }
      }
      // Nearness keeps this scan from stopping: read the rest from both ends.
      if decodes == Ranking.nearFirstAfter && candidates.readsBothEnds && maxGeo > 0,
        try collectNearFirst(
          after: rank, &candidates, importanceBound: lastImportance, scorer: &scorer,
          into: &best)
      {
        return
      }
      // The best text score of this place or any later one (nil until a score keeps places out).
      var later: Double? = nil
      if best.prunes {
        // Every later place has at most the importance of the last record read: stop when
        // even a perfect text and geo match with it could not enter the results. (The check
        // below skips places without reading them, and would else skip the rest one by one.)
        let text = try scorer.laterText(rank, driverLast: candidates.lastExactName)
        later = text
        switch try next(at: rank, laterText: text, importance: lastImportance) {
        case .over: return
        case .skip: continue
        case .read: break
        }
        if longNames.passesOver(rank, importance: lastImportance, scorer, best) {
          // So is every later place whose name is as long: on to the next one whose name is
          // short enough, from NAME WORDS alone (none: no later place can enter).
          guard let short = nameWords?.values.firstAtMost(longNames.typed, from: rank + 1) else {
            return
          }
          try candidates.skip(to: short)
          continue
        }
        // The postings tell, before the record is read, when the word lies in its context
        // alone, or in the name only as a prefix.
        let bound = scorer.textBound(
          name: candidates.mayMatchName, exactName: candidates.mayMatchExactName)
        if best.excludesLater(
          Ranking.score(text: bound, importance: lastImportance, geo: maxGeo), from: rank)
        {
          // No later place whose word lies only in its context can enter either: stop reading
          // those lists (a town's or country's name is every place's context there).
          if !candidates.mayMatchName { candidates.dropContextLists() }
          continue
        }
      }
      let importance = try scorer.importance(of: rank)
      decodes += 1
      lastImportance = importance
      // Places come in rank order, so importance only falls from here: stop when even a
      // perfect text and geo match could not enter the results (the same check with this
      // place's own importance, at most the last one's).
      if let later {
        switch try next(at: rank, laterText: later, importance: importance) {
        case .over: return
        case .skip: continue
        case .read: break
        }
      }
      try scorer.score(
        rank, driverHits: candidates.hits, importance: importance, geoBound: maxGeo, into: &best)
    }
  }

  /// Scores the places from `rank` on whose names carry the typed words whole, from `names`
  /// (the places that carry `names.need` of `tokens`), once only those can enter: every later
  /// place has importance at most `boundImportance`. As the importance falls, a place may need
  /// more words whole to enter ("N 1" at 200x: past the streets "1. N…weg", only names that
  /// carry both "n" and "1" whole could, not the 28,000 that carry one of them): on from there
  /// with the fewer names that do.
  private func collectWholeWordNames(
    _ names: inout WholeWordNames, from rank: Int, tokens: [Int], boundImportance: Double,
    lastExactName: Int, longNames: inout LongNames, _ scorer: inout PlaceScorer,
    into best: inout TopPlaces
  ) throws(IndexFormatError) {
    var from = rank
    let maxGeo = scorer.maxGeo
    // The best text of a place whose names carry as many words whole as these do: once it
    // cannot enter, a place needs more.
    var moreText = scorer.mostText(wholeWords: names.need)
    while let r = try names.first(from: from) {
      // A name place that some filter's word does not lie in is not scored: on to the
      // first place from it that the filters agree on.
      guard let agreed = try scorer.firstInFilters(from: r) else { break }
      if agreed > r {
        from = agreed
        continue
      }
      from = r + 1
      if longNames.passesOver(r, importance: boundImportance, scorer, best) { continue }
      let importance = try scorer.importance(of: r)
      if best.excludesLater(
        Ranking.score(
          text: try scorer.laterText(r, driverLast: lastExactName),
          importance: importance, geo: maxGeo), from: r)
      {
        break
      }
      if let more = moreText,
        best.excludesLater(Ranking.score(text: more, importance: importance, geo: maxGeo))
      {
        let need = scorer.wholeWordsNeeded(importance: importance, geo: maxGeo, best: best)
        if need > names.need {
          guard let narrower = try WholeWordNames(postings: postings, tokens: tokens, need: need)
          else { break }
          names = narrower
          moreText = scorer.mostText(wholeWords: need)
          from = r
          continue
        }
        moreText = nil
      }
      try scorer.score(r, importance: importance, geoBound: maxGeo, into: &best)
    }
  }
}

/// Whether a place's primary name has more words than were typed, once no such place can
/// enter: those places are then passed over from NAME WORDS alone, before anything else of
/// them is read ("Im " at 200x: the streets "Im …" of 200 towns, none named "Im" alone, all of
/// whose names the word covers half of).
private struct LongNames {
  let typed: Int
  let nameWords: NameWords?
  /// Whether no later place whose name is longer than typed can enter.
  private var out = false

  init(typed: Int, nameWords: NameWords?) {
    self.typed = typed
    self.nameWords = nameWords
  }

  /// Whether place `rank` of a scan in rank order, every later place having at most
  /// `importance`, is passed over for its long name.
  mutating func passesOver(
    _ rank: Int, importance: Double, _ scorer: PlaceScorer, _ best: TopPlaces
  ) -> Bool {
    guard let nameWords, typed < NameWords.atLeast else { return false }
    if !out {
      guard
        best.excludesLater(
          Ranking.score(
            text: scorer.maxTextOfLongNames, importance: importance, geo: scorer.maxGeo),
          from: rank)
      else { return false }
      out = true
    }
    return nameWords[rank] > typed
  }
}

/// What a scan in rank order does with a place once only whole-word names may enter
/// (``LoadedIndex/collect(_:drivers:missing:context:into:)``).
private enum Narrowed {
  /// Read it: it may enter.
  case read
  /// Pass over it: its name carries no typed word whole.
  case skip
  /// Stop: the places that may enter were read from their own lists, or there are none.
  case over
}
