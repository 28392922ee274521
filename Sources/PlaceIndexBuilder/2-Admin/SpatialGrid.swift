import Foundation
import PlaceCore

/// The areas whose bounding box reaches each cell of a 0.1-degree grid, so that finding the
/// areas that may hold a point costs the areas near it, not all of them.
///
/// Candidates come in increasing area index, as a loop over every area would meet them, so
/// answers and their tie-breaking are those of that loop. Areas whose box spans more than
/// ``bigCells`` cells (continents, large countries) are kept in one list checked for every
/// point instead of in each of their cells.
struct AreaGrid {
  static let cellSize: Int64 = 1_000_000
  static let bigCells: Int64 = 4_096
  private var cells: [Int64: [Int32]] = [:]
  private var big: [Int32] = []

  init(_ areas: [AdminArea]) {
    for (i, a) in areas.enumerated() {
      let (y0, x0) = AreaGrid.cell(a.minLat, a.minLon)
      let (y1, x1) = AreaGrid.cell(a.maxLat, a.maxLon)
      if (y1 - y0 + 1) * (x1 - x0 + 1) > AreaGrid.bigCells {
        big.append(Int32(i))
        continue
      }
      for y in y0...y1 {
        for x in x0...x1 { cells[y << 32 | x, default: []].append(Int32(i)) }
      }
    }
  }

  static func cell(_ lat: Int32, _ lon: Int32) -> (Int64, Int64) {
    ((Int64(lat) + 900_000_000) / cellSize, (Int64(lon) + 1_800_000_000) / cellSize)
  }

  /// Calls `body` with the index of every area whose box may hold the point, in increasing
  /// order; `body` returns false to stop.
  func forEachCandidate(_ lat: Int32, _ lon: Int32, _ body: (Int) -> Bool) {
    let (y, x) = AreaGrid.cell(lat, lon)
    let local = cells[y << 32 | x] ?? []
    var i = 0
    var j = 0
    while i < local.count || j < big.count {
      let next: Int32
      if j == big.count || (i < local.count && local[i] < big[j]) {
        next = local[i]
        i += 1
      } else {
        next = big[j]
        j += 1
      }
      if !body(Int(next)) { return }
    }
  }
}

/// The edges of an area's rings in horizontal bands, so that the even-odd test of a point
/// visits the edges of its band only. Each edge is tested as ``AdminArea/contains(_:_:)``
/// tests it, and the crossings are counted with the same parity, so the answer is the same.
struct EdgeBands: Sendable {
  private let minLat: Int64
  private let height: Int64
  private let starts: [Int32]
  /// yi, xi, yj, xj of each edge, band after band.
  private let edges: [Int32]

  /// Bands for the rings of `area`, or nil when they are too small to need them.
  init?(_ area: AdminArea, minimumEdges: Int = 64) {
    let total = area.rings.reduce(0) { $0 + $1.count }
    guard total >= minimumEdges else { return nil }
    let span = Int64(area.maxLat) - Int64(area.minLat) + 1
    minLat = Int64(area.minLat)
    // About 4 edges per band, fewer bands where long edges would be listed in too many of
    // them (straight borders, rings repeated): at most 4 entries per edge in all.
    var bandCount = Int64(max(1, min(65_536, total / 4)))
    var height = max(1, (span + bandCount - 1) / bandCount)
    while bandCount > 1 {
      var entries = 0
      for ring in area.rings {
        var j = ring.count - 1
        for i in 0..<ring.count {
          let lo = (Int64(min(ring[i].0, ring[j].0)) - minLat) / height
          let hi = (Int64(max(ring[i].0, ring[j].0)) - minLat) / height
          entries += Int(hi - lo + 1)
          j = i
        }
      }
      if entries <= 4 * total { break }
      bandCount /= 2
      height = max(1, (span + bandCount - 1) / bandCount)
    }
    self.height = height
    let bands = Int((span + height - 1) / height)
    var lists = [[Int32]](repeating: [], count: bands)
    for ring in area.rings {
      var j = ring.count - 1
      for i in 0..<ring.count {
        let a = ring[i]
        let b = ring[j]
        let lo = (Int64(min(a.0, b.0)) - minLat) / height
        let hi = (Int64(max(a.0, b.0)) - minLat) / height
        for band in Int(lo)...Int(hi) {
          lists[band].append(contentsOf: [a.0, a.1, b.0, b.1])
        }
        j = i
      }
    }
    var starts: [Int32] = [0]
    var edges: [Int32] = []
    for l in lists {
      edges.append(contentsOf: l)
      starts.append(Int32(edges.count / 4))
    }
    self.starts = starts
    self.edges = edges
  }

  /// Whether the point lies inside the rings (even-odd), for a point inside the bounding box.
  func contains(_ lat: Int32, _ lon: Int32) -> Bool {
    let band = Int((Int64(lat) - minLat) / height)
    guard band >= 0, band + 1 < starts.count else { return false }
    let y = Double(lat)
    let x = Double(lon)
    var inside = false
    for e in Int(starts[band])..<Int(starts[band + 1]) {
      let yi = Double(edges[4 * e])
      let xi = Double(edges[4 * e + 1])
      let yj = Double(edges[4 * e + 2])
      let xj = Double(edges[4 * e + 3])
      if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
    }
    return inside
  }
}

/// Settlements in a 0.2-degree grid, for the nearest-settlement fallback: a point visits the
/// cells within the largest settlement radius of it (wider in longitude away from the
/// equator, all of them near the poles), and the candidates in increasing index, so the
/// answer and its ties are those of a loop over every settlement.
struct SettlementGrid {
  static let cellSize = 0.2
  static let lonCells = 1_800
  static let latCells = 900
  private var cells: [Int: [Int32]] = [:]
  private let reach: Double

  /// `points` are (latitude, longitude) in 1e-7 degrees; `reach` is the largest radius in
  /// meters.
  init(_ points: [(Int32, Int32)], reach: Double) {
    self.reach = reach
    for (i, p) in points.enumerated() {
      let (y, x) = SettlementGrid.cell(p.0, p.1)
      cells[y * SettlementGrid.lonCells + x, default: []].append(Int32(i))
    }
  }

  static func cell(_ lat: Int32, _ lon: Int32) -> (Int, Int) {
    let y = Int(((Double(lat) / 1e7 + 90) / cellSize).rounded(.down))
    let x = Int(((Double(lon) / 1e7 + 180) / cellSize).rounded(.down))
    return (min(max(y, 0), latCells - 1), min(max(x, 0), lonCells - 1))
  }

  /// The indices of the settlements that may lie within `reach` of the point, ascending.
  func candidates(_ lat: Int32, _ lon: Int32) -> [Int32] {
    guard !cells.isEmpty else { return [] }
    let (cy, cx) = SettlementGrid.cell(lat, lon)
    let latDegrees = Double(lat) / 1e7
    // Latitude: the reach in degrees plus a margin, rounded up to cells.
    let dLat = reach / 111_000 * 1.05
    let rows = Int((dLat / SettlementGrid.cellSize).rounded(.up)) + 1
    // Longitude: haversine's a >= cos φ1 cos φ2 sin²(Δλ/2), with φ2 at most dLat farther from
    // the equator, bounds Δλ for a distance within reach.
    let toRadians = Double.pi / 180
    let c1 = cos(min(90, abs(latDegrees)) * toRadians)
    let c2 = cos(min(90, abs(latDegrees) + dLat) * toRadians)
    let s = sin(reach / (2 * Coordinate.earthRadiusMeters)) * 1.05
    let product = max(0, c1 * c2)
    var columns = SettlementGrid.lonCells
    if product > 0, s / product.squareRoot() < 1 {
      let dLon = 2 * asin(s / product.squareRoot()) / toRadians
      columns = min(SettlementGrid.lonCells, Int((dLon / SettlementGrid.cellSize).rounded(.up)) + 1)
    }
    var out: [Int32] = []
    let xs: [Int] =
      2 * columns + 1 >= SettlementGrid.lonCells
      ? Array(0..<SettlementGrid.lonCells)
      : (-columns...columns).map {
        (cx + $0 + SettlementGrid.lonCells) % SettlementGrid.lonCells
      }
    for y in max(0, cy - rows)...min(SettlementGrid.latCells - 1, cy + rows) {
      for x in xs {
        if let l = cells[y * SettlementGrid.lonCells + x] { out.append(contentsOf: l) }
      }
    }
    out.sort()
    return out
  }
}
