import Foundation
import PlaceCore
import PlaceIndexFormat

/// The settlements (localities and sublocalities) of a client's indexes, with their positions:
/// the references of compound plus codes and the names of plus-code suggestions. Found by one
/// pass over every index's places on first use (no text search, so a village that ranks low
/// is found as well as a capital) and kept for the client's lifetime.
final class Settlements: @unchecked Sendable {
  // @unchecked: `list` is written once and read only while holding `lock`.

  /// One settlement.
  struct Settlement: Sendable {
    /// The name, as its primary text.
    let name: String
    /// The country's name (its long text), if known.
    let country: String?
    /// The upper-cased ISO 3166-1 code of its country, if known.
    let countryCode: String?
    /// The position.
    let coordinate: Coordinate
    /// A locality (city, town, village); otherwise a sublocality (borough, suburb, quarter).
    let isLocality: Bool
    /// Its address components (admin areas, country), most specific first.
    let components: [AddressComponent]

    /// "Name, Country", as a compound code and a plus-code suggestion show it.
    var label: String { [name, country].compactMap { $0 }.joined(separator: ", ") }
  }

  private let lock = NSLock()
  private var list: [Settlement]?
  /// The positions of `list` in cells of ``cellSize`` degrees: (row, column) → positions, in
  /// increasing order.
  private var cells: [Cell: [Int]] = [:]

  struct Cell: Hashable {
    var row: Int
    var column: Int
  }

  /// Degrees of a grid cell's side.
  static let cellSize = 0.25

  static func row(_ latitude: Double) -> Int { Int((latitude / cellSize).rounded(.down)) }
  /// The column of `longitude`, wrapped to -180 ..< 180 degrees.
  static func column(_ longitude: Double) -> Int {
    wrap(Int((longitude / cellSize).rounded(.down)))
  }

  /// A column number past ±180 degrees, as the column it wraps to.
  static func wrap(_ column: Int) -> Int {
    let columns = Int((360 / cellSize).rounded())
    return ((column + columns / 2) % columns + columns) % columns - columns / 2
  }

  /// The settlements of `indexes` within `reach` degrees of latitude and `longitudeReach` of
  /// longitude (across the antimeridian) of `center`, in the order of ``all(in:)``: the grid
  /// cells the box touches, then an exact check.
  func near(
    _ center: Coordinate, reach: Double, longitudeReach: Double, in indexes: [LoadedIndex]
  ) -> [Settlement] {
    let all = self.all(in: indexes)
    lock.lock()
    let cells = self.cells
    lock.unlock()
    let rows = Settlements.row(center.latitude - reach)...Settlements.row(center.latitude + reach)
    var positions: [Int] = []
    if longitudeReach >= 180 {
      for (cell, list) in cells where rows.contains(cell.row) { positions += list }
    } else {
      let first = Int(((center.longitude - longitudeReach) / Settlements.cellSize).rounded(.down))
      let last = Int(((center.longitude + longitudeReach) / Settlements.cellSize).rounded(.down))
      var seen = Set<Int>()
      for c in first...last {
        // Columns past ±180° wrap to the other side.
        let column = Settlements.wrap(c)
        guard seen.insert(column).inserted else { continue }
        for row in rows { positions += cells[Cell(row: row, column: column)] ?? [] }
      }
    }
    positions.sort()
    return positions.map { all[$0] }.filter {
      abs($0.coordinate.latitude - center.latitude) <= reach
        && PlacesClient.longitudeGap($0.coordinate.longitude, center.longitude) <= longitudeReach
    }
  }

  /// Every settlement of `indexes` (a damaged place is skipped: `verify()` reports it).
  func all(in indexes: [LoadedIndex]) -> [Settlement] {
    lock.lock()
    defer { lock.unlock() }
    if let list { return list }
    var out: [Settlement] = []
    for index in indexes {
      var m = PlaceMatch()
      for rank in 0..<index.placeCount {
        guard (try? index.places.match(rank, into: &m)) != nil else { continue }
        let primary = index.primaryTypeOfList[m.typeList]
        guard primary == "locality" || primary == "sublocality",
          let e = try? index.places.entry(rank), let name = try? index.strings.string(e.primaryText)
        else { continue }
        let components = e.components.compactMap { c -> AddressComponent? in
          guard let long = try? index.strings.string(c.long) else { return nil }
          let short = c.short.flatMap { try? index.strings.string($0) } ?? long
          return AddressComponent(kind: c.kind, longText: long, shortText: short)
        }
        out.append(
          Settlement(
            name: name, country: components.first { $0.kind == .country }?.longText,
            countryCode: e.countryCode.flatMap { try? index.strings.string($0).uppercased() },
            coordinate: Coordinate(
              latitude: Double(e.latitudeE7) / 1e7, longitude: Double(e.longitudeE7) / 1e7),
            isLocality: primary == "locality", components: components))
      }
    }
    list = out
    for (i, s) in out.enumerated() {
      let c = s.coordinate
      cells[
        Cell(row: Settlements.row(c.latitude), column: Settlements.column(c.longitude)), default: []
      ]
      .append(i)
    }
    return out
  }
}

extension PlacesClient {
  /// Most degrees of latitude or longitude between a code's center and its reference, for
  /// dropping four digits (the Open Location Code specification, "Generating Short Codes": a
  /// locality within 0.4 degrees of a four-digit cell's 1 degree).
  static let compoundReferenceReach = 0.4

  /// The compound code of the full code `global` of a place at `point`: the code with its
  /// first four digits dropped and the settlement that recovers it ("5W9R+8V Helsinki,
  /// Finland"). The reference is chosen as the Open Location Code specification says
  /// ("Generating Short Codes"): a settlement within 0.4 degrees of the code's center, from
  /// which `recoverNearest` gives `global` back, a city, town or village before a borough or
  /// suburb. Among those, the place's own locality (`locality`, its address component) when it
  /// is one of them, else the nearest to `point`. Nil when no settlement qualifies.
  func compoundCode(of global: String, at point: Coordinate, locality: String? = nil) -> String? {
    reference(for: global, at: point, locality: locality).map {
      String(global.dropFirst(4)) + " " + $0.label
    }
  }

  /// The settlement a compound code of `global` names (see ``compoundCode(of:at:locality:)``).
  func reference(for global: String, at point: Coordinate, locality: String?)
    -> Settlements.Settlement?
  {
    guard OpenLocationCode.isFull(global), !global.contains("0"),
      let center = try? OpenLocationCode.decode(global).center
    else { return nil }
    let short = String(global.dropFirst(4))
    let reach = PlacesClient.compoundReferenceReach
    let near = settlements.near(center, reach: reach, longitudeReach: reach, in: indexes)
    let ordered = near.sorted {
      let own0 = $0.isLocality && $0.name == locality
      let own1 = $1.isLocality && $1.name == locality
      if own0 != own1 { return own0 }
      if $0.isLocality != $1.isLocality { return $0.isLocality }
      return $0.coordinate.distance(to: point) < $1.coordinate.distance(to: point)
    }
    return ordered.first {
      (try? OpenLocationCode.recoverNearest(short, reference: $0.coordinate)) == global
    }
  }

  /// The settlement nearest `point` within 20 km, a locality before a sublocality: the name a
  /// plus-code suggestion shows, and the country it is counted in.
  func nearestSettlement(to point: Coordinate) -> Settlements.Settlement? {
    var best: (settlement: Settlements.Settlement, distance: Double)?
    // 20 km is under 0.18 degrees of latitude, and of longitude under 0.18 / cos(latitude).
    let reach = 0.2
    let coldest = min(90, abs(point.latitude) + reach)
    let longitudeReach = coldest >= 89 ? 180 : reach / cos(coldest * Double.pi / 180)
    for s in settlements.near(
      point, reach: reach, longitudeReach: min(180, longitudeReach), in: indexes)
    {
      let d = s.coordinate.distance(to: point)
      guard d < 20_000 else { continue }
      if let b = best {
        let better =
          s.isLocality == b.settlement.isLocality ? d < b.distance : s.isLocality
        guard better else { continue }
      }
      best = (s, d)
    }
    return best?.settlement
  }

  /// The difference of two longitudes in degrees, across the antimeridian where shorter.
  static func longitudeGap(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
  }
}
