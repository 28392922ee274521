import PlaceCore

/// The admin-hierarchy stage: assigns each place its country, region, county, locality and
/// sublocality by point-in-polygon over the extract's boundaries, falling back to the place's
/// `addr:*` tags, then to the nearest `place=city|town|village|hamlet` node.
///
/// An area is a place's admin area only if the place lies inside it. The country comes from,
/// in order (``CountrySource``): a closed country boundary holding the place; the ISO 3166-2
/// code of its own boundary or of a closed admin boundary holding it; its own `addr:country`
/// or `is_in:country_code`; for a boundary cut by the extract's edge, the country whose
/// boundaries share most of its ways; most of the nearby places' `addr:country`; a postcode
/// that only one candidate country's format fits; the one country all places within about
/// 15 km name in `addr:country`. A country whose closed boundary does not
/// hold the place is never its country, whatever the other sources say.
struct AdminResolver {
  /// A settlement node used as the locality fallback.
  struct Settlement {
    var name: String
    var latitudeE7: Int32
    var longitudeE7: Int32
    /// How far the settlement reaches, in meters.
    var radius: Double
    /// The closed country boundary (index in `areas`) holding it, if any.
    var countryArea: Int?
  }

  let areas: [AdminArea]
  let settlements: [Settlement]
  /// The areas near each point (``AreaGrid``) and, for areas of many edges, their edges by
  /// band (``EdgeBands``): point-in-polygon costs the areas and edges near the point.
  let areaGrid: AreaGrid
  let edgeBands: [EdgeBands?]
  let settlementGrid: SettlementGrid
  let countries: CountryTable
  /// The closed country boundaries with a code: indices in `areas`.
  let countryAreas: [Int]
  /// The codes of `countryAreas`: the countries a place outside their boundaries is never
  /// in (found once, not per place: at country scale there are thousands of them).
  let countryAreaCodes: Set<String>
  /// Votes of `addr:country` in each 0.01-degree cell: code → places.
  let countryVotes: [Int64: [String: Int]]
  /// Votes of `addr:country` of the places in each closed area below the country level
  /// (index in `areas`): code → places.
  let areaCountryVotes: [Int: [String: Int]]
  /// Cities tagged (`addr:city`) in each 0.01-degree cell: the locality fallback for places
  /// without boundaries or settlement nodes nearby (cut extracts such as Manhattan's).
  let cityCells: [Int64: String]
  /// States tagged (`addr:state`) in each 0.1-degree cell: the region fallback where the
  /// state's boundary does not close in the extract.
  let stateCells: [Int64: String]
  /// Boundaries cut by the extract's edge, by relation id.
  let cutBoundaries: [Int64: BoundaryWays]
  /// For each way of a boundary with a country code, the codes of those boundaries (one per
  /// boundary).
  let wayCountries: [Int64: [String]]
  /// The cut boundaries' points that are vertices of the closed areas' rings, packed
  /// (lat << 32 | lon): such a point is on that border, neither inside nor outside. (Only
  /// the cut boundaries' points are kept, not every vertex: those are the only ones asked
  /// about, and the rings of a country's areas have millions.)
  let vertices: Set<Int64>
  /// Every country code the extract names (boundaries, subdivision codes, `addr:country`):
  /// the candidates of the postcode test.
  let knownCountries: [String]

  /// Rings that were assembled into usable areas.
  var areaCount: Int { areas.count }

  init(
    areas: [AreaElement], elements: [ExtractedElement], countries: CountryTable,
    boundaries: [BoundaryWays] = []
  ) {
    // Smallest areas first within a level, so nested duplicates resolve to the most specific.
    let sorted = areas.compactMap(AdminArea.init).sorted {
      ($0.level, $0.area) < ($1.level, $1.area)
    }
    let bands = sorted.map { EdgeBands($0) }
    let countryAreas = sorted.indices.filter {
      sorted[$0].level == .country && sorted[$0].countryCode != nil
    }
    self.areas = sorted
    self.countries = countries
    areaGrid = AreaGrid(sorted)
    edgeBands = bands
    self.countryAreas = countryAreas
    countryAreaCodes = Set(countryAreas.compactMap { sorted[$0].countryCode })
    var known = Set(countryAreas.compactMap { sorted[$0].countryCode })
    var byID: [Int64: BoundaryWays] = [:]
    for b in boundaries { byID[b.id] = b }
    var cut: [Int64: BoundaryWays] = [:]
    var wayCountries: [Int64: [String]] = [:]
    for id in byID.keys.sorted() {
      let b = byID[id]!
      if !b.openPoints.isEmpty { cut[id] = b }
      guard let code = AdminArea.countryCode(tags: b.tags)?.code else { continue }
      known.insert(code)
      for w in Set(b.wayIDs) { wayCountries[w, default: []].append(code) }
    }
    cutBoundaries = cut
    self.wayCountries = wayCountries
    var vertices = Set<Int64>()
    if !cut.isEmpty {
      var asked = Set<Int64>()
      for b in cut.values { for p in b.openPoints { asked.insert(AdminResolver.pack(p)) } }
      for a in sorted {
        for ring in a.rings {
          for p in ring where asked.contains(AdminResolver.pack(p)) {
            vertices.insert(AdminResolver.pack(p))
          }
        }
      }
    }
    self.vertices = vertices
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
          countryArea: nil))
    }
    settlementGrid = SettlementGrid(
      settlements.map { ($0.latitudeE7, $0.longitudeE7) }, reach: AdminResolver.largestRadius)
    var votes: [Int64: [String: Int]] = [:]
    for e in elements {
      guard let code = AdminArea.code(e.tags["addr:country"]) else { continue }
      known.insert(code)
      votes[AdminResolver.cell(e.latitudeE7, e.longitudeE7, size: 100_000), default: [:]][
        code, default: 0] += 1
    }
    countryVotes = votes
    knownCountries = known.sorted()
    var areaVotes: [Int: [String: Int]] = [:]
    let grid = areaGrid
    for e in elements {
      guard let code = AdminArea.code(e.tags["addr:country"]) else { continue }
      grid.forEachCandidate(e.latitudeE7, e.longitudeE7) { i in
        if sorted[i].level != .country,
          AdminResolver.contains(sorted[i], bands[i], e.latitudeE7, e.longitudeE7)
        {
          areaVotes[i, default: [:]][code, default: 0] += 1
        }
        return true
      }
    }
    areaCountryVotes = areaVotes
    cityCells = AdminResolver.majorityCells(elements, size: 100_000) {
      AdminResolver.city($0["addr:city"])
    }
    stateCells = AdminResolver.majorityCells(elements, size: 1_000_000) {
      $0["addr:state"].flatMap { $0.isEmpty ? nil : $0 }
    }
    // Each settlement's closed country, so that a place's locality never comes from a
    // settlement across a border.
    for i in settlements.indices {
      settlements[i].countryArea = countryAreas.first {
        AdminResolver.contains(
          sorted[$0], bands[$0], settlements[i].latitudeE7, settlements[i].longitudeE7)
      }
    }
    self.settlements = settlements
  }

  /// A point packed into one integer.
  static func pack(_ p: (Int32, Int32)) -> Int64 {
    Int64(p.0) << 32 | Int64(UInt32(bitPattern: p.1))
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
    AdminResolver.contains(areas[i], edgeBands[i], lat, lon)
  }

  static func contains(_ a: AdminArea, _ bands: EdgeBands?, _ lat: Int32, _ lon: Int32) -> Bool {
    guard lat >= a.minLat, lat <= a.maxLat, lon >= a.minLon, lon <= a.maxLon else { return false }
    if let bands { return bands.contains(lat, lon) }
    return a.contains(lat, lon)
  }

  /// Whether area `i` holds the cut boundary: each of its points is inside the area or on
  /// the border of a closed area, and at least one is inside.
  func area(_ i: Int, holds cut: BoundaryWays) -> Bool {
    var inside = false
    for p in cut.openPoints where !vertices.contains(AdminResolver.pack(p)) {
      guard area(i, contains: p.0, p.1) else { return false }
      inside = true
    }
    return inside
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

  /// ``containingAreas(_:_:)`` for a boundary cut by the extract's edge: the first area of
  /// each level that holds all of it (``area(_:holds:)``).
  ///
  /// An area that holds the cut boundary holds its first point off the closed areas' borders,
  /// so only the areas whose box may hold that point (``AreaGrid``, in increasing index) are
  /// tried: the answer of a loop over every area, at the cost of the areas near the boundary.
  func containingAreas(_ cut: BoundaryWays) -> [Int] {
    guard let p = cut.openPoints.first(where: { !vertices.contains(AdminResolver.pack($0)) })
    else { return [] }
    var found: [Int] = []
    var levels = 0
    areaGrid.forEachCandidate(p.0, p.1) { i in
      let bit = 1 << areas[i].level.rawValue
      if levels & bit == 0, area(i, holds: cut) {
        levels |= bit
        found.append(i)
      }
      return true
    }
    return found
  }

  /// ``containingAreas(_:)-(BoundaryWays)`` by a loop over every area, for tests.
  func containingAreasByScan(_ cut: BoundaryWays) -> [Int] {
    var found: [Int] = []
    var levels = Set<AdminArea.Level>()
    for i in areas.indices where !levels.contains(areas[i].level) && area(i, holds: cut) {
      levels.insert(areas[i].level)
      found.append(i)
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

  /// The context of a point with the given tags; `relation` is the id of the relation the
  /// place comes from, if it does (a boundary cut by the extract's edge is placed by its
  /// ways, not by its point).
  func resolve(
    latitudeE7: Int32, longitudeE7: Int32, tags: [String: String], relation: Int64? = nil
  ) -> AdminContext {
    var c = AdminContext()
    let cut = relation.flatMap { cutBoundaries[$0] }
    let holding = cut.map(containingAreas) ?? containingAreas(latitudeE7, longitudeE7)
    for i in holding {
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
    if let pc = tags["addr:postcode"], !pc.isEmpty { c.postcode = pc }
    // The country.
    let holdingCountry = holding.first {
      areas[$0].level == .country && areas[$0].countryCode != nil
    }
    if c.countryCode != nil || c.countryName != nil {
      c.countrySource = .countryBoundary
    } else {
      // Countries whose closed boundary does not hold the place are out.
      if let (code, source) = country(
        latitudeE7, longitudeE7, tags: tags, holding: holding, cut: cut, postcode: c.postcode,
        excluded: countryAreaCodes)
      {
        c.countryCode = code
        c.countrySource = source
      }
    }
    if c.locality == nil, let city = AdminResolver.city(tags["addr:city"]) { c.locality = city }
    if c.locality == nil,
      let s = nearestSettlement(latitudeE7: latitudeE7, longitudeE7: longitudeE7),
      s.countryArea == holdingCountry
    {
      c.locality = s.name
    }
    if c.locality == nil {
      c.locality = AdminResolver.nearest(
        cityCells, latitudeE7, longitudeE7, size: 100_000, radius: 2)
    }
    // A state from the address tags: the place's own, else most places' in its 0.1-degree
    // cell (not a cell nearby: that may be across a border).
    let taggedState =
      tags["addr:state"] ?? tags["addr:province"]
      ?? AdminResolver.nearest(stateCells, latitudeE7, longitudeE7, size: 1_000_000, radius: 0)
    if c.region == nil, let state = taggedState, !state.isEmpty {
      c.region = state
      if state.count <= 3 { c.regionShort = state }
    }
    if let code = c.countryCode {
      let row = countries.country(code)
      c.countryName =
        countries.contains(code) && !row.name.isEmpty ? row.name : c.countryName ?? code
    }
    return c
  }

  /// The country of a place that no closed country boundary holds, and where it came from
  /// (the sources after ``CountrySource/countryBoundary``, in order); never one of
  /// `excluded`.
  func country(
    _ lat: Int32, _ lon: Int32, tags: [String: String], holding: [Int], cut: BoundaryWays?,
    postcode: String?, excluded: Set<String>
  ) -> (String, CountrySource)? {
    func allowed(_ code: String?) -> String? {
      guard let code, !excluded.contains(code) else { return nil }
      return code
    }
    // Its own boundary's code, then those of the closed boundaries holding it, most specific
    // first.
    if let own = AdminArea.countryCode(tags: tags), own.source == .subdivisionCode,
      let code = allowed(own.code)
    {
      return (code, .subdivisionCode)
    }
    for i in holding.reversed() {
      if let code = allowed(areas[i].subdivisionCountry ?? areas[i].countryCode) {
        return (code, .subdivisionCode)
      }
    }
    if let code = allowed(AdminArea.code(tags["addr:country"]))
      ?? allowed(AdminArea.code(tags["is_in:country_code"]))
    {
      return (code, .ownTags)
    }
    if let cut, let code = sharedBorderCountry(cut, excluded: excluded) {
      return (code, .sharedBorders)
    }
    if let code = neighbourCountry(lat, lon, excluded: excluded) { return (code, .neighbours) }
    // Most of the places in the same closed area, the most specific area first.
    for i in holding.reversed() where areas[i].level != .country {
      let votes = (areaCountryVotes[i] ?? [:]).filter { !excluded.contains($0.key) }
      if let code = AdminResolver.winner(votes, majority: true) { return (code, .neighbours) }
    }
    if let postcode, let code = postcodeCountry(postcode, excluded: excluded) {
      return (code, .postcode)
    }
    if let code = regionCountry(lat, lon, excluded: excluded) { return (code, .region) }
    return nil
  }

  /// The country whose boundaries share most of the cut boundary's ways (each boundary with
  /// a code counts once per way), if one has more than any other. (Its own code, if it has
  /// one, was tried before and is excluded by now.)
  func sharedBorderCountry(_ cut: BoundaryWays, excluded: Set<String>) -> String? {
    var votes: [String: Int] = [:]
    for w in Set(cut.wayIDs) {
      for code in wayCountries[w] ?? [] where !excluded.contains(code) {
        votes[code, default: 0] += 1
      }
    }
    return AdminResolver.winner(votes, majority: false)
  }

  /// The `addr:country` most of the places within about a kilometre carry (the 0.01-degree
  /// cell of the point and the eight around it), if more than half of them carry it.
  func neighbourCountry(_ lat: Int32, _ lon: Int32, excluded: Set<String>) -> String? {
    let cy = Int64(lat / 100_000)
    let cx = Int64(lon / 100_000)
    var votes: [String: Int] = [:]
    for dy in -1...1 {
      for dx in -1...1 {
        for (code, n) in countryVotes[(cy + Int64(dy)) * 100_000 + cx + Int64(dx)] ?? [:]
        where !excluded.contains(code) {
          votes[code, default: 0] += n
        }
      }
    }
    return AdminResolver.winner(votes, majority: true)
  }

  /// The `addr:country` of every place within about 15 km (15 cells of 0.01 degrees each
  /// way) that carries one (not excluded), if they all carry the same.
  func regionCountry(_ lat: Int32, _ lon: Int32, excluded: Set<String>) -> String? {
    let cy = Int64(lat / 100_000)
    let cx = Int64(lon / 100_000)
    var found: String? = nil
    for y in (cy - 15)...(cy + 15) {
      for x in (cx - 15)...(cx + 15) {
        for code in (countryVotes[y * 100_000 + x] ?? [:]).keys where !excluded.contains(code) {
          if let f = found, f != code { return nil }
          found = code
        }
      }
    }
    return found
  }

  /// The one candidate country (named in the extract, not excluded) whose postcode format
  /// `postcode` fits, if exactly one does.
  func postcodeCountry(_ postcode: String, excluded: Set<String>) -> String? {
    let fits = knownCountries.filter {
      !excluded.contains($0) && countries.postcode(postcode, fits: $0) == true
    }
    return fits.count == 1 ? fits[0] : nil
  }

  /// The code with the most votes (above zero): with `majority`, only if it has more than
  /// half of them; else only if no other has as many.
  static func winner(_ votes: [String: Int], majority: Bool) -> String? {
    let ranked = votes.filter { $0.value > 0 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
    guard let best = ranked.first else { return nil }
    if majority {
      let total = ranked.reduce(0) { $0 + $1.value }
      return 2 * best.value > total ? best.key : nil
    }
    return ranked.count == 1 || ranked[1].value < best.value ? best.key : nil
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
