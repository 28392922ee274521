import Foundation

/// How important a place is, scored once at build time and stored in the index for ranking.
///
/// This is the one place the formula is defined. The score is a sum of five parts, and for a
/// bare address a sixth, clamped to `0...65535` (higher is more important):
///
///     score = type + rank + population + wiki + names (+ house number)
///
/// - **type** (0...32 000): how important the kind of place is, from the primary type, or else
///   from its vocabulary group:
///   country 32 000 > administrative_area_level_1 28 000 > administrative_area_level_2 25 000 >
///   locality 22 000 > administrative_area_level_3..7, international airport 20 000 >
///   airport 18 000 > train station 16 000 > sublocality 14 000 > other geographical areas 12 000
///   (postal codes, colloquial areas), bus/ferry station 12 000 > neighborhood 11 000 > route
///   10 500 > subway/light-rail station 10 400 (as in Nominatim, a street ranks above a station
///   named after its corner: "houston st" is East Houston Street before "1 Avenue & Houston St")
///   > culture 10 000, natural features 10 000 > places of
///   worship, government, education, entertainment and recreation 9 000 > health, lodging,
///   sports, other transportation 8 000 > food and drink, shopping, finance 7 000 > services,
///   automotive 6 500 > business 6 000 > facilities, housing 5 000 > intersection 4 000 >
///   stops (bus, tram, transit, platforms) 3 000, premise 3 000 > street_address 2 500 >
///   subpremise 2 000 > unclassified 0. Types of other groups weigh 6 000. As in Nominatim's
///   place ranks, a street comes before a point of interest of the same standing, and a stop
///   below the station it belongs to and the street or square it is named after (people look
///   for the street Kaisaniemenkatu, and find its tram stop by it).
/// - **rank** (0...8 000): the place rank of `place=*` (country 8 000, state/region/province
///   7 000, county/district 6 000, city 6 000, town 4 500, municipality 4 000, borough 3 500,
///   village 3 000, suburb 3 000, quarter 2 000, hamlet 1 500, neighbourhood 1 500, island
///   1 500, locality 500, city_block 500, islet/isolated_dwelling/farm/square 200), or for
///   `boundary=administrative` `600 × (12 − admin_level)` (level 2: 6 000, level 8: 2 400);
///   the larger of the two when both apply.
/// - **population** (0...12 000): `1 500 × log10(population + 1)` from `population=*`
///   (digits, with `,`, `.`, `'`, `_` or spaces as thousands separators; anything else is
///   ignored): 1 000 people 4 500, 100 000 people 7 500, 10 million 10 500.
/// - **wiki** (0...5 000): 3 000 for a `wikidata` tag, plus 2 000 for a `wikipedia` or
///   `wikipedia:xx` tag.
/// - **names** (0...4 000): 100 for every `name:xx` tag (names in other languages), at most 40.
/// - **places** (0...2 000), for a postcode derived from the places that carry it, in place
///   of a population: ``postcodePlacesWeight(_:)``.
/// - **house number** (0...400), for a bare address (premise, street_address, subpremise)
///   only: lower numbers weigh more (``houseNumberWeight(_:)``), less than the step between
///   those types, so that a street's addresses of one kind come in the order of their numbers.
///
/// So a country outranks a town, which outranks a bakery; a railway station outranks a bench
/// (which has no place type); and of two otherwise equal places the one with a Wikidata entry
/// ranks higher.
public enum Importance {
  /// The importance of a place with `tags` and `classification`, in `0...65535`.
  public static func score(tags: [String: String], classification: PlaceClassification?)
    -> UInt16
  {
    var total = typeWeight(classification)
    total += rankWeight(tags)
    total += populationWeight(tags["population"])
    total += wikiWeight(tags)
    total += namesWeight(tags)
    if let type = classification?.primaryType, bareAddressTypes.contains(type) {
      total += houseNumberWeight(tags["addr:housenumber"])
    }
    return UInt16(clamping: total)
  }

  // MARK: - The five parts

  /// The weight of the place's kind: primary type first, then its group.
  static func typeWeight(_ classification: PlaceClassification?) -> Int {
    guard let classification else { return 0 }
    if let weight = typeWeights[classification.primaryType] { return weight }
    if let weight = groupWeights[classification.group] { return weight }
    return 6_000
  }

  /// The weight of `place=*` or of an administrative boundary's level.
  static func rankWeight(_ tags: [String: String]) -> Int {
    var weight = 0
    if let place = tags["place"], let rank = placeRanks[place] { weight = rank }
    if tags["boundary"] == "administrative", let text = tags["admin_level"],
      let level = Int(text), (1...12).contains(level)
    {
      weight = max(weight, 600 * (12 - level))
    }
    return weight
  }

  /// The weight of `population=*`: log-scaled, capped.
  static func populationWeight(_ text: String?) -> Int {
    guard let text, let population = parsePopulation(text), population > 0 else { return 0 }
    return min(12_000, Int((1_500 * log10(Double(population) + 1)).rounded()))
  }

  /// The weight of Wikidata and Wikipedia links.
  static func wikiWeight(_ tags: [String: String]) -> Int {
    var weight = 0
    if let wikidata = tags["wikidata"], !wikidata.isEmpty { weight += 3_000 }
    if tags.keys.contains(where: { $0 == "wikipedia" || $0.hasPrefix("wikipedia:") }) {
      weight += 2_000
    }
    return weight
  }

  /// The weight of a derived postcode's places (``PostcodeAreas``), in the place of a
  /// population: 500 × log10(places), at most 2 000 (10 000 places), so that of the
  /// postcodes a prefix of digits starts the busier come first ("94": Vaduz's 9490 before
  /// Planken's 9498). A postcode has at least two places: 150.
  public static func postcodePlacesWeight(_ places: Int) -> Int {
    guard places > 1 else { return 0 }
    return min(2_000, Int((500 * log10(Double(places))).rounded()))
  }

  /// The weight of names in other languages (`name:xx` tags).
  static func namesWeight(_ tags: [String: String]) -> Int {
    var count = 0
    for key in tags.keys where key.hasPrefix("name:") { count += 1 }
    return 100 * min(count, 40)
  }

  /// The weight of a bare address's house number: 400 for 1, 100 less for every tenfold
  /// (2: 370, 10: 300, 100: 200), 0 from 10 000 and for a number that does not start with
  /// digits. Every street has a number 1 and few a number 76, so of the addresses that the
  /// typed text does not tell apart (a street's name typed, its number not yet) the lower
  /// number is the likelier one sought; and the street's addresses then come in their order.
  static func houseNumberWeight(_ text: String?) -> Int {
    guard let text else { return 0 }
    var value = 0
    var digits = 0
    for byte in text.utf8 {
      guard byte &- 0x30 < 10, digits < 6 else { break }
      value = value * 10 + Int(byte - 0x30)
      digits += 1
    }
    guard digits > 0 else { return 0 }
    return max(0, Int((400 - 100 * log10(Double(max(1, value)))).rounded()))
  }

  /// The primary types of a bare address (no name, no kind of place): its house number
  /// weighs in (``houseNumberWeight(_:)``).
  static let bareAddressTypes: Set<String> = ["premise", "street_address", "subpremise"]

  /// A population figure: digits with optional thousands separators; nil for anything else.
  static func parsePopulation(_ text: String) -> Int? {
    var value = 0
    var digits = 0
    for byte in text.utf8 {
      switch byte {
      case 0x30...0x39:
        guard digits < 12 else { return nil }
        value = value * 10 + Int(byte - 0x30)
        digits += 1
      case UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "'"), UInt8(ascii: "_"),
        UInt8(ascii: " "):
        guard digits > 0 else { return nil }
      default:
        return nil
      }
    }
    return digits > 0 ? value : nil
  }

  // MARK: - Tables

  /// Weights of primary types that differ from their group's weight.
  static let typeWeights: [String: Int] = [
    "continent": 32_000,
    "country": 32_000,
    "administrative_area_level_1": 28_000,
    "administrative_area_level_2": 25_000,
    "locality": 22_000,
    "administrative_area_level_3": 20_000,
    "administrative_area_level_4": 20_000,
    "administrative_area_level_5": 20_000,
    "administrative_area_level_6": 20_000,
    "administrative_area_level_7": 20_000,
    "international_airport": 20_000,
    "airport": 18_000,
    "train_station": 16_000,
    "sublocality": 14_000,
    "sublocality_level_1": 14_000,
    "sublocality_level_2": 13_500,
    "sublocality_level_3": 13_000,
    "sublocality_level_4": 12_500,
    "sublocality_level_5": 12_000,
    "subway_station": 10_400,
    "light_rail_station": 10_400,
    "bus_station": 12_000,
    "ferry_terminal": 12_000,
    "neighborhood": 11_000,
    "route": 10_500,
    "bus_stop": 3_000,
    "tram_stop": 3_000,
    "transit_stop": 3_000,
    "intersection": 4_000,
    "premise": 3_000,
    "street_address": 2_500,
    "subpremise": 2_000,
  ]

  /// Weights of vocabulary groups.
  static let groupWeights: [String: Int] = [
    "geographical_areas": 12_000,
    "culture": 10_000,
    "natural_features": 10_000,
    "places_of_worship": 9_000,
    "government": 9_000,
    "education": 9_000,
    "entertainment_and_recreation": 9_000,
    "health_and_wellness": 8_000,
    "lodging": 8_000,
    "sports": 8_000,
    "transportation": 8_000,
    "food_and_drink": 7_000,
    "shopping": 7_000,
    "finance": 7_000,
    "services": 6_500,
    "automotive": 6_500,
    "business": 6_000,
    "facilities": 5_000,
    "housing": 5_000,
    "address": 3_000,
  ]

  /// Place ranks of `place=*` values.
  static let placeRanks: [String: Int] = [
    "continent": 8_000, "country": 8_000,
    "state": 7_000, "region": 7_000, "province": 7_000,
    "county": 6_000, "district": 6_000, "city": 6_000,
    "town": 4_500, "municipality": 4_000, "borough": 3_500,
    "village": 3_000, "suburb": 3_000, "quarter": 2_000,
    "hamlet": 1_500, "neighbourhood": 1_500, "island": 1_500, "archipelago": 1_500,
    "locality": 500, "city_block": 500,
    "islet": 200, "isolated_dwelling": 200, "farm": 200, "square": 200,
  ]
}
