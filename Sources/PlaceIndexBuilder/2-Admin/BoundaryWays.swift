/// An administrative boundary relation's member ways, and, when they form no closed ring in
/// the extract (a boundary cut by the extract's edge), points along them.
///
/// A cut boundary cannot say which points it holds, but its ways still say which boundaries
/// it shares its borders with, and its points which complete boundaries it reaches out of.
struct BoundaryWays: Sendable {
  /// The relation's id.
  var id: Int64
  /// The tags that tell the boundary's country (``AdminArea/countryCode(tags:)``).
  var tags: [String: String]
  /// The ids of its member ways that the extract has.
  var wayIDs: [Int64]
  /// Points of its member ways (at most ``maxPoints``, evenly taken) when the ways form no
  /// closed ring; empty otherwise.
  var openPoints: [(Int32, Int32)]

  /// Most points kept of a cut boundary.
  static let maxPoints = 2_048

  /// The tags kept.
  static let keptTags = [
    "ISO3166-1:alpha2", "ISO3166-1", "ISO3166-2", "country_code", "is_in:country_code",
    "admin_level", "boundary",
  ]

  init(id: Int64, tags: [String: String], wayIDs: [Int64], openPoints: [(Int32, Int32)]) {
    self.id = id
    self.tags = tags.filter { BoundaryWays.keptTags.contains($0.key) }
    self.wayIDs = wayIDs
    if openPoints.count > BoundaryWays.maxPoints {
      let step = Double(openPoints.count) / Double(BoundaryWays.maxPoints)
      self.openPoints = (0..<BoundaryWays.maxPoints).map { openPoints[Int(Double($0) * step)] }
    } else {
      self.openPoints = openPoints
    }
  }
}

/// Where a place's country came from, in the order the admin stage tries them.
enum CountrySource: Int, CaseIterable, Sendable, Comparable {
  /// A complete (closed) country boundary holding the place.
  case countryBoundary
  /// The ISO 3166-1 or 3166-2 code of the place's own boundary or of a closed admin boundary
  /// holding it ("AT-8" → AT).
  case subdivisionCode
  /// The place's own `addr:country` or `is_in:country_code`.
  case ownTags
  /// A cut boundary's ways, shared with the boundaries of one country.
  case sharedBorders
  /// Most of the places near it (within about a kilometre, else in the same closed admin
  /// area), by their `addr:country`.
  case neighbours
  /// Its postcode, which only one of the candidate countries' formats fits.
  case postcode
  /// Every place within about 15 km that carries an `addr:country` carries the same one.
  case region
  /// A derived postcode's (``PostcodeAreas``): the country of the places that carry it. Not
  /// one the admin stage tries.
  case itsPlaces

  static func < (a: CountrySource, b: CountrySource) -> Bool { a.rawValue < b.rawValue }

  /// How the build report names it.
  var label: String {
    switch self {
    case .countryBoundary: "country boundary"
    case .subdivisionCode: "ISO 3166-2 code"
    case .ownTags: "own addr:country"
    case .sharedBorders: "shared borders"
    case .neighbours: "neighbours' addr:country"
    case .postcode: "postcode format"
    case .region: "region's addr:country"
    case .itsPlaces: "postcode's places"
    }
  }
}
