import Foundation
import PlaceCore
import PlaceIndexFormat

/// Scores places for one pass of a search: decodes a record, matches it against the typed
/// words (where each word lies in the place: the driving word's postings tell as the
/// candidates come; the other words' postings, read forward beside them as filters, or the
/// place's tokens in TERMS tell the others), applies the filters and inserts it into the
/// results when it ranks. A word's postings are read as a filter only when they hold at most
/// ``Ranking/filterRatio`` times the candidates' postings: a place's cost is its own tokens or
/// a bounded share of those lists, whatever the index's size.
struct PlaceScorer {
  let index: LoadedIndex
  let resolved: [ResolvedToken]
  let missing: Int
  let context: SearchContext
  /// The best text score any place can reach: per word a name match (exact only when the
  /// word is a whole token), the coverage, and the whole-name bonus.
  let maxText: Double
  /// The best text score of a place whose single driving word lies only in its context: that
  /// word scores as context, and there is no whole-name bonus; the coverage needs another
  /// word in its name.
  let maxContextText: Double
  /// The best text score of a place whose single driving word, typed whole, lies in its name
  /// only as a prefix of a longer word.
  let maxPrefixText: Double
  /// The best text score of a place whose name carries no typed word whole: every word a
  /// prefix of a name word, the coverage, the whole-name bonus.
  let maxTextOfPrefixes: Double
  /// The best text score of a place whose primary name has more words than were typed (NAME
  /// WORDS tells a place's count before anything else of it is read).
  let maxTextOfLongNames: Double
  /// The best geo score: ``Ranking/mostNearness(_:)`` of the filter, or less in a shard whose
  /// box lies away from the focus (``SearchContext/shardGeo``).
  let maxGeo: Double
  /// The whole-name bonus that ``maxText`` holds (0 when no place can earn it in this pass),
  /// scaled by the least share any word's match can have.
  private let wholeNameBonus: Double
  /// The most coverage any place can earn (``Swift/Array/mostCoverage``).
  private let maxCoverage: Double
  /// Per word, the most points it scores as a prefix of a name word (its
  /// ``ResolvedToken/mostShare``): the most of a word that no name carries whole.
  private let prefixPoints: [Double]
  /// ``mostTextByWholeWords()``, once asked for (the outer nil: not yet).
  private var wholeWordBounds: [Double]?? = nil
  /// Per word, the last place whose primary or alternative name carries its exact token: -1
  /// when it has none, `Int.max` when they are more than ``Ranking/exactNamesRead``; read on
  /// first use (``laterText(_:driverLast:)``).
  private var lastExactNames: [Int]? = nil
  /// The single driving word, or nil.
  private let driver: Int?
  private var entry = PlaceMatch()
  /// The index's decoded contexts, as buffers: copying them retains nothing.
  private let decoded: DecodedContexts.View
  /// TERMS' shared lists, decoded.
  private let sharedTerms: SharedTermLists
  /// Which word the candidates tell the hits of, or nil.
  let toldWord: Int?
  /// The tokens of place ``termsRank``, read from TERMS (its shared lists by id).
  private var terms = PlaceTermRefs()
  private var termsRank = -1
  /// Reused for each place: each word's hits in it.
  private var hits: [WordHits]
  /// With a focus, each place's square of the globe (``LoadedIndex/placeSquares``), and the
  /// most geo score a place in each square can earn, by square id (-1 until first needed).
  private let squares: PlaceSquares?
  private var squareGeo: [Double] = []
  /// The words' postings read as filters (``WordFilter``), built once ``Ranking/filterAfter``
  /// places were scored in rank order: every word but the one the candidates tell whose
  /// postings hold at most ``Ranking/filterRatio`` times the candidates' (decoding them would
  /// cost more than the places' tokens).
  private var filters: [WordFilter] = []
  /// Per word, its filter's position in ``filters``, or -1.
  private var filterOf: [Int]
  /// Whether the scan skips to the places that every filter's word lies in, name or context,
  /// once the filters are built: in a pass where every word must match, read in rank order
  /// alone. Reading from both ends, the postings take turns with the rings around the focus,
  /// which end the scan, and skipping ahead there costs more than it spares ("D 1" with an
  /// origin at 200x: 4.3 ms against 1.2 ms): only the filters that read names only skip.
  private var skipsToEveryWord: Bool
  /// From here on, a scan that reads from both ends skips to the places that every filter's
  /// word lies in, as one in rank order does: once the rings around the focus are read or
  /// given up, they can no longer end the scan, and only the postings are left ("Im Sand 19,
  /// 9495 " with an origin at 200x read and scored the 16,984 places of "19*" one by one).
  mutating func skipToEveryWord() {
    skipsToEveryWord = missing == 0
  }

  /// Whether the scan skips ahead by the filters at all (``nextCandidate(_:)``).
  private var intersects: Bool {
    skipsToEveryWord ? !filters.isEmpty : filters.contains { $0.namesOnly }
  }
  /// Places scored in rank order before the filters were built; -1 once built.
  private var orderedScores = 0
  /// The last place the filters were asked about: they read their lists forward only.
  private var lastFiltered = -1
  /// The candidates' postings count, which the filters' words are weighed against.
  private let candidatesCost: Int

  init(
    _ index: LoadedIndex, resolved: [ResolvedToken], drivers: [Int], missing: Int,
    context: SearchContext, candidates: Candidates
  ) throws(IndexFormatError) {
    typealias W = Ranking
    self.index = index
    self.resolved = resolved
    self.missing = missing
    self.context = context
    // A word that no token starts with scores a typo's share of a match at most: "autag"
    // finds Autauga County by a typo, and no later place can score it as a prefix.
    maxCoverage = resolved.mostCoverage
    // The whole-name bonus, or in its place the name-start one; a typo earns its share.
    let bonus =
      missing > 0
      ? 0
      : (LoadedIndex.mayEarnWholeName(resolved)
        ? W.wholeName : index.nameStarts == nil ? 0 : W.nameStart) * resolved.leastShare
    wholeNameBonus = bonus
    let single = drivers.count == 1 ? drivers[0] : nil
    driver = single
    // Each bound adds its parts in the order of `Ranking.text`: it is then at least every
    // score it bounds to the last bit, and equal to the score of a place that reaches it.
    // Per word, its best points: in the name, whole when it is a token.
    let prefixes = resolved.map { $0.mostShare * W.namePrefix }
    prefixPoints = prefixes
    let best = resolved.map(\.mostNamePoints)
    func bound(_ points: [Double], coverage: Double, wholeName: Double) -> Double {
      W.text(words: points.reduce(0, +), coverage: coverage, wholeName: wholeName)
    }
    maxText = bound(best, coverage: maxCoverage, wholeName: bonus)
    maxTextOfPrefixes = bound(prefixes, coverage: maxCoverage, wholeName: bonus)
    // A name of more words than were typed: they cover `count` of its `count + 1` words at
    // most, and it earns no whole-name bonus (the name-start one, no more, takes its place).
    maxTextOfLongNames = bound(
      best,
      coverage: min(
        maxCoverage,
        LoadedIndex.coverage(inName: Double(resolved.count), nameWordCount: resolved.count + 1)),
      wholeName: bonus)
    if let single {
      var prefix = best
      prefix[single] = prefixes[single]
      maxPrefixText = bound(prefix, coverage: maxCoverage, wholeName: bonus)
      // A word in the context alone: no whole-name bonus, and the coverage needs another word
      // in the name.
      var contextOnly = best
      contextOnly[single] = Self.contextPoints(resolved[single])
      maxContextText = bound(
        contextOnly, coverage: resolved.count == 1 ? 0 : maxCoverage, wholeName: 0)
    } else {
      maxPrefixText = maxText
      maxContextText = maxText
    }
    maxGeo = context.focus == nil ? 0 : min(W.mostNearness(context.filter), context.shardGeo)
    decoded = try index.decodedContexts.view
    sharedTerms = try index.sharedTerms
    toldWord = candidates.mergesOneWord ? drivers[0] : nil
    hits = Array(repeating: [], count: resolved.count)
    squares = context.focus == nil ? nil : try index.placeSquares
    filterOf = Array(repeating: -1, count: resolved.count)
    candidatesCost = candidates.cost
    skipsToEveryWord = missing == 0 && !candidates.readsBothEnds
  }

  /// Whether the filters can tell the words' hits at `rank`, a place of the scan in rank
  /// order: built on the ``Ranking/filterAfter``-th such place (a search that ends sooner
  /// does not pay for them), and asked in ascending order only.
  @inline(__always)
  private mutating func filtersReady(at rank: Int) throws(IndexFormatError) -> Bool {
    if orderedScores >= 0 {
      orderedScores += 1
      guard orderedScores > context.filterAfter else { return false }
      orderedScores = -1
      try buildFilters()
    }
    guard rank >= lastFiltered else { return false }
    lastFiltered = rank
    return true
  }

  private mutating func buildFilters() throws(IndexFormatError) {
    typealias W = Ranking
    let best = resolved.map(\.mostNamePoints)
    for i in resolved.indices where i != toldWord {
      let word = resolved[i]
      guard !word.isEmpty, word.cost <= W.filterRatio * max(candidatesCost, 1) else { continue }
      // The word in the context alone: no whole-name bonus; the coverage needs another word
      // in the name.
      var points = best
      points[i] = Self.contextPoints(word)
      let contextText = W.text(words: points.reduce(0, +), coverage: maxCoverage, wholeName: 0)
      filterOf[i] = filters.count
      filters.append(
        try WordFilter(
          word: i, resolved: word, postings: index.postings, contextText: contextText))
    }
    // Where every word must match, a place that a filter's word does not lie in (not in a
    // name, not in the context, not within typo distance) is not scored: the scan skips to
    // the first place that every filter's word lies in (``skipsToEveryWord``; "O Au 3" at
    // 200x read 65,548 places that carry "3*" one by one, most without "o*" or "au*").
  }

  /// Drops the context lists of every filter whose word, in the context alone, leaves a place
  /// of the scan in rank order from here on (weighted importance at most `importance`, geo
  /// score at most `geo`) out of `best`: the scan then skips to the places whose names carry
  /// it. Only in a pass where every word must match: a place that lacks one is not scored.
  @inline(__always)
  private mutating func narrowFilters(importance: Double, geo: Double, best: TopPlaces)
    throws(IndexFormatError)
  {
    guard missing == 0, best.prunes else { return }
    for k in filters.indices where !filters[k].namesOnly {
      let bound = Ranking.score(text: filters[k].contextText, importance: importance, geo: geo)
      guard best.excludes(bound) else { continue }
      try filters[k].dropContextLists()
    }
  }

  /// The next place of `candidates` that every filter's word lies in, once the filters are
  /// built in a pass where every word must match (every place of the candidates before): the
  /// candidates skip to the first place from which all the filters and they agree. A filter
  /// that reads names only skips to the places whose names carry its word.
  @inline(__always)
  mutating func nextCandidate(_ candidates: inout Candidates) throws(IndexFormatError) -> Int? {
    guard var rank = try candidates.next() else { return nil }
    while true {
      guard let target = try firstInFilters(from: rank) else { return nil }
      if target == rank { return rank }
      try candidates.skip(to: target)
      guard let next = try candidates.next() else { return nil }
      rank = next
    }
  }

  /// The first place from `rank` on (not below a rank asked before) that every filter's word
  /// lies in (every filter that reads names only, unless ``skipsToEveryWord``), as far as one
  /// pass over the filters finds (the caller asks again from a later
  /// place); `rank` itself when the scan does not intersect (``intersects``), nil when a
  /// filter's places end: no later place carries them all.
  @inline(__always)
  mutating func firstInFilters(from rank: Int) throws(IndexFormatError) -> Int? {
    guard intersects, rank >= lastFiltered else { return rank }
    var target = rank
    for k in filters.indices where skipsToEveryWord || filters[k].namesOnly {
      target = max(target, try filters[k].first(from: target))
      if target == .max { return nil }
    }
    lastFiltered = target
    return target
  }

  /// The most geo score place `rank` can earn, from its square (``maxGeo`` when its square is
  /// not known or there is no focus): far from the focus it is nearly 0, known before the
  /// place's tokens or record are read.
  @inline(__always)
  mutating func geoBound(of rank: Int) -> Double {
    guard let squares else { return maxGeo }
    let id = Int(squares.ids[rank])
    guard id != Int(PlaceSquares.unknown) else { return maxGeo }
    if squareGeo.isEmpty { squareGeo = Array(repeating: -1, count: squares.squares.count) }
    if squareGeo[id] >= 0 { return squareGeo[id] }
    let b = HilbertCurve.box(ofSquare: squares.squares[id])
    let geo = ShardExtent(south: b.south, north: b.north, west: b.west, east: b.east)
      .bestGeo(context)
    squareGeo[id] = geo
    return geo
  }

  /// The typed words that are whole tokens: their exact token ids, in word order.
  var wholeTokens: [Int] { resolved.compactMap(\.exact) }

  /// How many typed words a later place's primary or alternative name must carry whole for
  /// it to enter, once every later place has at most `importance` (and `geo`); more than
  /// ``wholeTokens`` holds when not even all of them would do. A word carried whole there
  /// scores at most ``Ranking/nameExact``, any other at most its prefix points; so it is the
  /// least count whose best bound the results do not exclude (found over every choice of that
  /// many words, each bound added in word order, for up to ``Ranking/wholeWordChoicesUpTo``
  /// words; past that, one).
  mutating func wholeWordsNeeded(importance: Double, geo: Double, best: TopPlaces) -> Int {
    wholeWordsNeeded {
      best.excludesLater(Ranking.score(text: $0, importance: importance, geo: geo))
    }
  }

  /// ``mostTextByWholeWords()``, worked out on first use.
  private mutating func wholeWordBoundsOnce() -> [Double]? {
    if wholeWordBounds == nil { wholeWordBounds = mostTextByWholeWords() }
    return wholeWordBounds!
  }

  /// The best text score of a place whose names carry `count` typed words whole, once
  /// ``wholeWordsNeeded(importance:geo:best:)`` was asked; nil before, or when no place can
  /// carry that many.
  func mostText(wholeWords count: Int) -> Double? {
    guard let most = wholeWordBounds ?? nil, count < most.count else { return nil }
    return most[count]
  }

  /// ``wholeWordsNeeded(importance:geo:best:)`` for a search read from both ends, which has
  /// seen places out of rank order: every unseen place ranks at or after `rank`.
  mutating func wholeWordsNeeded(
    importance: Double, geo: Double, best: TopPlaces, ranksFrom rank: Int
  ) -> Int {
    wholeWordsNeeded {
      best.excludes(Ranking.score(text: $0, importance: importance, geo: geo), ranksFrom: rank)
    }
  }

  /// The fewest typed words a name must carry whole for its best text not to be `excluded`
  /// (1 when the bounds are not worked out: past ``Ranking/wholeWordChoicesUpTo`` words).
  @inline(__always)
  private mutating func wholeWordsNeeded(_ excluded: (Double) -> Bool) -> Int {
    guard let most = wholeWordBoundsOnce() else { return 1 }
    var need = 0
    while need < most.count, excluded(most[need]) { need += 1 }
    return need
  }

  /// Per count of typed words a name carries whole, the best text score over every choice of
  /// that many (each added in word order); nil past ``Ranking/wholeWordChoicesUpTo`` words.
  /// The same for every place: worked out once, on first use.
  private func mostTextByWholeWords() -> [Double]? {
    let exact = resolved.indices.filter { resolved[$0].exact != nil }
    guard exact.count <= Ranking.wholeWordChoicesUpTo else { return nil }
    var most = Array(repeating: -Double.infinity, count: exact.count + 1)
    var points = prefixPoints
    for choice in 0..<(1 << exact.count) {
      for (b, i) in exact.enumerated() {
        points[i] = choice & (1 << b) != 0 ? Ranking.nameExact : prefixPoints[i]
      }
      let text = Ranking.text(
        words: points.reduce(0, +), coverage: maxCoverage, wholeName: wholeNameBonus)
      most[choice.nonzeroBitCount] = max(most[choice.nonzeroBitCount], text)
    }
    return most
  }

  /// The best text score of a place at `rank` or after it: each word whole in its name only up
  /// to the last place whose name carries the word's exact token, a prefix after it (a word's
  /// exact token in a context or as a typo scores less than a prefix in the name).
  /// `driverLast` is that place for the single driving word (``Candidates/lastExactName``).
  mutating func laterText(_ rank: Int, driverLast: Int) throws(IndexFormatError) -> Double {
    if lastExactNames == nil {
      lastExactNames = try resolved.indices.map { (i) throws(IndexFormatError) -> Int in
        guard i != driver, let exact = resolved[i].exact else { return -1 }
        return try index.exactNamePlaces(exact).map { $0.last ?? -1 } ?? .max
      }
    }
    var words = 0.0
    for (i, last) in lastExactNames!.enumerated() {
      words +=
        rank <= (i == driver ? driverLast : last)
        ? Ranking.nameExact : resolved[i].mostShare * Ranking.namePrefix
    }
    return Ranking.text(words: words, coverage: maxCoverage, wholeName: wholeNameBonus)
  }

  /// The best text score of a place, from what the postings tell of it: whether the driving
  /// word may lie in its name, and whether as a whole token there.
  @inline(__always)
  func textBound(name: Bool, exactName: Bool) -> Double {
    name ? (exactName ? maxText : maxPrefixText) : maxContextText
  }

  /// The weighted importance of place `rank`, known without reading its record.
  @inline(__always)
  func importance(of rank: Int) throws(IndexFormatError) -> Double {
    Ranking.importance(stored: try index.places.importance(of: rank, decoded: decoded))
  }

  /// The first rank from which a place with text score `text` and geo score `geo` is kept
  /// out of `best` by its importance alone (the place count when none is): importance falls
  /// with the rank, so one search over the ranks stands for every place's importance read.
  func firstRankKeptOut(text: Double, geo: Double, by best: TopPlaces)
    throws(IndexFormatError) -> Int
  {
    var lo = 0
    var hi = index.places.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if best.excludes(Ranking.score(text: text, importance: try importance(of: mid), geo: geo)) {
        hi = mid
      } else {
        lo = mid + 1
      }
    }
    return lo
  }

  /// Where word `i` lies in place `rank`, from the place's tokens (TERMS).
  @inline(__always)
  mutating func hits(of i: Int, at rank: Int) throws(IndexFormatError) -> WordHits {
    try readTerms(rank)
    return WordHits.of(resolved[i], in: terms, shared: sharedTerms)
  }

  /// The most points `word` can score in a place's context alone: whole when it is a token,
  /// else as a prefix (times its ``ResolvedToken/mostShare``).
  private static func contextPoints(_ word: ResolvedToken) -> Double {
    word.exact != nil ? Ranking.contextExact : word.mostShare * Ranking.contextPrefix
  }

  /// The text score of place `rank`, whose name has `nameWordCount` words, from the words'
  /// ``hits``, given `bound`, that score with every bonus its word count allows
  /// (``bestText(nameWordCount:)``); with the name-start bonus, and the whole-name bonus in
  /// full, only when the place earns them (its tokens are read for that only when a bonus is
  /// at stake, and once: ``readTerms(_:)`` keeps them).
  @inline(__always)
  private mutating func knownText(_ rank: Int, nameWordCount: Int, bound: Double)
    throws(IndexFormatError) -> Double
  {
    guard
      let plain = index.textScore(
        nameWordCount: nameWordCount, hits: hits, resolved, missing: missing, startsName: false,
        typedAsNamed: false),
      plain < bound
    else { return bound }
    let starts = try startsName(rank)
    let asNamed = resolved.first.map { index.typedAsNamed($0, startsName: starts) } ?? true
    if starts && asNamed { return bound }
    return index.textScore(
      nameWordCount: nameWordCount, hits: hits, resolved, missing: missing, startsName: starts,
      typedAsNamed: asNamed) ?? plain
  }

  /// The text score of a place whose name has `nameWordCount` words, from the words' ``hits``,
  /// with every bonus that count allows; nil when the hits do not make a match.
  @inline(__always)
  private func bestText(nameWordCount: Int) -> Double? {
    index.textScore(nameWordCount: nameWordCount, hits: hits, resolved, missing: missing)
  }

  /// Whether place `rank`'s name starts with a match of the first typed word (NAME STARTS,
  /// and the place's tokens).
  @inline(__always)
  private mutating func startsName(_ rank: Int) throws(IndexFormatError) -> Bool {
    guard index.nameStarts != nil, let first = resolved.first else { return false }
    try readTerms(rank)
    return index.startsName(rank, with: first, terms: terms, shared: sharedTerms)
  }

  /// Reads the tokens of place `rank`, unless they are the ones read last.
  @inline(__always)
  private mutating func readTerms(_ rank: Int) throws(IndexFormatError) {
    guard rank != termsRank else { return }
    try index.terms.refs(of: rank, into: &terms)
    termsRank = rank
  }

  /// Scores place `rank`, of weighted importance `importance`, into `best` when it matches
  /// the words and passes the filters; `driverHits` are the hits of the word the candidates
  /// tell (``Candidates/hits``) when the caller has them, the others come from the place's
  /// tokens, and `geoBound` is the most geo score it can earn. The record is read only for a
  /// place that matches.
  ///
  /// `ordered` says that the place comes from a scan in ascending rank order: the words'
  /// postings, read forward as filters, then tell where they lie in it, and a place that lacks
  /// one is passed over before its tokens are read.
  @inline(__always)
  mutating func score(
    _ rank: Int, driverHits: WordHits? = nil, importance: Double, geoBound: Double,
    ordered: Bool = true, into best: inout TopPlaces
  ) throws(IndexFormatError) {
    // The bound of every later place of a scan in rank order.
    let laterGeo = geoBound
    // A place far from the focus is passed over before its tokens are read when even a
    // perfect text match could not rank it there.
    var geoBound = geoBound
    if best.prunes && squares != nil {
      geoBound = min(geoBound, self.geoBound(of: rank))
      if best.excludes(
        Ranking.score(text: maxText, importance: importance, geo: geoBound), ranksFrom: rank)
      {
        return
      }
    }
    let told = driverHits == nil ? nil : toldWord
    var missed = 0
    // The words the candidates and the filters tell first: a place that misses more words than
    // this pass allows is passed over before its tokens are read.
    var fromTerms = false
    var filtered = false
    if ordered && resolved.count > 1 {
      filtered = try filtersReady(at: rank)
      // Also when the filters have moved past this place (the scan skipped ahead to the next
      // place they agree on, read one ahead): their context lists go once the scan's bound
      // leaves places out, whichever place it reads.
      if orderedScores < 0 {
        try narrowFilters(importance: importance, geo: laterGeo, best: best)
      }
    }
    for i in hits.indices {
      if i == told {
        hits[i] = driverHits!
      } else if filtered, filterOf[i] >= 0 {
        hits[i] = try filters[filterOf[i]].hits(at: rank)
      } else {
        fromTerms = true
        continue
      }
      if hits[i] == [] { missed += 1 }
    }
    guard missed <= missing else { return }
    if fromTerms {
      try readTerms(rank)
      for i in hits.indices where i != told && !(filtered && filterOf[i] >= 0) {
        hits[i] = WordHits.of(resolved[i], in: terms, shared: sharedTerms)
      }
    }
    missed = 0
    // The words' scores, and the coverage and whole-name bonus at most: the best text score
    // the place can have, known before its record is read.
    var words = 0.0
    for i in hits.indices {
      if let (part, share, exact) = hits[i].match {
        words += share * part.weight(exact: exact)
      } else {
        missed += 1
      }
    }
    var text = Ranking.text(words: words, coverage: maxCoverage, wholeName: wholeNameBonus)
    // An address typed whole may score more (``LoadedIndex/collectWholeAddresses``).
    if let address = LoadedIndex.wholeAddressText(hits, resolved, missing: missing) {
      text = max(text, address)
    }
    // A place that misses another number of words than this pass scores, or that cannot rank,
    // is not read.
    guard missed == missing else { return }
    // With its name's word count (NAME WORDS), the text score itself: exact up to 14 words,
    // at least the score beyond (the coverage only falls with more words).
    // A record is not read for a name-start bonus the place's tokens deny (the name of
    // "Gemeinde Balzers" carries "balzers", not first).
    // The text itself when the count is exact (below NAME WORDS' saturated value): the record
    // then gives no other.
    var known: Double? = nil
    if let nameWords = index.nameWords {
      let count = nameWords[rank]
      // A place that cannot enter even with every bonus its name's word count allows is passed
      // over before its tokens are read for the name-start bonus (the text it could have is
      // at most this bound, and a lower score is kept out as this one is).
      if let bound = bestText(nameWordCount: count) {
        if best.excludes(
          Ranking.score(text: min(text, bound), importance: importance, geo: geoBound),
          ranksFrom: rank)
        {
          return
        }
        let exact = try knownText(rank, nameWordCount: count, bound: bound)
        text = min(text, exact)
        if count < NameWords.atLeast { known = exact }
      }
    }
    if best.excludes(
      Ranking.score(text: text, importance: importance, geo: geoBound), ranksFrom: rank)
    {
      return
    }
    try index.places.match(rank, into: &entry, contexts: decoded)
    try insert(rank, knownText: known, importance: importance, geoBound: geoBound, into: &best)
  }

  /// Inserts the place whose record was read last into `best`, with the words' ``hits`` in it,
  /// when it matches them, passes the filters and ranks; `knownText` is its text score when
  /// already computed from an exact name word count.
  @inline(__always)
  private mutating func insert(
    _ rank: Int, knownText known: Double?, importance: Double, geoBound: Double,
    into best: inout TopPlaces
  ) throws(IndexFormatError) {
    var text = known
    if text == nil, let bound = bestText(nameWordCount: entry.nameWordCount) {
      text = try knownText(rank, nameWordCount: entry.nameWordCount, bound: bound)
    }
    guard let text else { return }
    // A tie with the worst place enters when it ranks before it (`insert` orders ties by rank).
    if best.excludes(
      Ranking.score(text: text, importance: importance, geo: geoBound), ranksFrom: rank)
    {
      return
    }
    guard try context.accepts(entry, in: index) else { return }
    let point = Coordinate(
      latitude: Double(entry.latitudeE7) / 1e7, longitude: Double(entry.longitudeE7) / 1e7)
    if let restriction = context.filter.coordinateRegionRestriction,
      !restriction.contains(point)
    {
      return
    }
    let (geo, distance) = index.geoScore(point, context: context)
    let score = Ranking.score(text: text, importance: importance, geo: geo)
    if best.excludes(score, ranksFrom: rank) { return }
    best.insert(
      ScoredPlace(
        rank: rank, score: score, distance: distance,
        latitudeE7: entry.latitudeE7, longitudeE7: entry.longitudeE7,
        importance: entry.importance))
  }
}
