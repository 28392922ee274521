import PlaceCore

/// The admin-hierarchy stage: assigns each place its country, region, county, locality and
/// sublocality by point-in-polygon over the extract's boundaries, falling back to the place's
/// `addr:*` tags, then to the nearest `place=city|town|village|hamlet` node.
struct AdminResolver {
  /// A settlement node used as the locality fallback.
  struct Settlement {
    var name: String
    var latitudeE7: Int32
    var longitudeE7: Int32
    /// How far the settlement reaches, in meters.
    var radius: Double
    var countryCode: String?
  }

  let areas: [AdminArea]
  let settlements: [Settlement]
  /// The areas near each point (``AreaGrid``) and, for areas of many edges, their edges by
  /// band (``EdgeBands``): point-in-polygon costs the areas and edges near the point.
  let areaGrid: AreaGrid
  let edgeBands: [EdgeBands?]
  let settlementGrid: SettlementGrid
  let countries: CountryTable
  /// Country codes tagged (`addr:country`) in each 0.1-degree cell: the last fallback.
  let countryCells: [Int64: String]
  /// Cities tagged (`addr:city`) in each 0.01-degree cell: the locality fallback for places
  /// without boundaries or settlement nodes nearby (cut extracts such as Manhattan's).
  let cityCells: [Int64: String]
  /// States tagged (`addr:state`) in each 0.1-degree cell: the region fallback where the
  /// state's boundary does not close in the extract.
  let stateCells: [Int64: String]

  /// Rings that were assembled into usable areas.
  var areaCount: Int { areas.count }

  init(areas: [AreaElement], elements: [ExtractedElement], countries: CountryTable) {
    // Smallest areas first within a level, so nested duplicates resolve to the most specific.
    self.areas = areas.compactMap(AdminArea.init).sorted {
      ($0.level, $0.area) < ($1.level, $1.area)
    }
    self.countries = countries
    areaGrid = AreaGrid(self.areas)
    edgeBands = self.areas.map { EdgeBands($0) }
    var settlements: [Settlement] = []
    for e in elements where e.kind == .node {
      guard let place = e.tags["place"], let name = e.tags["name"] else { continue }
      let radius: Double
      switch place {
      case "city": radius = AdminResolver.largestRadius
      case "town": radius = 8_000
      case "village": radius = 4_000
      case "hamlet", "isolated_dwelling": radius = 1_500
      default: continue
      }
      settlements.append(
        Settlement(
          name: name, latitudeE7: e.latitudeE7, longitudeE7: e.longitudeE7, radius: radius,
          countryCode: e.tags["addr:country"]?.uppercased()))
    }
    self.settlements = settlements
    settlementGrid = SettlementGrid(
      settlements.map { ($0.latitudeE7, $0.longitudeE7) }, reach: AdminResolver.largestRadius)
    countryCells = AdminResolver.majorityCells(elements, size: 1_000_000) {
      $0["addr:country"].flatMap { $0.count == 2 ? $0.uppercased() : nil }
    }
    cityCells = AdminResolver.majorityCells(elements, size: 100_000) {
      AdminResolver.city($0["addr:city"])
    }
    stateCells = AdminResolver.majorityCells(elements, size: 1_000_000) {
      $0["addr:state"].flatMap { $0.isEmpty ? nil : $0 }
    }
  }

  /// The city an element's address names, unless it has no letter: "7" is the house number
  /// typed twice, a tagging mistake (OSM node 4858188407 in Helsinki), not a town.
  static func city(_ value: String?) -> String? {
    guard let city = value, city.contains(where: \.isLetter) else { return nil }
    return city
  }

  /// For each grid cell of `size` (1e-7 degrees), the value `value` gives most often among
  /// the elements in it.
  static func majorityCells(
    _ elements: [ExtractedElement], size: Int32, _ value: (PackedTags) -> String?
  ) -> [Int64: String] {
    var votes: [Int64: [String: Int]] = [:]
    for e in elements {
      guard let v = value(e.tags) else { continue }
      votes[cell(e.latitudeE7, e.longitudeE7, size: size), default: [:]][v, default: 0] += 1
    }
    return votes.mapValues { v in v.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key }
  }

  /// The cell of a point on a grid of `size` (1e-7 degrees).
  static func cell(_ lat: Int32, _ lon: Int32, size: Int32) -> Int64 {
    Int64(lat / size) * 100_000 + Int64(lon / size)
  }

  /// The value of the nearest cell of `cells` within `radius` cells of the point, if any.
  static func nearest(
    _ cells: [Int64: String], _ lat: Int32, _ lon: Int32, size: Int32, radius: Int
  ) -> String? {
    let cy = Int64(lat / size)
    let cx = Int64(lon / size)
    for r in 0...radius {
      for dy in -r...r {
        for dx in -r...r where max(abs(dy), abs(dx)) == r {
          if let v = cells[(cy + Int64(dy)) * 100_000 + cx + Int64(dx)] { return v }
        }
      }
    }
    return nil
  }

  /// The largest reach of a settlement (a city's), in meters.
  static let largestRadius = 20_000.0

  /// Whether area `i` holds the point: ``AdminArea/contains(_:_:)``, through its edge bands
  /// when it has them.
  func area(_ i: Int, contains lat: Int32, _ lon: Int32) -> Bool {
    let a = areas[i]
    guard lat >= a.minLat, lat <= a.maxLat, lon >= a.minLon, lon <= a.maxLon else { return false }
    if let bands = edgeBands[i] { return bands.contains(lat, lon) }
    return a.contains(lat, lon)
  }

  /// The indices of the areas holding the point that ``resolve(latitudeE7:longitudeE7:tags:)``
  /// takes: the first of each level, in the order of `areas`.
  func containingAreas(_ lat: Int32, _ lon: Int32) -> [Int] {
    var found: [Int] = []
    var levels = 0
    areaGrid.forEachCandidate(lat, lon) { i in
      let bit = 1 << areas[i].level.rawValue
      if levels & bit == 0, area(i, contains: lat, lon) {
        levels |= bit
        found.append(i)
      }
      return true
    }
    return found
  }

  /// ``containingAreas(_:_:)`` by a loop over every area, for tests.
  func containingAreasByScan(_ lat: Int32, _ lon: Int32) -> [Int] {
    var found: [Int] = []
    var levels = Set<AdminArea.Level>()
    for (i, a) in areas.enumerated() where !levels.contains(a.level) && a.contains(lat, lon) {
      levels.insert(a.level)
      found.append(i)
    }
    return found
  }

  /// The context of a point with the given tags.
  func resolve(latitudeE7: Int32, longitudeE7: Int32, tags: [String: String]) -> AdminContext {
    var c = AdminContext()
    for i in containingAreas(latitudeE7, longitudeE7) {
      let a = areas[i]
      switch a.level {
      case .country:
        c.countryCode = a.countryCode
        if c.countryCode == nil { c.countryName = a.tags["name:en"] ?? a.name }
      case .region:
        c.region = a.name
        c.regionShort = a.shortName
      case .adminArea2: c.adminArea2 = a.name
      case .locality:
        c.locality = a.name
        c.localityFromPolygon = true
      case .sublocality: c.sublocality = a.name
      case .postalCode: c.postcode = a.name
      }
    }
    if c.countryCode == nil, let cc = tags["addr:country"], cc.count == 2 {
      c.countryCode = cc.uppercased()
    }
    if c.locality == nil, let city = AdminResolver.city(tags["addr:city"]) { c.locality = city }
    if let pc = tags["addr:postcode"], !pc.isEmpty { c.postcode = pc }
    if c.locality == nil || c.countryCode == nil,
      let s = nearestSettlement(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
    {
      if c.locality == nil { c.locality = s.name }
      if c.countryCode == nil { c.countryCode = s.countryCode }
    }
    if c.locality == nil {
      c.locality = AdminResolver.nearest(
        cityCells, latitudeE7, longitudeE7, size: 100_000, radius: 2)
    }
    let taggedState =
      tags["addr:state"] ?? tags["addr:province"]
      ?? AdminResolver.nearest(stateCells, latitudeE7, longitudeE7, size: 1_000_000, radius: 3)
    if c.region == nil, let state = taggedState, !state.isEmpty {
      c.region = state
      if state.count <= 3 { c.regionShort = state }
    }
    if c.countryCode == nil && c.countryName == nil {
      c.countryCode = AdminResolver.nearest(
        countryCells, latitudeE7, longitudeE7, size: 1_000_000, radius: 3)
    }
    if let code = c.countryCode {
      let row = countries.country(code)
      c.countryName =
        countries.contains(code) && !row.name.isEmpty ? row.name : c.countryName ?? code
    }
    return c
  }

  /// The settlement whose reach holds the point, nearest relative to its reach (the first of
  /// equals in `settlements` order).
  func nearestSettlement(latitudeE7: Int32, longitudeE7: Int32) -> Settlement? {
    nearestSettlement(
      latitudeE7: latitudeE7, longitudeE7: longitudeE7,
      among: settlementGrid.candidates(latitudeE7, longitudeE7).lazy.map { Int($0) })
  }

  /// ``nearestSettlement(latitudeE7:longitudeE7:)`` by a loop over every settlement, for tests.
  func nearestSettlementByScan(latitudeE7: Int32, longitudeE7: Int32) -> Settlement? {
    nearestSettlement(
      latitudeE7: latitudeE7, longitudeE7: longitudeE7, among: settlements.indices)
  }

  private func nearestSettlement<S: Sequence<Int>>(
    latitudeE7: Int32, longitudeE7: Int32, among candidates: S
  ) -> Settlement? {
    let here = Coordinate(latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7)
    var best: (Settlement, Double)? = nil
    for i in candidates {
      let s = settlements[i]
      // Cheap reject before the haversine: 0.3 degrees is over 20 km of latitude.
      if abs(Int64(s.latitudeE7) - Int64(latitudeE7)) > 3_000_000 { continue }
      let d = here.distance(
        to: Coordinate(latitude: Double(s.latitudeE7) / 1e7, longitude: Double(s.longitudeE7) / 1e7)
      )
      if d <= s.radius, best == nil || d / s.radius < best!.1 { best = (s, d / s.radius) }
    }
    return best?.0
  }
}

extension AdminContext {
  func value(for level: AdminArea.Level) -> String? {
    switch level {
    case .country: countryCode ?? countryName
    case .region: region
    case .adminArea2: adminArea2
    case .locality: locality
    case .sublocality: sublocality
    case .postalCode: postcode
    }
  }
}
