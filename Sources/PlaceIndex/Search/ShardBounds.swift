import Foundation
import PlaceCore
import PlaceIndexFormat

/// What a search needs to know of a whole index to skip it: the box around its places and
/// its highest importance. A client with several indexes reads each one's on first use (every
/// record's position once: about 0.1 µs a place) and searches first the shards whose best
/// possible score is highest, skipping those that cannot reach the results kept so far.
struct ShardExtent: Sendable {
  /// The box of the places' positions, in degrees; nil when the index holds no place.
  var south = 0.0
  var north = 0.0
  var west = 0.0
  var east = 0.0
  var isEmpty = true
  /// The highest importance of a place (the first rank's).
  var maxImportance: UInt16 = 0
  /// The squares of the globe that hold its places (``HilbertCurve/box(ofSquare:)``, 1.4° by
  /// 0.7°), each as its box: a shard of two far regions (a country and its islands, two
  /// extracts merged) has a box between them that holds none of its places.
  var squares: [ShardExtent] = []

  /// The extent of an index with no place.
  init() {}

  /// The box `south...north`, `west...east` (degrees).
  init(south: Double, north: Double, west: Double, east: Double) {
    (self.south, self.north, self.west, self.east) = (south, north, west, east)
    isEmpty = false
  }

  /// Reads every place's position.
  init(_ places: PlaceTable, contexts: DecodedContexts.View) throws(IndexFormatError) {
    guard places.count > 0 else { return }
    var entry = PlaceMatch()
    var positions = Positions()
    for rank in 0..<places.count {
      try places.match(rank, into: &entry, contexts: contexts)
      positions.add(latitudeE7: entry.latitudeE7, longitudeE7: entry.longitudeE7)
    }
    self = positions.extent
    maxImportance = try places.importance.importance(of: 0)
  }

  /// The extent of places at `positions` (latitude and longitude in 1e-7 degrees).
  init(positionsE7 positions: [(Int32, Int32)]) {
    var all = Positions()
    for (latitude, longitude) in positions { all.add(latitudeE7: latitude, longitudeE7: longitude) }
    self = all.extent
  }

  /// Places' positions taken in one by one: their box and the squares that hold them.
  private struct Positions {
    var box = (south: Int32.max, north: Int32.min, west: Int32.max, east: Int32.min)
    var held = [Bool](repeating: false, count: 1 << 16)
    var count = 0

    mutating func add(latitudeE7: Int32, longitudeE7: Int32) {
      box.south = min(box.south, latitudeE7)
      box.north = max(box.north, latitudeE7)
      box.west = min(box.west, longitudeE7)
      box.east = max(box.east, longitudeE7)
      let key = HilbertCurve.key(latitudeE7: Int64(latitudeE7), longitudeE7: Int64(longitudeE7))
      held[Int(key >> 16)] = true
      count += 1
    }

    var extent: ShardExtent {
      guard count > 0 else { return ShardExtent() }
      var e = ShardExtent(
        south: Double(box.south) / 1e7, north: Double(box.north) / 1e7,
        west: Double(box.west) / 1e7, east: Double(box.east) / 1e7)
      e.squares = held.indices.filter { held[$0] }.map { square in
        let b = HilbertCurve.box(ofSquare: UInt16(square))
        return ShardExtent(south: b.south, north: b.north, west: b.west, east: b.east)
      }
      return e
    }
  }

  /// A lower bound of the great-circle distance from `point` to any place of the box, in
  /// meters: hav(d) = hav(Δφ) + cos φ1 cos φ2 hav(Δλ), with Δφ and Δλ at least the point's
  /// angular distance from the box's latitudes and longitudes, and cos φ1 cos φ2 at least the
  /// square of the cosine of the largest latitude either can have.
  func leastDistance(from point: Coordinate) -> Double {
    guard !isEmpty else { return .infinity }
    let radians = Double.pi / 180
    let dPhi = max(0, south - point.latitude, point.latitude - north) * radians
    var dLambda = 0.0
    if point.longitude < west || point.longitude > east {
      let a = abs(point.longitude - west).truncatingRemainder(dividingBy: 360)
      let b = abs(point.longitude - east).truncatingRemainder(dividingBy: 360)
      dLambda = min(a, 360 - a, b, 360 - b) * radians
    }
    let widest = max(abs(point.latitude), abs(south), abs(north)) * radians
    let sinPhi = sin(dPhi / 2)
    let sinLambda = sin(dLambda / 2)
    let h = sinPhi * sinPhi + cos(widest) * cos(widest) * sinLambda * sinLambda
    // A hair below, so that rounding never makes the bound pass a true distance.
    return max(0, 2 * Coordinate.earthRadiusMeters * asin(min(1, h.squareRoot())) * 0.999_999 - 1)
  }

  /// Whether a place of the box (of one of its squares, when they are known) may lie in
  /// `region`'s bounding box.
  func mayMeet(_ region: CoordinateRegion) -> Bool {
    boxMayMeet(region) && (squares.isEmpty || squares.contains { $0.boxMayMeet(region) })
  }

  /// Whether a point of the box may lie in `region`'s bounding box.
  private func boxMayMeet(_ region: CoordinateRegion) -> Bool {
    guard !isEmpty else { return false }
    let box = region.boundingBoxE7
    let (s, n) = (Double(box.south) / 1e7, Double(box.north) / 1e7)
    guard n >= south && s <= north else { return false }
    let (w, e) = (Double(box.west) / 1e7, Double(box.east) / 1e7)
    // A box that crosses the antimeridian is taken to meet every shard.
    guard w <= e else { return true }
    return e >= west && w <= east
  }

  /// The best score a place of this index can earn for `words` (resolved in this index), with
  /// at most `geo` for its nearness (``bestGeo(_:)``): each word in the name, whole when it is a token here, a typo's share
  /// of a prefix when no token here starts with it (as ``PlaceScorer`` bounds it).
  func bestScore(_ words: [ResolvedToken], geo: Double) -> Double {
    let text = Ranking.text(
      words: words.reduce(0) { $0 + $1.mostNamePoints }, coverage: words.mostCoverage,
      wholeName: Ranking.wholeName * words.leastShare)
    let importance = Ranking.importance(stored: maxImportance)
    return Ranking.score(text: text, importance: importance, geo: geo)
  }

  /// The most geo score a place of the box can earn with `context`'s focus: the bias bonus
  /// when the box may meet the bias region, else the nearness of its least distance, and no
  /// more than the most of its squares' when they are known.
  func bestGeo(_ context: SearchContext) -> Double {
    guard let focus = context.focus, !isEmpty else { return 0 }
    if let bias = context.filter.coordinateRegionBias, mayMeet(bias) { return Ranking.biasNearness }
    let geo = Ranking.nearness(distance: leastDistance(from: focus))
    // Squares matter only within the nearness's reach of the box.
    guard geo > 0, !squares.isEmpty else { return geo }
    // Both bound it: a square reaches past the box where it holds the box's edge.
    let inSquares = squares.reduce(0) {
      max($0, Ranking.nearness(distance: $1.leastDistance(from: focus)))
    }
    return min(geo, inSquares)
  }
}
