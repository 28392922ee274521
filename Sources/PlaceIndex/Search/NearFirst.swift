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
    let radii = ringRadii(context)
    guard let focus = context.focus, !radii.isEmpty, let driverMap = candidates.driverMap else {
      return false
    }
    let exactNames = (candidates.exactNames ?? []).filter { $0 >= rank }
    // Once no place whose word lies only in its context can enter, those places (often a
    // town's, whose name is every place's context) are passed over.
    if best.isFull && scorer.maxContextText + scorer.maxGeo + importanceBound < best.worst {
      candidates.dropContextLists()
    }
    let contexts = !candidates.droppedContextLists
    // Places below `first` were read in rank order; the others as they are seen here.
    let first = rank
    var seen = SeenPlaces(placeCount: places.count)
    // The few places whose name carries the word typed whole come first: then every other
    // place can score it only as a prefix.
    var exactNamesSeen = false
    if exactNames.count <= Ranking.exactNamesFirst {
      for p in exactNames {
        seen.insert(p)
        let importance = try scorer.decode(p)
        try scorer.score(p, importance: importance, geoBound: scorer.maxGeo, into: &best)
      }
      exactNamesSeen = true
    }
    let nearness = Ranking.nearness
    let scale = Ranking.nearnessScale
    // Bounds for the places not seen yet.
    var importanceBound = importanceBound
    var geoBound = scorer.maxGeo
    // The next place from the postings, read one ahead, and what the postings tell of it.
    var next: (rank: Int, name: Bool, exactName: Bool)? = (
      rank, candidates.mayMatchName, candidates.mayMatchExactName
    )
    // The ring being read; a ring of more places than this ends the rings (reading it would
    // cost more than the postings it could spare).
    let ringLimit = min(candidates.cost, Ranking.ringPlaces)
    var ringIndex = 0
    var ring: [Int]? = try placesNear(
      .circle(center: focus, radiusMeters: radii[0]), limit: ringLimit, sorted: false)
    var ringPosition = 0
    while true {
      let unseenText =
        exactNamesSeen || (next?.rank ?? .max) > candidates.lastExactName
        ? scorer.maxPrefixText : scorer.maxText
      if best.isFull && unseenText + importanceBound + geoBound < best.worst { return true }
      // One place from the postings; when they end, every candidate was seen.
      guard let (rank, name, exactName) = next else { return true }
      next = try candidates.next().map {
        ($0, candidates.mayMatchName, candidates.mayMatchExactName)
      }
      if !seen.contains(rank) {
        seen.insert(rank)
        let text = scorer.textBound(name: name, exactName: exactName)
        if !best.isFull || text + importanceBound + geoBound >= best.worst {
          let importance = try scorer.decode(rank)
          importanceBound = importance
          try scorer.score(rank, importance: importance, geoBound: geoBound, into: &best)
        } else if !name {
          // No later place of the postings whose word lies only in its context can enter.
          candidates.dropContextLists()
        }
      }
      // One place from the ring.
      guard let places = ring else { continue }
      var scored = false
      while !scored && ringPosition < places.count {
        let rank = places[ringPosition]
        ringPosition += 1
        guard rank >= first && !seen.contains(rank) else { continue }
        let name = driverMap.inName(rank)
        guard name || (contexts && driverMap.inContext(rank)) else { continue }
        seen.insert(rank)
        let text = scorer.textBound(
          name: name, exactName: !driverMap[rank].isDisjoint(with: .exactInName))
        if best.isFull && text + importanceBound + geoBound < best.worst { continue }
        let importance = try scorer.decode(rank)
        try scorer.score(rank, importance: importance, geoBound: geoBound, into: &best)
        scored = true
      }
      if ringPosition == places.count {
        // The ring is read: every place not seen lies outside its circle.
        geoBound = nearness * exp(-radii[ringIndex] / scale)
        ringIndex += 1
        ringPosition = 0
        ring =
          ringIndex < radii.count
          ? try placesNear(
            .circle(center: focus, radiusMeters: radii[ringIndex]), limit: ringLimit,
            sorted: false)
          : nil
      }
    }
  }
}

/// The places a search read from both ends has seen: a bitmap of every place for an index of
/// up to ``bitmapUpTo`` places, else a set, whose cost follows the places seen rather than the
/// index's size.
struct SeenPlaces {
  static let bitmapUpTo = 1 << 18
  private var bits: [UInt64]
  private var set = Set<Int>()

  init(placeCount: Int) {
    bits = placeCount <= Self.bitmapUpTo ? Array(repeating: 0, count: (placeCount + 63) / 64) : []
  }

  @inline(__always)
  func contains(_ rank: Int) -> Bool {
    bits.isEmpty ? set.contains(rank) : bits[rank >> 6] & (1 << UInt64(rank & 63)) != 0
  }

  @inline(__always)
  mutating func insert(_ rank: Int) {
    if bits.isEmpty { set.insert(rank) } else { bits[rank >> 6] |= 1 << UInt64(rank & 63) }
  }
}
