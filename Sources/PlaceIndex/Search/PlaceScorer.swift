import Foundation
import PlaceCore
import PlaceIndexFormat

/// Scores places for one pass of a search: decodes a record, matches it against the typed
/// words (through the postings: where each word lies in the place), applies the filters and
/// inserts it into the results when it ranks.
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
  /// The best geo score: the full nearness bonus when there is a focus.
  let maxGeo: Double
  private var entry = PlaceMatch()
  /// The index's decoded contexts, as buffers: copying them retains nothing.
  private let decoded: DecodedContexts.View
  /// When the candidates come in rank order: each word's postings, read as far as the places
  /// scored (nil for the word whose hits the candidates tell as they come,
  /// ``Candidates/hits``). Opened on first use: a search that scores nothing opens none.
  private var seekers: [PostingsMerger?] = []
  /// When the search reads from both ends, places come in any order: each word's hits in
  /// every place (the driver's from the candidates), read whole.
  private var maps: [WordHitMap?] = []
  /// Whether the words' postings are open (``seekers`` or ``maps``).
  private var opened = false
  /// Which word the candidates tell the hits of, or nil.
  private let toldWord: Int?
  /// The driving word and its map, when the candidates read it whole.
  private let driverMap: (word: Int, map: WordHitMap)?
  /// Reused for each place: each word's hits in it.
  private var hits: [WordHits]

  init(
    _ index: LoadedIndex, resolved: [ResolvedToken], drivers: [Int], missing: Int,
    context: SearchContext, candidates: Candidates
  ) throws(IndexFormatError) {
    typealias W = Ranking
    self.index = index
    self.resolved = resolved
    self.missing = missing
    self.context = context
    let wholeName = missing == 0 && LoadedIndex.mayEarnWholeName(resolved)
    var text = W.coverage + (wholeName ? W.wholeName : 0)
    for q in resolved { text += q.exact != nil ? W.nameExact : W.namePrefix }
    maxText = text
    maxTextOfPrefixes =
      W.coverage + (wholeName ? W.wholeName : 0) + Double(resolved.count) * W.namePrefix
    var contextText = text
    var prefixText = text
    if drivers.count == 1 {
      let d = resolved[drivers[0]]
      if d.exact != nil { prefixText -= W.nameExact - W.namePrefix }
      contextText -=
        d.exact != nil ? W.nameExact - W.contextExact : W.namePrefix - W.contextPrefix
      if wholeName { contextText -= W.wholeName }
      if resolved.count == 1 { contextText -= W.coverage }
    }
    maxContextText = contextText
    maxPrefixText = prefixText
    maxGeo = context.focus == nil ? 0 : W.nearness
    decoded = try index.decodedContexts.view
    toldWord = candidates.mergesOneWord ? drivers[0] : nil
    driverMap = candidates.driverMap.map { (drivers[0], $0) }
    hits = Array(repeating: [], count: resolved.count)
  }

  /// Opens each word's postings, but the one the candidates tell: as seekers when places come
  /// in rank order, else as hit maps (the finished words' from the index's cache).
  private mutating func openWords() throws(IndexFormatError) {
    opened = true
    guard driverMap != nil else {
      // A word of few places against the index's size is sought; one of many is read whole
      // (the heap that merges its lists costs more per place than an array of every place).
      maps = Array(repeating: nil, count: resolved.count)
      seekers = try resolved.indices.map { (i) throws(IndexFormatError) -> PostingsMerger? in
        guard i != toldWord else { return nil }
        if WordHitMap.isFew(resolved[i], placeCount: index.places.count) {
          return try PostingsMerger(postings: index.postings, words: [resolved[i]])
        }
        let key = i < context.wordKeys.count ? context.wordKeys[i] : nil
        maps[i] = try index.hitMap(resolved[i], key: key)
        return nil
      }
      return
    }
    maps = try resolved.indices.map { (i) throws(IndexFormatError) -> WordHitMap? in
      if i == toldWord { return nil }
      if let driverMap, driverMap.word == i { return driverMap.map }
      let key = i < context.wordKeys.count ? context.wordKeys[i] : nil
      return try index.hitMap(resolved[i], key: key)
    }
  }

  /// The places whose primary or alternative name carries a typed word whole, as one stream
  /// to seek in rank order (``PostingsMerger/hits(at:)`` is empty for a place that is not
  /// one); nil when no word is a whole token.
  func exactNames() throws(IndexFormatError) -> PostingsMerger? {
    let exact = resolved.compactMap(\.exact).map {
      ResolvedToken(range: $0..<($0 + 1), exact: $0, typos: [], cost: 0, typedLength: 0)
    }
    guard !exact.isEmpty else { return nil }
    var names = try PostingsMerger(postings: index.postings, words: exact)
    names.dropContextLists()
    return names
  }

  /// The best text score of a place, from what the postings tell of it: whether the driving
  /// word may lie in its name, and whether as a whole token there.
  @inline(__always)
  func textBound(name: Bool, exactName: Bool) -> Double {
    name ? (exactName ? maxText : maxPrefixText) : maxContextText
  }

  /// Decodes the record of place `rank`; returns its weighted importance.
  @inline(__always)
  mutating func decode(_ rank: Int) throws(IndexFormatError) -> Double {
    try index.places.match(rank, into: &entry, contexts: decoded)
    return Ranking.importance * Double(entry.importance) / 65535
  }

  /// Scores the place ``decode(_:)`` read last into `best`, when it matches the words and
  /// passes the filters; `driverHits` are the hits the candidates tell (``Candidates/hits``)
  /// and `geoBound` is the most geo score it can earn.
  @inline(__always)
  mutating func score(
    _ rank: Int, driverHits: WordHits = [], importance: Double, geoBound: Double,
    into best: inout TopPlaces
  ) throws(IndexFormatError) {
    if !opened { try openWords() }
    for i in hits.indices {
      hits[i] = i == toldWord ? driverHits : try wordHits(i, rank)
    }
    try insert(rank, importance: importance, geoBound: geoBound, into: &best)
  }

  /// Word `i`'s hits in place `rank`: from its map, else from its seeker, which is read whole
  /// into a map instead once it has worked more than ``Ranking/seekStepsPerPosting`` allows (a
  /// search that reads far then pays about what reading the word whole costs).
  @inline(__always)
  private mutating func wordHits(_ i: Int, _ rank: Int) throws(IndexFormatError) -> WordHits {
    if let map = maps[i] { return map[rank] }
    let found = try seekers[i]!.hits(at: rank)
    if seekers[i]!.steps * Ranking.seekStepsPerPosting > resolved[i].cost {
      seekers[i] = nil
      let key = i < context.wordKeys.count ? context.wordKeys[i] : nil
      maps[i] = try index.hitMap(resolved[i], key: key)
    }
    return found
  }

  /// Inserts the place ``decode(_:)`` read last into `best`, with the words' ``hits`` in it,
  /// when it matches them, passes the filters and ranks.
  @inline(__always)
  private mutating func insert(
    _ rank: Int, importance: Double, geoBound: Double, into best: inout TopPlaces
  ) throws(IndexFormatError) {
    guard
      let text = index.textScore(
        nameWordCount: entry.nameWordCount, hits: hits, resolved, missing: missing)
    else { return }
    // Ties with the worst place still go to `insert`, which orders them by rank.
    if best.isFull && text + importance + geoBound < best.worst { return }
    guard try context.accepts(entry, in: index) else { return }
    let point = Coordinate(
      latitude: Double(entry.latitudeE7) / 1e7, longitude: Double(entry.longitudeE7) / 1e7)
    if let restriction = context.filter.coordinateRegionRestriction,
      !restriction.contains(point)
    {
      return
    }
    let (geo, distance) = index.geoScore(point, context: context)
    let score = text + importance + geo
    if best.isFull && score < best.worst { return }
    best.insert(
      ScoredPlace(
        rank: rank, score: score, distance: distance,
        latitudeE7: entry.latitudeE7, longitudeE7: entry.longitudeE7,
        importance: entry.importance))
  }
}
