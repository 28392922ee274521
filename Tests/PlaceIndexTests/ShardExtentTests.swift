import Foundation
import TestSupport
import Testing

@testable import PlaceIndex

/// The bounds a client uses to skip shards never exclude a place that could enter.
@Suite struct ShardExtentTests {
  /// A box and points inside it, drawn from `random`.
  func box(_ random: inout SplitMix64) -> (ShardExtent, [Coordinate]) {
    var e = ShardExtent()
    e.south = random.double(in: -80...70)
    e.north = e.south + random.double(in: 0...10)
    e.west = random.double(in: -180...170)
    e.east = e.west + random.double(in: 0...10)
    e.isEmpty = false
    let inside = (0..<40).map { _ in
      Coordinate(
        latitude: random.double(in: e.south...e.north),
        longitude: random.double(in: e.west...e.east))
    }
    return (e, inside)
  }

  /// A point up to `degrees` of latitude and longitude from `p`, drawn from `random`.
  static func point(_ p: Coordinate, within degrees: Double, _ random: inout SplitMix64)
    -> Coordinate
  {
    Coordinate(
      latitude: max(-89, min(89, p.latitude + random.double(in: -degrees...degrees))),
      longitude: max(-180, min(180, p.longitude + random.double(in: -degrees...degrees))))
  }

  @Test func theLeastDistanceIsAtMostTheDistanceToAnyPlaceInTheBox() {
    var random = SplitMix64(seed: 27)
    var checked = 0
    var positive = 0
    for _ in 0..<400 {
      let (extent, inside) = box(&random)
      let point = Coordinate(
        latitude: random.double(in: -89...89), longitude: random.double(in: -180...180))
      let bound = extent.leastDistance(from: point)
      if bound > 0 { positive += 1 }
      for p in inside {
        #expect(bound <= point.distance(to: p), "\(point) to \(p) in \(extent)")
        checked += 1
      }
      // A point inside the box has no positive bound.
      #expect(extent.leastDistance(from: inside[0]) == 0)
    }
    #expect(checked == 16_000)
    #expect(positive > 300)
  }

  /// The geo bound of a box (a shard's, or a place's square of the globe) is at least the geo
  /// score of every place in it, with an origin, a bias circle, or both.
  @Test func theBestGeoIsAtLeastTheGeoScoreOfAnyPlaceInTheBox() throws {
    let index = try LoadedIndex(path: sampleIndexPath)
    var random = SplitMix64(seed: 29)
    var checked = 0
    var below = 0
    for i in 0..<300 {
      let (extent, inside) = box(&random)
      let near = inside[random.below(inside.count)]
      let point = Self.point(near, within: 8, &random)
      let bias = CoordinateRegion.circle(
        center: point, radiusMeters: random.double(in: 0...50_000))
      let filter =
        i % 3 == 0
        ? AutocompleteFilter(origin: point)
        : i % 3 == 1
          ? AutocompleteFilter(coordinateRegionBias: bias)
          : AutocompleteFilter(origin: near, coordinateRegionBias: bias)
      let context = SearchContext(filter: filter, typeFilter: .any, limit: 5)
      let bound = extent.bestGeo(context)
      if bound < Ranking.maxNearness { below += 1 }
      for p in inside {
        let (geo, _) = index.geoScore(p, context: context)
        #expect(geo <= bound, "\(p) in \(extent) for \(filter)")
        checked += 1
      }
    }
    #expect(checked == 12_000)
    // Most boxes lie beyond their focus's reach: the bound says less than the full bonus.
    #expect(below > 50)
    #expect(
      ShardExtent().bestGeo(
        SearchContext(
          filter: .init(origin: .init(latitude: 0, longitude: 0)), typeFilter: .any, limit: 5)) == 0
    )
  }

  /// A shard of two far regions (two extracts merged, a country and its islands): its bounds
  /// come from the squares of the globe that hold its places, not from the box around both;
  /// they still hold every place's geo score and meet every region that holds a place.
  @Test func theSquaresOfAShardOfTwoRegionsBoundEveryPlaceAndSayLessBetweenThem() throws {
    let index = try LoadedIndex(path: sampleIndexPath)
    var random = SplitMix64(seed: 31)
    var checked = 0
    var tighter = 0
    var met = 0
    for i in 0..<200 {
      // Two clusters a few degrees wide, 10 to 60 degrees of longitude apart.
      let a = Coordinate(
        latitude: random.double(in: -60...60), longitude: random.double(in: -170...90))
      let b = Coordinate(
        latitude: max(-70, min(70, a.latitude + random.double(in: -10...10))),
        longitude: a.longitude + random.double(in: 10...60))
      let inside = (0..<60).map { k in Self.point(k % 2 == 0 ? a : b, within: 1.5, &random) }
      let extent = ShardExtent(
        positionsE7: inside.map {
          (Int32(($0.latitude * 1e7).rounded()), Int32(($0.longitude * 1e7).rounded()))
        })
      #expect(!extent.squares.isEmpty && extent.squares.count < 40)
      var box = extent
      box.squares = []
      // A focus near one cluster, or between them.
      let between = Coordinate(
        latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
      let focus = Self.point(
        i % 2 == 0 ? between : inside[random.below(inside.count)], within: 2, &random)
      let bias = CoordinateRegion.circle(center: focus, radiusMeters: random.double(in: 0...50_000))
      let filter =
        i % 3 == 0
        ? AutocompleteFilter(origin: focus)
        : i % 3 == 1
          ? AutocompleteFilter(coordinateRegionBias: bias)
          : AutocompleteFilter(origin: inside[0], coordinateRegionBias: bias)
      let context = SearchContext(filter: filter, typeFilter: .any, limit: 5)
      let bound = extent.bestGeo(context)
      #expect(bound <= box.bestGeo(context))
      if bound < box.bestGeo(context) { tighter += 1 }
      for p in inside {
        let rounded = Coordinate(
          latitude: (p.latitude * 1e7).rounded() / 1e7,
          longitude: (p.longitude * 1e7).rounded() / 1e7)
        let (geo, _) = index.geoScore(rounded, context: context)
        #expect(geo <= bound, "\(rounded) for \(filter)")
        checked += 1
      }
      let region = CoordinateRegion.circle(
        center: focus, radiusMeters: random.double(in: 1...300_000))
      if inside.contains(where: { region.contains($0) }) {
        #expect(extent.mayMeet(region))
        met += 1
      }
    }
    #expect(checked == 12_000)
    #expect(tighter > 40)
    #expect(met > 20)
  }

  /// A shard's rank order is one index's order of ties (importance, element kind, id), so
  /// the places that lose a tie with another shard's place are the ranks from
  /// ``LoadedIndex/firstRankAfter(_:)`` on: for every place of the sample, the next rank.
  @Test func theFirstRankAfterAPlacesTieKeyIsTheNextRank() throws {
    let index = try LoadedIndex(path: sampleIndexPath)
    let count = index.places.count
    #expect(count > 100)
    func key(_ rank: Int) throws -> TieKey {
      let e = try index.places.ids.element(rank)
      return TieKey(
        importance: try index.places.importance.importance(of: rank), kind: e.kind, id: e.id)
    }
    for rank in 0..<count {
      #expect(try index.firstRankAfter(try key(rank)) == rank + 1, "rank \(rank)")
      if rank > 0 { #expect(try key(rank - 1) < key(rank)) }
    }
    // Before every place, and after every place.
    #expect(try index.firstRankAfter(TieKey(importance: .max, kind: 0, id: .min)) == 0)
    #expect(try index.firstRankAfter(TieKey(importance: 0, kind: .max, id: .max)) == count)
  }

  @Test func aRegionMeetsTheBoxesOfThePlacesInIt() {
    var random = SplitMix64(seed: 28)
    var met = 0
    for _ in 0..<400 {
      let (extent, inside) = box(&random)
      let center = Self.point(inside[random.below(inside.count)], within: 3, &random)
      let region = CoordinateRegion.circle(
        center: center, radiusMeters: random.double(in: 1...500_000))
      if inside.contains(where: { region.contains($0) }) {
        #expect(extent.mayMeet(region), "\(region) holds a place of \(extent)")
        met += 1
      }
    }
    #expect(met > 50)
    #expect(
      !ShardExtent().mayMeet(
        .circle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 1)))
  }
}
