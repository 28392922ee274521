import Foundation
import PlaceCore
import PlaceIndexFormat

/// The places a search considers, in rank order: the places in the restriction region when
/// the GEO section finds fewer of them than the drivers' postings hold, else those postings.
struct Candidates {
  private var merger: PostingsMerger?
  private var inRegion: [Int] = []
  private var position = 0

  /// How many postings the drivers hold (the candidates when no region narrows them).
  let cost: Int
  /// The places whose name carries the single driver's exact token, ascending (empty when
  /// it has none); nil when the candidates are a restriction region's places, or when they
  /// are more than ``Ranking/exactNamesRead`` (``LoadedIndex/exactNamePlaces(_:)``).
  private(set) var exactNames: [Int]? = nil
  /// Whether the search reads from both ends (``LoadedIndex/readsFromBothEnds(_:cost:)``):
  /// the single driving word's postings in rank order, and the places around the focus.
  private(set) var readsBothEnds = false
  private var droppedContexts = false
  /// The last place whose name carries the exact token, or -1: after it, no place can score
  /// the driving word as a whole name word (`Int.max` when the postings are not read).
  var lastExactName: Int { exactNames.map { $0.last ?? -1 } ?? .max }
  /// Whether the single driving word's hits come from the merged postings (``hits``).
  var mergesOneWord: Bool { merger?.tellsHits ?? false }

  init(_ index: LoadedIndex, resolved: [ResolvedToken], drivers: [Int], context: SearchContext)
    throws(IndexFormatError)
  {
    cost = drivers.reduce(0) { $0 + resolved[$1].cost }
    if context.regionLookup, let region = context.filter.coordinateRegionRestriction,
      let places = try index.placesNear(region, limit: cost / 2)
    {
      inRegion = places
      return
    }
    let words = drivers.map { resolved[$0] }
    // No exact token: none (an empty list); too many to read ahead: nil.
    let exact: [Int]?? = words.count == 1 ? try words[0].exact.map(index.exactNamePlaces) : nil
    exactNames = exact ?? []
    readsBothEnds = words.count == 1 && index.readsFromBothEnds(context, cost: cost)
    merger = try PostingsMerger(postings: index.postings, words: words)
  }

  /// The next place rank, each rank once, ascending.
  mutating func next() throws(IndexFormatError) -> Int? {
    if merger != nil { return try merger!.next() }
    guard position < inRegion.count else { return nil }
    defer { position += 1 }
    return inRegion[position]
  }

  /// Passes over the places before `rank` (not below the last one returned): ``next()`` then
  /// returns the first from it on.
  mutating func skip(to rank: Int) throws(IndexFormatError) {
    if merger != nil { return try merger!.seek(to: rank) }
    while position < inRegion.count && inRegion[position] < rank { position += 1 }
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
    // Through optional chaining: `merger.map` would copy the merger (its lists' cursors and
    // windows) for every place.
    guard let hits = merger?.hits else { return true }
    return !hits.isDisjoint(with: .inName)
  }

  /// Whether the driver's word may lie in a name of that place as a whole token; false only
  /// when the postings say it does not.
  var mayMatchExactName: Bool {
    guard let hits = merger?.hits else { return true }
    return !hits.isDisjoint(with: .exactInName)
  }
}

extension LoadedIndex {
  /// The places whose primary or alternative name carries `token` whole, ascending; nil when
  /// they are more than ``Ranking/exactNamesRead``: a whole word of many places' names ("1",
  /// "street") is not read ahead, its places would cost more than the bound they tighten.
  func exactNamePlaces(_ token: Int) throws(IndexFormatError) -> [Int]? {
    let lists = try postings.lists(token)
    guard lists.name.count + lists.alternative.count <= Ranking.exactNamesRead else {
      return nil
    }
    var names: [Int] = []
    for var c in [lists.name, lists.alternative] {
      while let p = try c.next() { names.append(p) }
    }
    return names.sorted()
  }
}
