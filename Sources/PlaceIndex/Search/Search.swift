import Foundation
import PlaceCore
import PlaceIndexFormat

extension LoadedIndex {
  /// Whether the typed words can earn the whole-name bonus: two or more words, or one of at
  /// least ``Ranking/wholeNameMinimum`` letters. The early stop's bound must use the same rule,
  /// or it stays too high to stop.
  @inline(__always)
  static func mayEarnWholeName(_ resolved: [ResolvedToken]) -> Bool {
    resolved.count > 1 || (resolved.first?.typedLength ?? 0) >= Ranking.wholeNameMinimum
  }

  /// The best places for `plan` in this index alone, at most `limit`, after filters; sorted
  /// by score (``search(_:_:filter:typeFilter:limit:regionLookup:filterAfter:)`` over this one index).
  func search(
    _ plan: QueryPlan, filter: AutocompleteFilter, typeFilter: TypeFilter, limit: Int,
    regionLookup: Bool = true, filterAfter: Int = Ranking.filterAfter
  ) throws(IndexFormatError) -> [ScoredPlace] {
    try Self.search(
      [self], plan, filter: filter, typeFilter: typeFilter, limit: limit,
      regionLookup: regionLookup, filterAfter: filterAfter)
  }

  /// The best places for `plan` over `indexes` (shards), at most `limit`, after filters;
  /// sorted by score, then in the order one index over the same data would rank them; each
  /// place's ``ScoredPlace/shard`` is its index's position in `indexes`.
  ///
  /// Places whose name or context match every query word come first. When there are none,
  /// places that match all words but one follow (a typo in a short word, a
  /// wrong first letter, a word the place does not carry), ranked the same way below them.
  ///
  /// Every decision that one index takes from its counts (look for typos, look inside longer
  /// words, relax one word, which words drive the relaxed pass) is taken from the counts over
  /// all shards, so that N shards answer as one index over the same data does.
  ///
  /// With a restriction region, the places the GEO section finds in it are the candidates
  /// when they are fewer than the typed words' postings (`regionLookup: false` turns that off,
  /// for tests that compare both paths). `filterAfter` is ``Ranking/filterAfter`` but in tests
  /// that drive the words' postings filters (``WordFilter``) from the first place on.
  static func search(
    _ indexes: [LoadedIndex], _ plan: QueryPlan, filter: AutocompleteFilter,
    typeFilter: TypeFilter, limit: Int, regionLookup: Bool = true,
    filterAfter: Int = Ranking.filterAfter
  ) throws(IndexFormatError) -> [ScoredPlace] {
    guard !plan.tokens.isEmpty, !indexes.isEmpty else { return [] }
    let (resolved, keys) = try resolveWords(indexes, plan, limit: limit)
    var context = SearchContext(filter: filter, typeFilter: typeFilter, limit: limit)
    context.regionLookup = regionLookup
    context.filterAfter = filterAfter
    context.wordKeys = keys
    var shards = ShardFinds(indexes, limit: limit)
    for (s, bound, geo) in try searchOrder(indexes, resolved, context: context)
    where !resolved[s].contains(where: \.isEmpty) {
      let words = resolved[s]
      // Shards in order of their best possible score: one that cannot reach the places kept
      // is skipped, and so are all after it.
      if let floor = shards.floor, bound < floor.place.score { break }
      let driver = words.indices.min { words[$0].cost < words[$1].cost }!
      try shards.search(s, words, drivers: [driver], missing: 0, geo: geo, context: context)
    }
    var found = shards.places
    let relaxedPass = found.isEmpty && plan.tokens.count >= 2
    if relaxedPass {
      found = try relaxed(indexes, resolved, context: context, limit: limit)
    }
    // The relaxed pass's penalty is taken off once its places are in order: taken off before,
    // its rounding could make two scores a last bit apart equal, and shards merged by them
    // would order them as one index does not.
    if relaxedPass {
      for i in found.indices { found[i].score -= Ranking.relaxedPenalty }
    }
    return found
  }

  /// The shards to search, best possible score first (ties in their given order), each with
  /// that score and its most geo score (``ShardExtent/bestGeo(_:)``): all of them for one
  /// index (unbounded); without those whose places all lie outside a restriction region.
  static func searchOrder(
    _ indexes: [LoadedIndex], _ resolved: [[ResolvedToken]], context: SearchContext
  ) throws(IndexFormatError) -> [(shard: Int, best: Double, geo: Double)] {
    guard indexes.count > 1 else { return [(0, .infinity, .infinity)] }
    var order: [(shard: Int, best: Double, geo: Double)] = []
    for (s, index) in indexes.enumerated() {
      let extent = try index.extent
      if let region = context.filter.coordinateRegionRestriction, !extent.mayMeet(region) {
        continue
      }
      let geo = extent.bestGeo(context)
      order.append((s, extent.bestScore(resolved[s], geo: geo), geo))
    }
    return order.sorted { $0.best > $1.best || ($0.best == $1.best && $0.shard < $1.shard) }
  }

  /// A one-word query still being typed, shorter than ``Ranking/startsNamesBelowLetters``,
  /// starts the names its prefix starts (``ResolvedToken/beingTyped``).
  ///
  /// A word still being typed, shorter than ``Ranking/exactFromLetters``, is a prefix even
  /// where it is a whole token: "p" is the start of Pitt Street before it is the "P" of "P.C.".
  /// Not a number: a housenumber is short and typed whole ("улица 2", "Bergstrasse 1").
  static func shortWordAsPrefix(_ words: inout [ResolvedToken], _ plan: QueryPlan) {
    if words.count == 1, !plan.lastIsFinished,
      words[0].typedLength < Ranking.startsNamesBelowLetters
    {
      words[0].beingTyped = true
    }
    let number = plan.tokens.last?.unicodeScalars.first?.properties.numericType != nil
    guard let last = words.indices.last, !plan.lastIsFinished, !number,
      words[last].typedLength < Ranking.exactFromLetters
    else { return }
    words[last].exact = nil
  }

  /// Each index's words for `plan`, and the cache keys of the finished ones.
  ///
  /// The words before the last are finished: a query typed on resolved them already, and
  /// keeps them for the next keystrokes. The last one is still being typed and new with every
  /// keystroke, unless the text goes on after it ("new york, "). With several indexes, each
  /// word's typo and inside-word candidates are looked for only when the counts over all of
  /// them ask for them, in every shard or none: typos when its tokens as typed hold too few
  /// places over all shards, inside longer words when nothing else matches it in any shard.
  /// (A shard's own counts would ask for typos in each of 20 shards that hold a share of a
  /// word's places, for a word that has enough of them over all.)
  static func resolveWords(_ indexes: [LoadedIndex], _ plan: QueryPlan, limit: Int)
    throws(IndexFormatError)
    -> (words: [[ResolvedToken]], keys: [WordKey?])
  {
    var keys = plan.tokens.indices.map { i in
      i < plan.tokens.count - 1 || plan.lastIsFinished
        ? WordKey(word: plan.tokens[i], limit: limit) : nil
    }
    // A word's next form in an index, from the index's recent finished words when it is one
    // (by what was looked for), naming the index's file in a format error.
    func step(
      _ index: LoadedIndex, _ i: Int, typos: Bool, infix: Bool,
      _ compute: () throws(IndexFormatError) -> ResolvedToken
    ) throws(IndexFormatError) -> ResolvedToken {
      try index.located { () throws(IndexFormatError) in
        guard var key = keys[i] else { return try compute() }
        key.typos = typos
        key.infix = infix
        return try index.recent.resolvedWords.value(for: key, compute)
      }
    }
    let tokens = plan.tokens
    guard indexes.count > 1 else {
      // One index takes its own counts' decisions.
      var words = try tokens.indices.map { (i) throws(IndexFormatError) in
        try step(indexes[0], i, typos: true, infix: true) { () throws(IndexFormatError) in
          try indexes[0].resolve(tokens[i], limit: limit)
        }
      }
      shortWordAsPrefix(&words, plan)
      var all = [words]
      try markWholeAddress(indexes, &all, plan)
      return (all, keys)
    }
    // Shards read every word as typed, then add what the sums over all of them ask for.
    var resolved = try indexes.map { (index) throws(IndexFormatError) in
      try tokens.indices.map { (i) throws(IndexFormatError) in
        try step(index, i, typos: false, infix: false) { () throws(IndexFormatError) in
          try index.asTyped(tokens[i])
        }
      }
    }
    for i in tokens.indices {
      let typos =
        resolved.reduce(0) { $0 + $1[i].rangeCost } < Ranking.typoWhenFewerThanLimits * limit
      if typos {
        // The shards walk their dictionaries together, once one of them needs the walk (a
        // finished word may be kept in all of them).
        let ranges = resolved.map { $0[i].range }
        var walked: [[Int]]? = nil
        for (s, index) in indexes.enumerated() {
          let word = resolved[s][i]
          resolved[s][i] = try step(index, i, typos: true, infix: false) {
            () throws(IndexFormatError) in
            if walked == nil {
              walked = try typoCandidatesTyped(indexes, tokens[i], excluding: ranges)
            }
            return try index.withTypos(word, walked![s])
          }
        }
      }
      let infix = resolved.reduce(0) { $0 + $1[i].cost } == 0
      if infix {
        for (s, index) in indexes.enumerated() {
          let word = resolved[s][i]
          resolved[s][i] = try step(index, i, typos: typos, infix: true) {
            () throws(IndexFormatError) in try index.withInfix(word, tokens[i])
          }
        }
      }
      keys[i]?.typos = typos
      keys[i]?.infix = infix
    }
    for s in resolved.indices { shortWordAsPrefix(&resolved[s], plan) }
    try markWholeAddress(indexes, &resolved, plan)
    // A word that is a whole token in one shard is one in all of them (the name-start rule).
    for i in tokens.indices where resolved.contains(where: { $0[i].exact != nil }) {
      for s in resolved.indices where resolved[s][i].exact == nil {
        resolved[s][i].wholeInAnotherShard = true
      }
    }
    return (resolved, keys)
  }

  /// The relaxed pass over `indexes`: places that match every word but one, scored without
  /// the ``Ranking/relaxedPenalty`` (the caller takes it off once they are in order).
  ///
  /// A place that misses one word carries one of any two, so the two cheapest words' places
  /// hold every candidate; when even those are many, the words are too short to tell a typo
  /// from a word still being typed, and it is skipped. A word that matches nothing is the one
  /// missed: the places that carry every other word are the candidates, and the cheapest of
  /// those words drives alone. A word found only inside longer tokens is the likeliest to be
  /// wrong: here it matches nothing.
  private static func relaxed(
    _ indexes: [LoadedIndex], _ resolved: [[ResolvedToken]], context: SearchContext, limit: Int
  ) throws(IndexFormatError) -> [ScoredPlace] {
    var words = resolved
    var relaxedContext = context
    let count = resolved[0].count
    for i in 0..<count where resolved[0][i].infixOnly {
      for s in words.indices {
        words[s][i] = ResolvedToken(
          range: words[s][i].range, exact: nil, typos: [], cost: 0,
          typedLength: words[s][i].typedLength)
      }
      relaxedContext.wordKeys[i] = nil
    }
    let cost = (0..<count).map { i in words.reduce(0) { $0 + $1[i].cost } }
    let order = (0..<count).filter { i in words.contains { !$0[i].isEmpty } }
      .sorted { cost[$0] < cost[$1] }
    let drivers: [Int]
    if order.count == count - 1, let cheapest = order.first {
      // One word matches nothing in any shard (not as typed, not within typo distance): it is
      // the one missed, and every candidate carries all the others, so the cheapest of them
      // drives alone ("Rua Serra ZParima" is a Rua Serra street). Its postings are read as a
      // search for it alone would read them, stopping when no later place can enter.
      drivers = [cheapest]
    } else {
      guard order.count == count,
        order.prefix(2).reduce(0, { $0 + cost[$1] }) <= Ranking.relaxedBudget
      else { return [] }
      drivers = Array(order.prefix(2))
    }
    var shards = ShardFinds(indexes, limit: limit)
    for (s, index) in indexes.enumerated() {
      // As in the first pass.
      let geo = indexes.count > 1 ? try index.extent.bestGeo(context) : .infinity
      try shards.search(
        s, words[s], drivers: drivers, missing: 1, geo: geo, context: relaxedContext)
    }
    return shards.places
  }

  /// The first rank of this index whose place comes after `key` in the order of ties (its
  /// rank order: most important first, then by element kind and id); the place count when
  /// none does. A binary search: PLACE IMPORTANCE and PLACE IDS at about 20 ranks.
  func firstRankAfter(_ key: TieKey) throws(IndexFormatError) -> Int {
    var (lo, hi) = (0, places.count)
    while lo < hi {
      let mid = (lo + hi) / 2
      let e = try places.ids.element(mid)
      let here = TieKey(
        importance: try places.importance.importance(of: mid), kind: e.kind, id: e.id)
      if key < here { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }

  /// `body`, with a format error naming this index's file.
  func located<T>(_ body: () throws(IndexFormatError) -> T) throws(IndexFormatError) -> T {
    do throws(IndexFormatError) {
      return try body()
    } catch {
      throw error.withPath(file.path)
    }
  }

  /// How one typed word maps onto the dictionary: its prefix range, its exact token, and its
  /// typo candidates when the prefix alone finds too few places (or, when nothing else
  /// matches, the tokens it lies inside).
  func resolve(_ t: String, limit: Int) throws(IndexFormatError) -> ResolvedToken {
    try withInfix(try withTypos(try asTyped(t), t, limit: limit), t)
  }

  /// Word `t` as typed: its prefix range, its exact token and the places they hold.
  func asTyped(_ t: String) throws(IndexFormatError) -> ResolvedToken {
    let range = try tokens.prefixRange(t)
    let cost = try postings.length(of: range, cap: 1_000_000)
    return ResolvedToken(
      range: range, exact: try tokens.exactID(t, inPrefixRange: range), typos: [], cost: cost,
      typedLength: t.unicodeScalars.count, rangeCost: cost)
  }

  /// `word` (`t` as typed) with its typo candidates when its tokens as typed hold fewer places
  /// than a page of results: a correct prefix with many places needs no guessing, and
  /// guessing costs a walk of the dictionary.
  func withTypos(_ word: ResolvedToken, _ t: String, limit: Int) throws(IndexFormatError)
    -> ResolvedToken
  {
    guard word.rangeCost < Ranking.typoWhenFewerThanLimits * limit else { return word }
    // (A word of letters shorter than ``Ranking/typoPrefixFrom`` matches whole tokens only:
    // the start of a token within one edit of "schb" is any token of "sch".)
    return try withTypos(word, try typoCandidatesTyped(t, excluding: word.range))
  }

  /// `word` with `typos` (token ids) as its typo candidates, their places added to its cost.
  func withTypos(_ word: ResolvedToken, _ typos: [Int]) throws(IndexFormatError)
    -> ResolvedToken
  {
    var out = word
    out.typos = typos
    for id in out.typos { out.cost += try postings.length(id) }
    return out
  }

  /// `word` with the tokens `t` lies inside when nothing matches it as typed, as a prefix or
  /// within typo distance.
  func withInfix(_ word: ResolvedToken, _ t: String) throws(IndexFormatError) -> ResolvedToken {
    guard word.cost == 0 else { return word }
    var out = word
    out.typos = try infixCandidates(t)
    for id in out.typos { out.cost += try postings.length(id) }
    out.infixOnly = !out.typos.isEmpty
    return out
  }
}

/// The places the shards of one search found, searched one after the other: after each
/// shard, the best `limit` of all, by score, then as one index ranks places (most important
/// first, then by element kind and id, which each shard's own rank order keeps), each with its
/// tie key, looked up once (PLACE IDS alone: no record is decoded). The limit-th is the floor
/// of every later shard. One index keeps its own places as found.
struct ShardFinds {
  let indexes: [LoadedIndex]
  let limit: Int
  /// The places, best first; with several shards, at most `limit`.
  private(set) var places: [ScoredPlace] = []
  /// Each place's tie key, with several shards.
  private var keys: [TieKey] = []

  init(_ indexes: [LoadedIndex], limit: Int) {
    self.indexes = indexes
    self.limit = limit
  }

  /// The limit-th place and its tie key, once that many were found over several shards.
  var floor: (place: ScoredPlace, key: TieKey)? {
    indexes.count > 1 && places.count >= limit ? (places[limit - 1], keys[limit - 1]) : nil
  }

  /// Searches shard `s` for `words` (places missing exactly `missing` of them) and merges its
  /// places in: with several shards, its kept places are none below the floor nor tied with
  /// it and after it in the order of ties (``TopPlaces/floorRank``), and each place's nearness
  /// is at most `geo`, the most its places can earn (``SearchContext/shardGeo``).
  mutating func search(
    _ s: Int, _ words: [ResolvedToken], drivers: [Int], missing: Int, geo: Double,
    context: SearchContext
  ) throws(IndexFormatError) {
    let index = indexes[s]
    var best = TopPlaces(limit: limit)
    var shardContext = context
    if indexes.count > 1 {
      shardContext.shardGeo = geo
      if let floor {
        best.floor = floor.place.score
        best.floorRank = try index.located { () throws(IndexFormatError) in
          try index.firstRankAfter(floor.key)
        }
      }
    }
    try index.located { () throws(IndexFormatError) in
      try index.collect(
        words, drivers: drivers, missing: missing, context: shardContext, into: &best)
    }
    for var p in best.places {
      p.missing = missing
      p.shard = s
      places.append(p)
      if indexes.count > 1 {
        let e = try index.located { () throws(IndexFormatError) in
          try index.places.ids.element(p.rank)
        }
        keys.append(TieKey(importance: p.importance, kind: e.kind, id: e.id))
      }
    }
    guard indexes.count > 1 else { return }
    let order = places.indices.sorted { a, b in
      if places[a].score != places[b].score { return places[a].score > places[b].score }
      if keys[a] != keys[b] { return keys[a] < keys[b] }
      return places[a].shard < places[b].shard
    }.prefix(limit)
    places = order.map { places[$0] }
    keys = order.map { keys[$0] }
  }
}

/// A place's position among places of one score, as one index ranks them: most important
/// first, then by element kind and id (`<`: comes first).
struct TieKey: Comparable {
  var importance: UInt16
  var kind: UInt8
  var id: Int64

  static func < (a: TieKey, b: TieKey) -> Bool {
    if a.importance != b.importance { return a.importance > b.importance }
    if a.kind != b.kind { return a.kind < b.kind }
    return a.id < b.id
  }
}
