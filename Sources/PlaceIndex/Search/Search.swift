import Foundation
import PlaceCore
import PlaceIndexFormat

/// A place found for a request, with its score, before it becomes a suggestion.
struct ScoredPlace {
  /// Which of the client's indexes holds it (set by the client; the search holds no
  /// reference to its index, so that threads do not share a reference count per result).
  var shard = 0
  var rank: Int
  var score: Double
  var distance: Double?
  /// Its position, for collapsing duplicates.
  var latitudeE7: Int32
  var longitudeE7: Int32
}

extension LoadedIndex {
  /// Weights of the ranking formula: text match, importance, nearness.
  enum Weight {
    static let nameExact = 3.0
    static let namePrefix = 2.0
    static let contextExact = 1.2
    static let contextPrefix = 0.8
    static let wholeName = 1.5
    /// Scaled by the share of the name's words that the typed words matched: "Rivington"
    /// is more the street "Rivington Street" than the station "Allen St & Rivington St".
    static let coverage = 1.0
    /// A word found only in an alternative name (another language's, a former name) counts
    /// this share of a primary-name match: "Gamla kyrkan" finds Vanha kirkko, below places
    /// named so.
    static let alternativeName = 0.75
    /// A token found only within typo distance counts this share of a prefix match.
    static let typoShare = 0.45
    static let importance = 4.0
    static let nearness = 5.0
    /// Distance at which the nearness bonus falls to 1/e of its maximum.
    static let nearnessScale = 8_000.0
  }

  /// Letters a one-word query needs before a name counts as typed whole.
  static let wholeNameMinimum = 3

  /// Whether the typed words can earn the whole-name bonus: two or more words, or one of at
  /// least ``wholeNameMinimum`` letters. The early stop's bound must use the same rule, or it
  /// stays too high to stop.
  @inline(__always)
  static func mayEarnWholeName(_ resolved: [ResolvedToken]) -> Bool {
    resolved.count > 1 || (resolved.first?.typedLength ?? 0) >= wholeNameMinimum
  }

  /// A relaxed match (one query word left unmatched) sorts after every full match: its score
  /// is lowered by this much.
  static let relaxedPenalty = 100.0
  /// The most postings the relaxed pass reads (over its two driving words).
  static let relaxedBudget = 256

  /// The best places for `plan`, at most `limit`, after filters; sorted by score.
  ///
  /// Places whose name or context match every query word come first. When there are none,
  /// places that match all words but one follow (a typo in a short word, a
  /// wrong first letter, a word the place does not carry), ranked the same way below them.
  ///
  /// With a restriction region, the places the GEO section finds in it are the candidates
  /// when they are fewer than the typed words' postings (`regionLookup: false` turns that off,
  /// for tests that compare both paths).
  func search(
    _ plan: QueryPlan, filter: AutocompleteFilter, typeFilter: TypeFilter, limit: Int,
    regionLookup: Bool = true
  ) throws -> [ScoredPlace] {
    var resolved: [ResolvedToken] = []
    resolved.reserveCapacity(plan.tokens.count)
    // The words before the last are finished: a query typed on resolved them already, and
    // keeps them for the next keystrokes. The last one is still being typed and new with every
    // keystroke, unless the text goes on after it ("new york, ").
    let keys = plan.tokens.indices.map { i in
      i < plan.tokens.count - 1 || plan.lastIsFinished
        ? WordKey(word: plan.tokens[i], limit: limit) : nil
    }
    var anyEmpty = false
    for (t, key) in zip(plan.tokens, keys) {
      let token =
        try key.map { try resolvedWords.value(for: $0) { try resolve(t, limit: limit) } }
        ?? resolve(t, limit: limit)
      if token.isEmpty { anyEmpty = true }
      resolved.append(token)
    }
    guard !resolved.isEmpty else { return [] }
    var context = SearchContext(filter: filter, typeFilter: typeFilter, limit: limit)
    context.regionLookup = regionLookup
    context.wordKeys = keys
    var best = TopPlaces(limit: limit)
    if !anyEmpty {
      let driver = resolved.indices.min { resolved[$0].cost < resolved[$1].cost }!
      try collect(resolved, drivers: [driver], missing: 0, context: context, into: &best)
    }
    guard best.places.isEmpty, resolved.count >= 2 else { return best.places }
    // Relaxed: every word but one. A place that misses one word carries one of any two, so
    // the two cheapest words' places hold every candidate; when even those are many, the
    // words are too short to tell a typo from a word still being typed, and it is skipped.
    // A word found only inside longer tokens is the likeliest to be wrong: here it matches
    // nothing, so the places that carry every other word are the candidates.
    var words = resolved
    var relaxedContext = context
    for i in words.indices where words[i].infixOnly {
      words[i] = ResolvedToken(
        range: words[i].range, exact: nil, typos: [], cost: 0,
        typedLength: words[i].typedLength)
      relaxedContext.wordKeys[i] = nil
    }
    let order = words.indices.filter { !words[$0].isEmpty }
      .sorted { words[$0].cost < words[$1].cost }
    guard order.count >= words.count - 1,
      order.prefix(2).reduce(0, { $0 + words[$1].cost }) <= Self.relaxedBudget
    else { return best.places }
    var relaxed = TopPlaces(limit: limit)
    try collect(
      words, drivers: Array(order.prefix(2)), missing: 1, context: relaxedContext,
      into: &relaxed)
    for var p in relaxed.places {
      p.score -= Self.relaxedPenalty
      best.places.append(p)
    }
    return best.places
  }

  /// How one typed word maps onto the dictionary: its prefix range, its exact token, and its
  /// typo candidates when the prefix alone finds too few places (or, when nothing else
  /// matches, the tokens it lies inside).
  func resolve(_ t: String, limit: Int) throws -> ResolvedToken {
    let range = try tokens.prefixRange(t)
    var cost = try postings.length(of: range, cap: 1_000_000)
    // Typo candidates only when the token as typed finds fewer places than a page of
    // results: a correct prefix with many places needs no guessing, and guessing costs a
    // walk over the dictionary's tokens with the same first letter.
    var typos: [Int] = []
    if cost < 2 * limit {
      typos = try typoCandidates(t, excluding: range)
      for id in typos { cost += try postings.length(id) }
    }
    // Nothing as typed, as a prefix or within typo distance: the tokens it lies inside.
    var infixOnly = false
    if cost == 0 {
      typos = try infixCandidates(t)
      for id in typos { cost += try postings.length(id) }
      infixOnly = !typos.isEmpty
    }
    return ResolvedToken(
      range: range, exact: try tokens.exactID(t, inPrefixRange: range), typos: typos, cost: cost,
      typedLength: t.utf8.count, infixOnly: infixOnly)
  }

  /// Scores the places of the drivers' postings that match all words but exactly `missing`,
  /// keeping the best in `best`: in rank order, and when nearness keeps that from stopping,
  /// from both ends (``collectNearFirst(after:_:importanceBound:scorer:into:)``).
  private func collect(
    _ resolved: [ResolvedToken], drivers: [Int], missing: Int, context: SearchContext,
    into best: inout TopPlaces
  ) throws {
    var candidates = try Candidates(
      self, resolved: resolved, drivers: drivers, context: context)
    var scorer = try PlaceScorer(
      self, resolved: resolved, drivers: drivers, missing: missing, context: context,
      candidates: candidates)
    // The importance of the last record decoded: every later one's is at most this.
    var lastImportance = Double.infinity
    let maxGeo = scorer.maxGeo
    var decodes = 0
    while let rank = try candidates.next() {
      // Nearness keeps this scan from stopping: read the rest from both ends.
      if decodes == Self.nearFirstAfter && candidates.sets != nil && maxGeo > 0,
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
      let importance = try scorer.decode(rank)
      decodes += 1
      lastImportance = importance
      // Places come in rank order, so importance only falls from here: stop when even a
      // perfect text and geo match could not enter the results.
      let laterText = rank > candidates.lastExactName ? scorer.maxPrefixText : scorer.maxText
      if best.isFull && laterText + maxGeo + importance < best.worst { break }
      try scorer.score(
        rank, driverHits: candidates.hits, importance: importance, geoBound: maxGeo, into: &best)
    }
  }

  /// The nearness score of a place at `point` (the full bonus inside the bias region, else
  /// falling with the distance from the focus) and its distance from the origin, if any.
  @inline(__always)
  func geoScore(_ point: Coordinate, context: SearchContext) -> (Double, distance: Double?) {
    let distance = context.filter.origin.map { $0.distance(to: point) }
    if let bias = context.filter.coordinateRegionBias, bias.contains(point) {
      return (Weight.nearness, distance)
    }
    guard let focus = context.focus else { return (0, distance) }
    let d = distance ?? focus.distance(to: point)
    return (Weight.nearness * exp(-d / Weight.nearnessScale), distance)
  }

  /// The text score of a place whose name has `nameWordCount` words, from where each
  /// resolved word lies in it (`hits`, one per word), or nil when it misses more than
  /// `missing` of them (exactly `missing`: fewer were scored by a stricter pass).
  @inline(__always)
  func textScore(
    nameWordCount: Int, hits: [WordHits], _ resolved: [ResolvedToken], missing: Int
  ) -> Double? {
    var text = 0.0
    var allInName = true
    var missed = 0
    var inNameCount = 0
    for h in hits {
      // Where the word lies: the primary name, an alternative name only, or the context; as
      // typed, else within typo distance.
      guard let (part, share, exact) = h.match else {
        missed += 1
        if missed > missing { return nil }
        allInName = false
        continue
      }
      if part == .name { inNameCount += 1 } else { allInName = false }
      text += share * part.weight(exact: exact)
    }
    guard missed == missing else { return nil }
    if nameWordCount > 0 {
      text += Weight.coverage * Double(min(inNameCount, nameWordCount)) / Double(nameWordCount)
    }
    // Every word of the name typed: "Restaurant Weinstube" is that place, not
    // "Hotel Restaurant Weinstube".
    // Not after one or two letters: any one-word name (or other-language name) starting with
    // them would get it.
    if allInName && resolved.count >= nameWordCount && Self.mayEarnWholeName(resolved) {
      text += Weight.wholeName
    }
    return text
  }

  /// Every place's hits for `word`, read from its postings; kept under `key` for the next
  /// keystrokes when the word is finished (a key is given).
  func hitMap(_ word: ResolvedToken, key: WordKey?) throws -> WordHitMap {
    let build = { try WordHitMap(word, postings: self.postings, placeCount: self.places.count) }
    guard let key else { return try build() }
    return try hitMaps.value(for: key, build)
  }
}

extension PostingsPart {
  /// The score of a word found in this part, as a whole token or as a prefix.
  @inline(__always)
  func weight(exact: Bool) -> Double {
    typealias W = LoadedIndex.Weight
    switch self {
    case .name: return exact ? W.nameExact : W.namePrefix
    case .alternative: return W.alternativeName * (exact ? W.nameExact : W.namePrefix)
    case .context: return exact ? W.contextExact : W.contextPrefix
    }
  }
}

/// The places a search considers, in rank order: the places in the restriction region when
/// the GEO section finds fewer of them than the drivers' postings hold, else those postings.
struct Candidates {
  private var merger: PostingsMerger?
  private var inRegion: [Int] = []
  private var position = 0

  /// How many postings the drivers hold (the candidates when no region narrows them).
  let cost: Int
  /// The places whose name carries the single driver's exact token, ascending (empty when
  /// it has none); nil when the candidates are a restriction region's places.
  private(set) var exactNames: [Int]? = nil
  /// When the search reads from both ends (``LoadedIndex/readsFromBothEnds(_:cost:)``):
  /// every place's hits for the single driving word and its places as bitmaps, read whole
  /// once, instead of merged lists.
  private(set) var driverMap: WordHitMap? = nil
  /// With ``driverMap``: the places that carry the driving word in a name, and those that
  /// carry it in their context only.
  var sets: (inName: PlaceSet, inContext: PlaceSet)? { driverMap?.sets }
  /// The rank `next()` returned last from `sets`.
  private var last = -1
  private var droppedContexts = false
  /// The last place whose name carries the exact token, or -1: after it, no place can score
  /// the driving word as a whole name word (`Int.max` when the postings are not read).
  var lastExactName: Int { exactNames.map { $0.last ?? -1 } ?? .max }
  /// Whether the candidates are the postings (not the places of a restriction region).
  var arePostings: Bool { merger != nil || sets != nil }
  /// Whether the single driving word's hits come from the merged postings (``hits``).
  var mergesOneWord: Bool { merger?.tellsHits ?? false }

  init(_ index: LoadedIndex, resolved: [ResolvedToken], drivers: [Int], context: SearchContext)
    throws
  {
    cost = drivers.reduce(0) { $0 + resolved[$1].cost }
    if context.regionLookup, let region = context.filter.coordinateRegionRestriction,
      let places = try index.placesNear(region, limit: cost / 2)
    {
      inRegion = places
      return
    }
    let words = drivers.map { resolved[$0] }
    var names: [Int] = []
    if words.count == 1, let exact = words[0].exact {
      let lists = try index.postings.lists(exact)
      for var c in [lists.name, lists.alternative] {
        while let p = try c.next() { names.append(p) }
      }
      names.sort()
    }
    exactNames = names
    guard words.count == 1, index.readsFromBothEnds(context, cost: cost) else {
      merger = try PostingsMerger(postings: index.postings, words: words)
      return
    }
    driverMap = try WordHitMap(
      words[0], postings: index.postings, placeCount: index.places.count, sets: true)
  }

  /// The next place rank, each rank once, ascending.
  mutating func next() throws -> Int? {
    if merger != nil { return try merger!.next() }
    if let sets {
      guard
        let rank = sets.inName.first(
          from: last + 1, orIn: droppedContexts ? nil : sets.inContext)
      else { return nil }
      last = rank
      return rank
    }
    guard position < inRegion.count else { return nil }
    defer { position += 1 }
    return inRegion[position]
  }

  /// Stops reading the drivers' context lists: later places come from their name lists only.
  mutating func dropContextLists() {
    droppedContexts = true
    merger?.dropContextLists()
  }

  /// Whether the context lists were dropped.
  var droppedContextLists: Bool { droppedContexts }

  /// The single driving word's hits in the place `next()` returned last, when
  /// ``mergesOneWord``.
  var hits: WordHits { merger?.hits ?? [] }

  /// Whether the drivers' words may lie in a name of the place `next()` returned last; false
  /// only when the postings say they lie in its context alone.
  var mayMatchName: Bool {
    if let sets { return sets.inName.contains(last) }
    return merger.map { !$0.hits.isDisjoint(with: .inName) } ?? true
  }

  /// Whether the driver's word may lie in a name of that place as a whole token; false only
  /// when the postings say it does not.
  var mayMatchExactName: Bool {
    if let driverMap { return !driverMap[last].isDisjoint(with: .exactInName) }
    return merger.map { !$0.hits.isDisjoint(with: .exactInName) } ?? true
  }
}

/// Merges the postings lists of the driving words' tokens (prefix ranges and typo candidates,
/// every part) into one ascending stream of place ranks, telling for each where the words lie
/// in it.
struct PostingsMerger {
  private var cursors: [PostingsCursor] = []
  /// What each cursor's list tells of its places.
  private var bits: [WordHits] = []
  /// A binary min-heap of (head value, cursor) pairs.
  private var heap: [(value: Int, cursor: Int)] = []
  /// Where the driving words lie in the rank `next()` returned last (the union over the words
  /// when there are two; exact tokens only when there is one).
  private(set) var hits: WordHits = []
  /// Whether ``hits`` tells all of one word's hits: one driving word, and its context lists are
  /// read to the end (dropping them is refused when the word has typo candidates, which rank
  /// below a context match).
  let tellsHits: Bool

  init(postings: Postings, words: [ResolvedToken]) throws {
    tellsHits = words.count == 1
    keepsContexts = words.count == 1 && !words[0].typos.isEmpty
    var cursors: [PostingsCursor] = []
    var bits: [WordHits] = []
    var heap: [(value: Int, cursor: Int)] = []
    for word in words {
      var w = word
      if words.count > 1 { w.exact = nil }
      try postings.forEachList(of: Array(w.range) + w.typos) { t, lists in
        for part in PostingsPart.allCases {
          var c = lists[part]
          if let v = try c.next() {
            cursors.append(c)
            bits.append(WordHits.of(t, in: part, for: w))
            heap.append((v, cursors.count - 1))
          }
        }
      }
    }
    self.cursors = cursors
    self.bits = bits
    self.heap = heap
    heapify()
  }

  /// Whether ``dropContextLists()`` was called.
  private(set) var droppedContextLists = false
  /// Whether the context lists stay when dropped: their hits rank a typo match.
  private let keepsContexts: Bool

  /// Removes the context lists' cursors: the stream goes on with the name lists only.
  mutating func dropContextLists() {
    guard !droppedContextLists, !keepsContexts else { return }
    droppedContextLists = true
    let contextBits: WordHits = [.range(.context), .typo(.context)]
    heap.removeAll { !bits[$0.cursor].isDisjoint(with: contextBits) }
    heapify()
  }

  /// Orders the whole heap.
  private mutating func heapify() {
    var i = heap.count / 2
    while i > 0 {
      i -= 1
      siftDown(i)
    }
  }

  /// The next place rank, each rank once.
  mutating func next() throws -> Int? {
    guard let top = heap.first else { return nil }
    let value = top.value
    var found: WordHits = []
    // Advance every cursor whose head is this value.
    while let h = heap.first, h.value == value {
      found.formUnion(bits[h.cursor])
      if let v = try cursors[h.cursor].next() {
        heap[0].value = v
      } else {
        let last = heap.removeLast()
        if heap.isEmpty { break }
        heap[0] = last
      }
      siftDown(0)
    }
    hits = found
    return value
  }

  /// Restores the heap order below `start`.
  private mutating func siftDown(_ start: Int) {
    let count = heap.count
    var i = start
    let item = heap[i]
    while true {
      var child = 2 * i + 1
      if child >= count { break }
      if child + 1 < count && heap[child + 1].value < heap[child].value { child += 1 }
      if heap[child].value >= item.value { break }
      heap[i] = heap[child]
      i = child
    }
    heap[i] = item
  }
}

/// What a search checks per place besides its text: filters and the point it ranks nearness to.
struct SearchContext {
  let filter: AutocompleteFilter
  let typeFilter: TypeFilter
  let limit: Int
  /// The point nearness is measured from: the origin, else the bias region's center.
  let focus: Coordinate?
  /// Upper-cased region codes of the countries filter.
  let countries: Set<String>
  /// Whether the type filter accepts every place.
  let anyType: Bool
  /// Whether a restriction region may take its candidates from the GEO section.
  var regionLookup = true
  /// The cache key of each query word whose hits may be kept (the finished ones), else nil.
  var wordKeys: [WordKey?] = []

  init(filter: AutocompleteFilter, typeFilter: TypeFilter, limit: Int) {
    self.filter = filter
    self.typeFilter = typeFilter
    self.limit = limit
    focus = filter.origin ?? filter.coordinateRegionBias?.center
    countries = Set(filter.countries.map { $0.uppercased() })
    if case .any = typeFilter.kind { anyType = true } else { anyType = false }
  }

  /// Whether the type and country filters accept the place.
  @inline(__always)
  func accepts(_ entry: PlaceMatch, in index: LoadedIndex) throws -> Bool {
    if !anyType {
      guard
        typeFilter.accepts(
          primaryType: index.primaryTypeOfList[entry.typeList],
          all: typeFilter.needsAllTypes ? index.types.types(ofList: entry.typeList) : [])
      else { return false }
    }
    if !countries.isEmpty {
      guard let cc = entry.countryCode, countries.contains(try index.strings.string(cc)) else {
        return false
      }
    }
    return true
  }
}

/// The best places so far, best first, at most `limit`.
struct TopPlaces {
  let limit: Int
  var places: [ScoredPlace] = []

  init(limit: Int) {
    self.limit = limit
    places.reserveCapacity(limit + 1)
  }

  /// Whether `limit` places are held (a place must then beat ``worst`` to enter).
  var isFull: Bool { places.count >= limit }

  /// The score of the last place held.
  var worst: Double { places.last?.score ?? -.infinity }

  /// Inserts `p` in order (higher score first, then lower rank), dropping the last past
  /// `limit`.
  mutating func insert(_ p: ScoredPlace) {
    var i = places.count
    while i > 0 {
      let q = places[i - 1]
      if q.score > p.score || (q.score == p.score && q.rank < p.rank) { break }
      i -= 1
    }
    guard i < limit else { return }
    places.insert(p, at: i)
    if places.count > limit { places.removeLast() }
  }
}
