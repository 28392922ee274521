import PlaceCore
import PlaceIndexFormat

/// Streets: the ways of one name in one locality become one route place, the first of them
/// in the store, with the smallest way id of its ways, the box around them and the member
/// point nearest their mean.
struct StreetMerger {
  /// One merged street: the route place at a store position and the ways that joined it.
  struct Route {
    /// The point of its first way.
    var first: (Int32, Int32)
    /// The points of the ways that joined it, in order (empty for most streets, which then
    /// cost no array of their own).
    var joined: [(Int32, Int32)] = []
    /// The smallest way id of its ways, so that the street's ID is stable and independent of
    /// order.
    var osmID: Int64
    /// The box around its ways.
    var box: GeoBoxE7?
  }

  /// Meters from a street's first way within which ways of the same name and locality join
  /// it as one street.
  static let reach = 10_000.0

  /// The store position of each (folded name, locality)'s street.
  private var positions: [String: Int] = [:]
  /// The streets by their store position.
  private var routes: [Int: Route] = [:]

  /// Joins way `e` to the street of `key` when that street's first way is near: two towns of
  /// one name (a "Hauptstraße" in each "Neustadt") keep a street each. False when `e` starts
  /// a street of its own (``start(_:key:at:)``).
  mutating func join(_ e: ExtractedElement, key: String) -> Bool {
    guard let i = positions[key], let first = routes[i]?.first,
      StreetMerger.distance(first, (e.latitudeE7, e.longitudeE7)) <= StreetMerger.reach
    else { return false }
    routes[i]!.joined.append((e.latitudeE7, e.longitudeE7))
    if let box = e.box {
      if routes[i]!.box == nil { routes[i]!.box = box } else { routes[i]!.box!.include(box) }
    }
    if e.id < routes[i]!.osmID && e.kind == .way { routes[i]!.osmID = e.id }
    return true
  }

  /// Starts the street of `key` with `place`, of element `e`, at store position `i`.
  mutating func start(_ e: ExtractedElement, key: String, place: PlaceRecord, at i: Int) {
    positions[key] = i
    routes[i] = Route(
      first: (e.latitudeE7, e.longitudeE7), osmID: place.osmID, box: place.viewport)
  }

  /// Writes the merged streets' ids, boxes and points into `store` (finished), in store
  /// order: the store's pages are then visited once each, not at random (a budget bounds the
  /// resident ones, ``PageBudget``).
  func patch(_ store: PlaceStore) {
    for i in routes.keys.sorted() {
      let route = routes[i]!
      if route.osmID != store.key(i).id { store.patch(i, osmID: route.osmID) }
      guard !route.joined.isEmpty else { continue }
      let points = [route.first] + route.joined
      if let box = route.box { store.patch(i, viewport: box) }
      // A merged street's point: the member point nearest the members' mean.
      let meanLat = points.reduce(0.0) { $0 + Double($1.0) } / Double(points.count)
      let meanLon = points.reduce(0.0) { $0 + Double($1.1) } / Double(points.count)
      let best = points.min {
        let da =
          (Double($0.0) - meanLat) * (Double($0.0) - meanLat) + (Double($0.1) - meanLon)
          * (Double($0.1) - meanLon)
        let db =
          (Double($1.0) - meanLat) * (Double($1.0) - meanLat) + (Double($1.1) - meanLon)
          * (Double($1.1) - meanLon)
        return da < db
      }!
      store.patch(i, latitudeE7: best.0, longitudeE7: best.1)
    }
  }

  /// Meters between two points in 1e-7 degrees.
  static func distance(_ a: (Int32, Int32), _ b: (Int32, Int32)) -> Double {
    Coordinate(latitude: Double(a.0) / 1e7, longitude: Double(a.1) / 1e7).distance(
      to: Coordinate(latitude: Double(b.0) / 1e7, longitude: Double(b.1) / 1e7))
  }
}
