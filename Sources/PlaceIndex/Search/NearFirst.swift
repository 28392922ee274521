import Foundation
import PlaceCore
import PlaceIndexFormat

/// A search with an origin or a bias, read from both ends: by importance and by distance.
///
/// Nearness lets any matching place near the focus be the best, whatever its importance, so
/// a scan in importance order alone cannot stop early: a one-letter query with an origin
/// would read every place that matches it. This scan takes turns between two streams, as in
/// Fagin's threshold algorithm:
/// - the postings, in rank order (importance descending): every place not yet seen has at
///   most the importance of the last one read from them;
/// - the places in growing rings around the focus, from the GEO section (boxes of circles of
///   250 m, 500 m, ... 32 km): once a ring is read, every place not yet seen lies outside it
///   and earns at most the nearness of its radius.
///
/// It stops when even a perfect text match with both bounds could not enter the results.
/// The rings start beyond a bias region's farthest point, since every place inside the
/// region earns the full bonus.
extension LoadedIndex {
  /// A range token or a typo candidate lies in the context.
  private static let contextHits: WordHits = [.range(.context), .typo(.context)]

  /// Whether a search with `context` whose driving words' postings hold `cost` places reads
  /// from both ends: it has a focus, looks places up by region, and some ring reaches past
  /// the bias region.
  func readsFromBothEnds(_ context: SearchContext, cost: Int) -> Bool {
    guard context.regionLookup, cost > Ranking.nearFirstMinimumCost, context.focus != nil else {
      return false
    }
    return !ringRadii(context).isEmpty
  }

  /// The radii of the rings around the focus: those beyond the bias region's farthest point.
  private func ringRadii(_ context: SearchContext) -> [Double] {
    guard let focus = context.focus else { return [] }
    let reach = context.filter.coordinateRegionBias.map { $0.reach(from: focus) } ?? 0
    return Ranking.ringRadii.filter { $0 > reach }
  }

  /// Scores the rest of the candidates from both ends into `best`, from `rank` (not yet
  /// read) on; the scan in rank order read every candidate before it, the last with weighted
  /// importance `importanceBound`. False (nothing done) when there is no focus or the
  /// candidates come from a restriction region.
  func collectNearFirst(
    after rank: Int, _ candidates: inout Candidates, importanceBound: Double,
    scorer: inout PlaceScorer, into best: inout TopPlaces
  ) throws(IndexFormatError) -> Bool {
    let context = scorer.context
    var radii = ringRadii(context)
    guard let focus = context.focus, !radii.isEmpty, candidates.readsBothEnds,
      candidates.mergesOneWord, let driver = scorer.toldWord
    else {
      return false
    }
    let exactNames = candidates.exactNames?.filter { $0 >= rank }
    // Once no place whose word lies only in its context can enter, those places (often a
    // town's, whose name is every place's context) are passed over.
    if best.excludes(
      Ranking.score(text: scorer.maxContextText, importance: importanceBound, geo: scorer.maxGeo))
    {
      candidates.dropContextLists()
    }
    let contexts = !candidates.droppedContextLists
    // Places below `first` were read in rank order; the others as they are seen here.
    let first = rank
    var seen = SeenPlaces()
    // The few places whose name carries the word typed whole come first: then every other
    // place can score it only as a prefix.
    var exactNamesSeen = false
    if let exactNames, exactNames.count <= Ranking.exactNamesFirst {
      for p in exactNames {
        seen.insert(p)
        let importance = try scorer.importance(of: p)
        try scorer.score(
          p, importance: importance, geoBound: scorer.maxGeo, ordered: false, into: &best)
      }
      exactNamesSeen = true
    }
    // Bounds for the places not seen yet.
    var importanceBound = importanceBound
    var geoBound = scorer.maxGeo
    // The next place from the postings, read one ahead, and what the postings tell of it.
    var next: (rank: Int, name: Bool, exactName: Bool, hits: WordHits)? = (
      rank, candidates.mayMatchName, candidates.mayMatchExactName, candidates.hits
    )
    // The ring being read; a ring of more places than this ends the rings (reading it would
    // cost more than the postings it could spare).
    let ringLimit = min(
      candidates.cost, max(Ranking.ringPlaces, candidates.cost / Ranking.ringShare))
    // With NEAR LISTS, a ring holds the word's places there alone; its places that no list
    // holds are read here, once.
    let nearPlaces = try nearPlaces(scorer.resolved[driver], otherPlaces: Ranking.nearOtherPlaces)
    // A ring of the word's places alone costs what it holds: it goes on far enough that the
    // places past it have a nearness below every place's a few hundred km away, so that the
    // far places that tie on everything else (the same address in every town) stop the scan.
    if nearPlaces != nil { radii += Ranking.nearRingRadii.filter { $0 > radii[radii.count - 1] } }
    for p in nearPlaces?.others ?? [] where p >= first && !seen.contains(p) {
      seen.insert(p)
      let importance = try scorer.importance(of: p)
      try scorer.score(
        p, importance: importance, geoBound: scorer.maxGeo, ordered: false, into: &best)
    }
    func ringPlaces(_ k: Int) throws(IndexFormatError) -> [Int]? {
      guard k < radii.count else { return nil }
      let circle = CoordinateRegion.circle(center: focus, radiusMeters: radii[k])
      if let nearPlaces { return try nearPlaces.places(in: circle, limit: ringLimit, geo: geo) }
      return try placesNear(circle, limit: ringLimit, sorted: false)
    }
    let tokens = scorer.wholeTokens
    // Once set, the places whose names carry enough typed words whole: the only ones of the
    // postings left that can enter.
    var exactOnly: WholeWordNames? = nil
    var ringIndex = 0
    var ring = try ringPlaces(0)
    if ring == nil { scorer.skipToEveryWord() }
    var ringPosition = 0
    // A ring's places come in GEO order, their ranks at random: rather than each one's
    // importance, the first rank kept out by importance alone (with the best text any place
    // earns) is found once for each bound the results and the rings set.
    var keptOutFrom = 0
    var keptOutKey = (full: false, worst: Double.nan, floor: Double.nan, geo: Double.nan)
    while true {
      // Every place not seen yet comes at or after the next one from the postings (the
      // postings are read in rank order, and a ring's place before it was read from them).
      let unseenText = try scorer.laterText(
        next?.rank ?? .max, driverLast: exactNamesSeen ? -1 : candidates.lastExactName)
      if best.excludes(
        Ranking.score(text: unseenText, importance: importanceBound, geo: geoBound),
        ranksFrom: next?.rank ?? .max)
      {
        return true
      }
      // Once no unseen place whose name lacks every typed word whole can enter, the postings
      // skip to the places whose names carry enough of them; as the bounds fall and even those
      // cannot enter, to the fewer names that carry one more.
      if let from = next?.rank, !tokens.isEmpty {
        let fewer =
          exactOnly.map { scorer.mostText(wholeWords: $0.need) } ?? scorer.maxTextOfPrefixes
        if let fewer,
          best.excludes(
            Ranking.score(text: fewer, importance: importanceBound, geo: geoBound),
            ranksFrom: from)
        {
          let need = scorer.wholeWordsNeeded(
            importance: importanceBound, geo: geoBound, best: best, ranksFrom: from)
          guard
            let names = try WholeWordNames(
              postings: postings, tokens: tokens, need: max(need, (exactOnly?.need ?? 0) + 1))
          else { return true }
          exactOnly = names
        }
        if exactOnly != nil {
          // (In place: the names' cursors move on.)
          guard let first = try exactOnly!.first(from: from) else { return true }
          if first > from {
            try candidates.skip(to: first)
            if let r = try scorer.nextCandidate(&candidates) {
              next = (r, candidates.mayMatchName, candidates.mayMatchExactName, candidates.hits)
            } else {
              next = nil
            }
            continue
          }
        }
      }
      // One place from the postings; when they end, every candidate was seen.
      guard let (rank, name, exactName, hits) = next else { return true }
      if !seen.contains(rank) {
        seen.insert(rank)
        let text = scorer.textBound(name: name, exactName: exactName)
        if !best.excludes(Ranking.score(text: text, importance: importanceBound, geo: geoBound)) {
          let importance = try scorer.importance(of: rank)
          importanceBound = importance
          try scorer.score(
            rank, driverHits: hits, importance: importance, geoBound: geoBound, into: &best)
        } else if !name {
          // No later place of the postings whose word lies only in its context can enter.
          candidates.dropContextLists()
        }
      }
      // The next one, read after this one was scored: the other words' filters, which skip
      // ahead with the candidates (``PlaceScorer/nextCandidate(_:)``), then still tell this
      // place's hits instead of its tokens. (Not through `Optional.map`: its closure would capture a copy of the candidates.)
      if let r = try scorer.nextCandidate(&candidates) {
        next = (r, candidates.mayMatchName, candidates.mayMatchExactName, candidates.hits)
      } else {
        next = nil
      }
      // One place from the ring.
      guard let places = ring else { continue }
      var scored = false
      while !scored && ringPosition < places.count {
        let rank = places[ringPosition]
        ringPosition += 1
        guard rank >= first && !seen.contains(rank) else { continue }
        // A place whose own importance keeps it out with the best text any place earns is
        // passed over before its tokens are read, for good (the floor only rises, its
        // nearness only falls with the rings): the far rings hold the other towns' places.
        let key = (full: best.isFull, worst: best.worst, floor: best.floor, geo: geoBound)
        if key != keptOutKey {
          keptOutFrom = try scorer.firstRankKeptOut(text: scorer.maxText, geo: geoBound, by: best)
          keptOutKey = key
        }
        if rank >= keptOutFrom {
          seen.insert(rank)
          continue
        }
        let importance = try scorer.importance(of: rank)
        // Where the driving word lies in the place, from its tokens (TERMS).
        let hits = try scorer.hits(of: driver, at: rank)
        // A place without the word is in no ring's answer and no postings list: it is passed
        // over once, not in every ring that holds it.
        guard hits != [] else {
          seen.insert(rank)
          continue
        }
        let name = !hits.isDisjoint(with: .inName)
        guard name || (contexts && !hits.isDisjoint(with: Self.contextHits)) else { continue }
        seen.insert(rank)
        let text = scorer.textBound(name: name, exactName: !hits.isDisjoint(with: .exactInName))
        if best.excludes(Ranking.score(text: text, importance: importance, geo: geoBound)) {
          continue
        }
        try scorer.score(
          rank, driverHits: hits, importance: importance, geoBound: geoBound, ordered: false,
          into: &best)
        scored = true
      }
      if ringPosition == places.count {
        // The ring is read: every place not seen lies outside its circle.
        geoBound = Ranking.nearness(distance: radii[ringIndex])
        ringIndex += 1
        ringPosition = 0
        ring = try ringPlaces(ringIndex)
        if ring == nil { scorer.skipToEveryWord() }
      }
    }
  }
}

/// The places a search read from both ends has seen: a bitmap in pages of 4,096 places,
/// each allocated when a place in it is first seen and found through a small open-addressing
/// table of the pages in use, so that its cost follows the places seen (a few rings and a
/// stretch of postings), not the index's size.
struct SeenPlaces {
  static let pageBits = 12
  /// Per slot, the page number + 1 (0: free); a power of two, at most half full.
  private var keys = [Int32](repeating: 0, count: 16)
  /// Per slot, the page's position in ``bits`` (in words).
  private var positions = [Int32](repeating: 0, count: 16)
  private var used = 0
  private var bits: [UInt64] = []

  init() {}

  /// The slot of `page`, or of the free slot where it would go.
  @inline(__always)
  private func slot(_ page: Int) -> Int {
    let mask = keys.count - 1
    var i = (page &* 0x9E37_79B1) >> 7 & mask
    while keys[i] != 0 && Int(keys[i]) != page + 1 { i = (i + 1) & mask }
    return i
  }

  @inline(__always)
  func contains(_ rank: Int) -> Bool {
    let i = slot(rank >> Self.pageBits)
    guard keys[i] != 0 else { return false }
    let bit = rank & (1 << Self.pageBits - 1)
    return bits[Int(positions[i]) + bit >> 6] & (1 << UInt64(bit & 63)) != 0
  }

  @inline(__always)
  mutating func insert(_ rank: Int) {
    let page = rank >> Self.pageBits
    var i = slot(page)
    if keys[i] == 0 {
      if 2 * (used + 1) > keys.count {
        grow()
        i = slot(page)
      }
      keys[i] = Int32(page + 1)
      positions[i] = Int32(bits.count)
      used += 1
      bits.append(contentsOf: repeatElement(0, count: 1 << (Self.pageBits - 6)))
    }
    let bit = rank & (1 << Self.pageBits - 1)
    bits[Int(positions[i]) + bit >> 6] |= 1 << UInt64(bit & 63)
  }

  /// Doubles the table, placing every page again.
  private mutating func grow() {
    let (oldKeys, oldPositions) = (keys, positions)
    keys = Array(repeating: 0, count: 2 * oldKeys.count)
    positions = Array(repeating: 0, count: 2 * oldKeys.count)
    for (k, p) in zip(oldKeys, oldPositions) where k != 0 {
      let i = slot(Int(k) - 1)
      keys[i] = k
      positions[i] = p
    }
  }
}
