/// A place ID: the OSM element's kind letter and its decimal id ("N240109189", "W4444",
/// "R1155956"), or for a postcode the builder derives from the addresses that carry it, "P" and
/// a number from its country, code and whereabouts (``postcodeID(country:code:latitudeE7:longitudeE7:)``,
/// "P1932817465"). The one
/// home of that syntax: the builder names places with it, the index stores the kind and id it
/// stands for (PLACE IDS), and the reader parses what a request gives.
package struct PlaceID: Hashable, Sendable, CustomStringConvertible {
  /// The kind of OSM element, or a derived postcode, numbered as the index stores it.
  package enum Kind: UInt8, Sendable, CaseIterable {
    case node = 0
    case way = 1
    case relation = 2
    /// A postcode derived from the addresses that carry it, no OSM element (format 8.0).
    case postcode = 3

    /// The letter of the kind in a place ID.
    package var letter: Character {
      switch self {
      case .node: "N"
      case .way: "W"
      case .relation: "R"
      case .postcode: "P"
      }
    }
  }

  /// The most characters a place ID has: a letter and the digits of the largest id.
  package static let maxLength = 20

  package var kind: Kind
  package var id: Int64

  package init(kind: Kind, id: Int64) {
    self.kind = kind
    self.id = id
  }

  /// The ID of kind `raw` (0 node, 1 way, 2 relation, 3 postcode), or nil for another number.
  package init?(kind raw: UInt8, id: Int64) {
    guard let kind = Kind(rawValue: raw) else { return nil }
    self.init(kind: kind, id: id)
  }

  /// Parses "N123": a kind letter and decimal digits that fit an Int64; nil for anything else
  /// (a sign, spaces, other letters, lower case, an empty or over-long text).
  package init?(_ text: String) {
    guard let first = text.first, text.count >= 2, text.count <= Self.maxLength,
      let kind = Kind.allCases.first(where: { $0.letter == first })
    else { return nil }
    let digits = text.dropFirst()
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(digits) else {
      return nil
    }
    self.init(kind: kind, id: id)
  }

  package var description: String { String(kind.letter) + String(id) }

  /// The ids a derived postcode's ID draws from: below 2^32, so that an extract whose
  /// elements have ids of 32 bits or more (every recent one) needs no wider PLACE IDS keys.
  package static let postcodeIDs: Int64 = 1 << 32

  /// The id of the postcode `code` (its letters and digits, upper case) in `country` (ISO
  /// 3166-1 alpha-2, or ""), whose area's centre lies at `latitudeE7`, `longitudeE7` (1e-7
  /// degrees), before collisions: FNV-1a 64 of "CC|CODE|LAT|LON" below ``postcodeIDs``, LAT
  /// and LON the whole degrees of the centre (rounded down). So the same postcode has the
  /// same ID in every build unless its centre moves into another degree, and the areas of one
  /// code in two shards of a region (two towns) have two IDs. The builder takes the next free
  /// id, in the order of country, code and area, when two areas draw the same one.
  package static func postcodeID(
    country: String, code: String, latitudeE7: Int32, longitudeE7: Int32
  ) -> Int64 {
    func degree(_ e7: Int32) -> Int32 { e7 >= 0 ? e7 / 10_000_000 : (e7 + 1) / 10_000_000 - 1 }
    let key = "\(country.uppercased())|\(code)|\(degree(latitudeE7))|\(degree(longitudeE7))"
    return Int64(fnv1a64(key) % UInt64(postcodeIDs))
  }
}
