import PlaceCore

/// An administrative or place area with its rings and bounding box, for point-in-polygon tests.
struct AdminArea: Sendable {
  /// What the area is in the hierarchy.
  enum Level: Int, Comparable, Sendable {
    case country = 2
    case region = 4
    case adminArea2 = 6
    case locality = 8
    case sublocality = 10
    case postalCode = 11

    static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }

  var level: Level
  var name: String
  var tags: [String: String]
  var rings: [[(Int32, Int32)]]
  var minLat: Int32
  var maxLat: Int32
  var minLon: Int32
  var maxLon: Int32
  /// Ring area in squared 1e-7 degrees, so that the smallest containing area wins a tie.
  var area: Double

  init?(_ element: AreaElement) {
    let t = element.tags
    let level: Level
    if t["boundary"] == "postal_code" {
      level = .postalCode
    } else if t["boundary"] == "administrative", let raw = t["admin_level"], let l = Int(raw) {
      switch l {
      case 2: level = .country
      case 3, 4: level = .region
      case 5, 6: level = .adminArea2
      case 7, 8: level = .locality
      case 9, 10, 11: level = .sublocality
      default: return nil
      }
    } else if let place = t["place"], t["boundary"] == nil || t["boundary"] == "administrative" {
      // A place=region drawn as boundary=natural (a mountain range) holds no admin area.
      switch place {
      case "country": level = .country
      case "state", "region", "province": level = .region
      case "county": level = .adminArea2
      case "city", "town", "village", "hamlet", "municipality": level = .locality
      case "suburb", "quarter", "borough", "neighbourhood": level = .sublocality
      default: return nil
      }
    } else {
      return nil
    }
    let name = level == .postalCode ? (t["postal_code"] ?? t["name"]) : t["name"]
    guard let name, !name.isEmpty, !element.rings.isEmpty else { return nil }
    self.level = level
    self.name = name
    self.tags = t
    self.rings = element.rings
    var minLat = Int32.max
    var maxLat = Int32.min
    var minLon = Int32.max
    var maxLon = Int32.min
    var area = 0.0
    for ring in element.rings {
      for p in ring {
        minLat = min(minLat, p.0)
        maxLat = max(maxLat, p.0)
        minLon = min(minLon, p.1)
        maxLon = max(maxLon, p.1)
      }
      area += abs(AdminArea.signedArea(ring))
    }
    self.minLat = minLat
    self.maxLat = maxLat
    self.minLon = minLon
    self.maxLon = maxLon
    self.area = area
  }

  static func signedArea(_ ring: [(Int32, Int32)]) -> Double {
    guard ring.count > 2 else { return 0 }
    var a = 0.0
    let y0 = Double(ring[0].0)
    let x0 = Double(ring[0].1)
    for i in 0..<(ring.count - 1) {
      a +=
        (Double(ring[i].1) - x0) * (Double(ring[i + 1].0) - y0)
        - (Double(ring[i + 1].1) - x0) * (Double(ring[i].0) - y0)
    }
    return a / 2
  }

  /// Whether the point lies inside one of the rings (even-odd rule).
  func contains(_ lat: Int32, _ lon: Int32) -> Bool {
    guard lat >= minLat, lat <= maxLat, lon >= minLon, lon <= maxLon else { return false }
    let y = Double(lat)
    let x = Double(lon)
    var inside = false
    for ring in rings {
      var j = ring.count - 1
      for i in 0..<ring.count {
        let yi = Double(ring[i].0)
        let xi = Double(ring[i].1)
        let yj = Double(ring[j].0)
        let xj = Double(ring[j].1)
        if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
        j = i
      }
    }
    return inside
  }

  /// The ISO 3166-1 alpha-2 code tagged on a country boundary, if any.
  var countryCode: String? { AdminArea.isoCountry(tags) }

  /// The country the ISO 3166-2 code of the area names ("AT-8" → AT), if any.
  var subdivisionCountry: String? { tags["ISO3166-2"].flatMap(AdminArea.country(ofSubdivision:)) }

  /// The short form of a region, as people write it: the subdivision part of its ISO 3166-2
  /// code where it is letters ("US-NY" → "NY", "CH-SG" → "SG"), else none (the name is its
  /// short form: Vorarlberg is AT-8, and nobody writes "8").
  var shortName: String? { AdminArea.shortName(tags) }

  /// ``shortName`` of an area with these tags.
  static func shortName(_ tags: [String: String]) -> String? {
    guard let iso = tags["ISO3166-2"], let dash = iso.firstIndex(of: "-") else { return nil }
    let part = iso[iso.index(after: dash)...]
    guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      return nil
    }
    return String(part).uppercased()
  }

  /// The ISO 3166-1 code tagged on a boundary (of a country), upper case, if any.
  static func isoCountry(_ tags: [String: String]) -> String? {
    code(tags["ISO3166-1:alpha2"] ?? tags["ISO3166-1"] ?? tags["country_code"])
  }

  /// The country part of an ISO 3166-2 code ("AT-8" → "AT", "CH-SG" → "CH"), if it has one.
  static func country(ofSubdivision iso: String) -> String? {
    let u = Array(iso.utf8)
    guard u.count > 3, u[2] == UInt8(ascii: "-") else { return nil }
    return code(String(decoding: u[0..<2], as: UTF8.self))
  }

  /// `text` as a country code: two ASCII letters, upper-cased; else nil.
  static func code(_ text: String?) -> String? {
    guard let text else { return nil }
    let t = DataTable.trim(text)
    guard t.utf8.count == 2, t.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
    return t.uppercased()
  }

  /// The country a boundary's own tags give, and how: its ISO 3166-1 code (an admin_level 2
  /// boundary) or the country of its ISO 3166-2 code; else its `is_in:country_code`.
  static func countryCode(tags t: [String: String]) -> (code: String, source: CountrySource)? {
    if t["admin_level"] == "2" || t["place"] == "country", let c = isoCountry(t) {
      return (c, .subdivisionCode)
    }
    if let c = t["ISO3166-2"].flatMap(country(ofSubdivision:)) { return (c, .subdivisionCode) }
    if let c = code(t["is_in:country_code"]) { return (c, .ownTags) }
    return nil
  }
}
