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
  let countries: CountryTable
  /// Country codes tagged (`addr:country`) in each 0.1-degree cell: the last fallback.
  let countryCells: [Int64: String]
  /// Cities tagged (`addr:city`) in each 0.01-degree cell: the locality fallback for places
  /// without boundaries or settlement nodes nearby (cut extracts such as Manhattan's).
  let cityCells: [Int64: String]

  /// Rings that were assembled into usable areas.
  var areaCount: Int { areas.count }

  init(areas: [AreaElement], elements: [ExtractedElement], countries: CountryTable) {
    // Smallest areas first within a level, so nested duplicates resolve to the most specific.
    self.areas = areas.compactMap(AdminArea.init).sorted {
      ($0.level, $0.area) < ($1.level, $1.area)
    }
    self.countries = countries
    var settlements: [Settlement] = []
    for e in elements where e.kind == .node {
      guard let place = e.tags["place"], let name = e.tags["name"] else { continue }
      let radius: Double
      switch place {
      case "city": radius = 20_000
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
    var votes: [Int64: [String: Int]] = [:]
    var cityVotes: [Int64: [String: Int]] = [:]
    for e in elements {
      if let cc = e.tags["addr:country"], cc.count == 2 {
        votes[AdminResolver.cell(e.latitudeE7, e.longitudeE7), default: [:]][
          cc.uppercased(), default: 0] += 1
      }
      if let city = e.tags["addr:city"], !city.isEmpty {
        cityVotes[AdminResolver.cell(e.latitudeE7, e.longitudeE7, size: 100_000), default: [:]][
          city, default: 0] += 1
      }
    }
    let majority: ([String: Int]) -> String = { v in
      v.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
    }
    countryCells = votes.mapValues(majority)
    cityCells = cityVotes.mapValues(majority)
  }

  /// The cell of a point on a grid of `size` (1e-7 degrees).
  static func cell(_ lat: Int32, _ lon: Int32, size: Int32) -> Int64 {
    Int64(lat / size) * 100_000 + Int64(lon / size)
  }

  /// The city tagged most often in the nearest 0.01-degree cell within about 2 km, if any.
  func nearestTaggedCity(_ lat: Int32, _ lon: Int32) -> String? {
    let cy = Int64(lat / 100_000)
    let cx = Int64(lon / 100_000)
    for radius in 0...2 {
      for dy in -radius...radius {
        for dx in -radius...radius where max(abs(dy), abs(dx)) == radius {
          if let city = cityCells[(cy + Int64(dy)) * 100_000 + cx + Int64(dx)] { return city }
        }
      }
    }
    return nil
  }

  /// The 0.1-degree cell of a point.
  static func cell(_ lat: Int32, _ lon: Int32) -> Int64 {
    Int64(lat / 1_000_000) * 100_000 + Int64(lon / 1_000_000)
  }

  /// The country tagged most often in the nearest cell within about 30 km, if any.
  func nearestTaggedCountry(_ lat: Int32, _ lon: Int32) -> String? {
    let cy = Int64(lat / 1_000_000)
    let cx = Int64(lon / 1_000_000)
    for radius in 0...3 {
      for dy in -radius...radius {
        for dx in -radius...radius where max(abs(dy), abs(dx)) == radius {
          if let cc = countryCells[(cy + Int64(dy)) * 100_000 + cx + Int64(dx)] { return cc }
        }
      }
    }
    return nil
  }

  /// The context of a point with the given tags.
  func resolve(latitudeE7: Int32, longitudeE7: Int32, tags: [String: String]) -> AdminContext {
    var c = AdminContext()
    for a in areas where c.value(for: a.level) == nil && a.contains(latitudeE7, longitudeE7) {
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
    if c.locality == nil, let city = tags["addr:city"], !city.isEmpty { c.locality = city }
    if let pc = tags["addr:postcode"], !pc.isEmpty { c.postcode = pc }
    if c.locality == nil || c.countryCode == nil,
      let s = nearestSettlement(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
    {
      if c.locality == nil { c.locality = s.name }
      if c.countryCode == nil { c.countryCode = s.countryCode }
    }
    if c.locality == nil { c.locality = nearestTaggedCity(latitudeE7, longitudeE7) }
    if c.region == nil, let state = tags["addr:state"] ?? tags["addr:province"], !state.isEmpty {
      c.region = state
      if state.count <= 3 { c.regionShort = state }
    }
    if c.countryCode == nil && c.countryName == nil {
      c.countryCode = nearestTaggedCountry(latitudeE7, longitudeE7)
    }
    if let code = c.countryCode {
      let row = countries.country(code)
      c.countryName =
        countries.contains(code) && !row.name.isEmpty ? row.name : c.countryName ?? code
    }
    return c
  }

  private func nearestSettlement(latitudeE7: Int32, longitudeE7: Int32) -> Settlement? {
    let here = Coordinate(latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7)
    var best: (Settlement, Double)? = nil
    for s in settlements {
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
