import Foundation
import PlaceCore
import PlaceIndexBuilder
import TestSupport
import Testing

/// The repository root, found from this file's path (Tests/PlaceIndexBuilderTests/<file>).
private let repositoryRoot = TestPaths.repoRoot

/// The shared Helsinki extract, next to the repository (../shared/data/osm).
private let helsinkiExtract = repositoryRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/data/osm/helsinki-center-2019.osm")

private func dataText(_ name: String) throws -> String {
  try String(contentsOf: repositoryRoot.appendingPathComponent("Data/\(name)"), encoding: .utf8)
}

/// The real vocabulary and rules from Data/.
private func loadRules() throws -> TypeRules {
  let vocabulary = try PlaceTypeVocabulary(tsv: dataText("place_types.tsv"))
  return try TypeRules(tsv: dataText("type_rules.tsv"), vocabulary: vocabulary)
}

/// A small vocabulary for syntax tests.
private let smallVocabulary = """
  type\ttable\tgroup\tgeneric
  restaurant\tA\tfood_and_drink\tfood,point_of_interest,establishment
  italian_restaurant\tA\tfood_and_drink\trestaurant,food,point_of_interest,establishment
  cafe\tA\tfood_and_drink\tfood,point_of_interest,establishment
  route\tB\taddress\tgeocode
  food\tB\tgeneric\tpoint_of_interest,establishment
  point_of_interest\tB\tgeneric\testablishment
  establishment\tB\tgeneric\t
  geocode\tB\tgeneric\t
  """

private let ruleHeader = "key\tvalue\tcondition\ttype\tpriority\n"

@Suite("TypeRules")
struct TypeRulesTests {
  @Test("the data files parse and cover well over 150 primary types")
  func dataFilesParse() throws {
    let rules = try loadRules()
    let vocabulary = rules.vocabulary
    #expect(rules.rules.count > 500)
    #expect(rules.mappedPrimaryTypes.count > 150)
    #expect(rules.mappedPrimaryTypes.filter { vocabulary.isPrimary($0) }.count > 150)
    for rule in rules.rules {
      #expect(vocabulary.contains(rule.type), "line \(rule.line): \(rule.type)")
      #expect(vocabulary.canBePrimaryType(rule.type), "line \(rule.line): \(rule.type)")
    }
    let groups = Set(rules.mappedPrimaryTypes.compactMap { vocabulary.group(of: $0) })
    for group in [
      "food_and_drink", "shopping", "services", "finance", "health_and_wellness", "lodging",
      "education", "culture", "entertainment_and_recreation", "sports", "places_of_worship",
      "government", "transportation", "automotive", "geographical_areas", "address",
      "natural_features",
    ] {
      #expect(groups.contains(group), "no rule maps to a type of \(group)")
    }
    for type in [
      "country", "administrative_area_level_1", "administrative_area_level_2", "locality",
      "sublocality", "neighborhood", "postal_code", "street_address", "premise", "route",
    ] {
      #expect(rules.mappedPrimaryTypes.contains(type), "\(type) is not mapped")
    }
  }

  @Test(
    "representative tag sets classify like the service",
    arguments: [
      (
        ["amenity": "restaurant", "cuisine": "italian", "name": "Trattoria"],
        ["italian_restaurant", "restaurant", "food", "point_of_interest", "establishment"]
      ),
      (
        ["amenity": "restaurant", "name": "Ravintola"],
        ["restaurant", "food", "point_of_interest", "establishment"]
      ),
      (
        ["amenity": "fast_food", "cuisine": "burger"],
        ["hamburger_restaurant", "restaurant", "food", "point_of_interest", "establishment"]
      ),
      (
        ["amenity": "cafe", "cuisine": "coffee_shop"],
        ["coffee_shop", "cafe", "food", "point_of_interest", "establishment"]
      ),
      (
        ["amenity": "cafe", "cuisine": "italian"],
        ["cafe", "food", "point_of_interest", "establishment"]
      ),
      (["amenity": "bank"], ["bank", "finance", "point_of_interest", "establishment"]),
      (["place": "village", "name": "Vaduz"], ["locality", "political", "geocode"]),
      (["place": "suburb"], ["sublocality", "political", "geocode"]),
      (["place": "neighbourhood"], ["neighborhood", "political", "geocode"]),
      (
        ["boundary": "administrative", "admin_level": "2"],
        ["country", "political", "geocode"]
      ),
      (
        ["boundary": "administrative", "admin_level": "4"],
        ["administrative_area_level_1", "political", "geocode"]
      ),
      (
        ["boundary": "administrative", "admin_level": "8"],
        ["locality", "political", "geocode"]
      ),
      (["boundary": "postal_code", "postal_code": "00100"], ["postal_code", "geocode"]),
      (["addr:housenumber": "12", "addr:street": "Main Street"], ["street_address", "geocode"]),
      (
        ["building": "yes", "addr:housenumber": "12", "addr:street": "Main Street"],
        ["premise", "geocode"]
      ),
      (
        ["railway": "station", "name": "Helsinki"],
        ["train_station", "transit_station", "point_of_interest", "establishment"]
      ),
      (
        ["railway": "station", "station": "subway"],
        ["subway_station", "transit_station", "point_of_interest", "establishment"]
      ),
      (
        ["highway": "bus_stop", "public_transport": "platform"],
        ["bus_stop", "transit_stop", "point_of_interest", "establishment"]
      ),
      (
        ["aeroway": "aerodrome", "aerodrome:type": "international"],
        ["international_airport", "airport", "point_of_interest", "establishment"]
      ),
      (["highway": "residential", "name": "Bulevardi"], ["route", "geocode"]),
      (
        ["shop": "clothes", "addr:housenumber": "3", "building": "retail"],
        ["clothing_store", "store", "point_of_interest", "establishment"]
      ),
      (["shop": "frobnicator"], ["store", "point_of_interest", "establishment"]),
      (
        ["amenity": "place_of_worship", "religion": "christian"],
        ["church", "place_of_worship", "point_of_interest", "establishment"]
      ),
      (
        ["tourism": "hotel", "building": "yes"],
        ["hotel", "lodging", "point_of_interest", "establishment"]
      ),
      (
        ["natural": "peak", "name": "Grauspitz"],
        ["mountain_peak", "natural_feature", "establishment"]
      ),
      (["place": "island"], ["island", "natural_feature", "establishment"]),
    ])
  func classifies(tags: [String: String], expected: [String]) throws {
    let rules = try loadRules()
    let classification = rules.classify(tags)
    #expect(classification?.types == expected, "\(tags)")
    #expect(classification?.primaryType == expected.first)
    #expect(classification.map { Set($0.types).count == $0.types.count } ?? false)
    #expect(classification?.group == rules.vocabulary.group(of: expected[0]))
  }

  @Test(
    "tags that are not places stay unmapped",
    arguments: [
      ["amenity": "bench", "name": "Bench"],
      ["highway": "footway", "footway": "sidewalk", "name": "Grand Street"],
      ["shop": "vacant"],
      ["boundary": "administrative"],
      ["name": "Nothing"],
      [:],
    ])
  func unmapped(tags: [String: String]) throws {
    #expect(try loadRules().classify(tags) == nil, "\(tags)")
  }

  @Test("multi-value tags match part by part")
  func multiValue() throws {
    let rules = try loadRules()
    #expect(rules.classify(["amenity": "fast_food", "cuisine": "kebab; pizza"]) != nil)
    let both = rules.classify(["amenity": "restaurant", "cuisine": "sushi;ramen"])?.primaryType
    #expect(both == "sushi_restaurant" || both == "ramen_restaurant")
    #expect(rules.classify(["amenity": "nightclub;pub"])?.primaryType != nil)
  }

  @Test("unmatchedKey reports what an unmapped element is")
  func unmatchedKey() throws {
    let rules = try loadRules()
    #expect(rules.unmatchedKey(["amenity": "restaurant"]) == nil)
    #expect(rules.unmatchedKey(["amenity": "bench", "name": "x"]) == "amenity=bench")
    #expect(rules.unmatchedKey(["type": "route", "route": "bus", "name": "55"]) == "route=bus")
    #expect(rules.unmatchedKey(["name": "x", "wikidata": "Q1"]) == "(no feature tag)")
    #expect(rules.unmatchedKey(["name": "x", "colour": "red"]) == "colour=red")
  }

  @Test("highest priority wins, ties go to the earlier row, conditions must hold")
  func priorities() throws {
    let vocabulary = try PlaceTypeVocabulary(tsv: smallVocabulary)
    let rules = try TypeRules(
      tsv: ruleHeader
        + "amenity\trestaurant\t\trestaurant\t50\n"
        + "cuisine\titalian\tamenity=restaurant|fast_food\titalian_restaurant\t60\n"
        + "amenity\tcafe\t\tcafe\t50\n"
        + "shop\tcafe\t\trestaurant\t50\n"
        + "highway\t*\thighway!=footway|steps&name=*\troute\t20\n",
      vocabulary: vocabulary)
    #expect(
      rules.classify(["amenity": "restaurant", "cuisine": "italian"])?.primaryType
        == "italian_restaurant")
    #expect(rules.classify(["amenity": "cafe", "cuisine": "italian"])?.primaryType == "cafe")
    // Same priority: the earlier row (amenity=cafe, line 4) beats shop=cafe (line 5).
    #expect(rules.classify(["amenity": "cafe", "shop": "cafe"])?.primaryType == "cafe")
    #expect(rules.classify(["highway": "primary", "name": "A"])?.primaryType == "route")
    #expect(rules.classify(["highway": "primary"]) == nil)
    #expect(rules.classify(["highway": "footway", "name": "A"]) == nil)
    #expect(rules.matchingRule(["amenity": "cafe", "shop": "cafe"])?.line == 4)
    #expect(rules.mappedPrimaryTypes == ["restaurant", "italian_restaurant", "cafe", "route"])
  }

  @Test(
    "parse errors name the line",
    arguments: [
      ("", 1, "no header"),
      ("key\tvalue\ttype\tpriority\n", 1, "\"condition\""),
      (ruleHeader + "amenity\tbar\t\tbar\t50\n", 2, "not in the vocabulary"),
      (ruleHeader + "# c\namenity\tx\t\testablishment\t50\n", 3, "generic type"),
      (ruleHeader + "amenity\tcafe\t\tcafe\thigh\n", 2, "not an integer"),
      (ruleHeader + "amenity\tcafe\tcuisine\tcafe\t50\n", 2, "is not k=v"),
      (ruleHeader + "amenity\tcafe\t=x\tcafe\t50\n", 2, "no key"),
      (ruleHeader + "amenity\tcafe\tcuisine=a||b\tcafe\t50\n", 2, "empty"),
      (ruleHeader + "amenity\t\t\tcafe\t50\n", 2, "empty value"),
      (ruleHeader + "\tcafe\t\tcafe\t50\n", 2, "empty key"),
      (ruleHeader + "amenity\ta;b\t\tcafe\t50\n", 2, "contains ';'"),
      (ruleHeader + "amenity\tcafe\t\tcafe\t50\n\namenity\tcafe\t\trestaurant\t40\n", 4, "line 2"),
    ])
  func parseErrors(text: String, line: Int, fragment: String) throws {
    let vocabulary = try PlaceTypeVocabulary(tsv: smallVocabulary)
    do {
      _ = try TypeRules(tsv: text, vocabulary: vocabulary)
      Issue.record("expected an error for \(text.debugDescription)")
    } catch {
      #expect(error.line == line, "\(error)")
      #expect(error.message.contains(fragment), "\(error)")
      #expect(error.description.contains("line \(line):"))
    }
  }

  @Test("importance orders countries, towns, POIs, stations and benches")
  func importanceOrdering() throws {
    let rules = try loadRules()
    func score(_ tags: [String: String]) -> UInt16 {
      Importance.score(tags: tags, classification: rules.classify(tags))
    }
    let country = score(["place": "country", "name": "Liechtenstein"])
    let countryBoundary = score([
      "boundary": "administrative", "admin_level": "2", "name": "Liechtenstein",
    ])
    let town = score(["place": "town", "name": "Vaduz"])
    let village = score(["place": "village", "name": "Planken"])
    let bakery = score(["shop": "bakery", "name": "Beck"])
    let station = score(["railway": "station", "name": "Schaan-Vaduz"])
    let bench = score(["amenity": "bench", "name": "Bench"])
    let route = score(["highway": "residential", "name": "Städtle"])
    let address = score(["addr:housenumber": "1", "addr:street": "Städtle"])
    #expect(country > town)
    #expect(countryBoundary > town)
    #expect(town > village)
    #expect(village > bakery)
    #expect(town > bakery)
    #expect(station > bench)
    #expect(station > bakery)
    // As in Nominatim's place ranks: a street before a shop of the same standing; a stop
    // below the station and the street it is named after.
    let stop = score(["highway": "bus_stop", "name": "Vaduz Post"])
    #expect(route > bakery)
    #expect(route > address)
    #expect(address > bench)
    #expect(station > stop)
    #expect(route > stop)
    #expect(bakery > stop)

    let withWikidata = score(["shop": "bakery", "name": "Beck", "wikidata": "Q1"])
    #expect(withWikidata > bakery)
    let withWikipedia = score([
      "shop": "bakery", "name": "Beck", "wikidata": "Q1", "wikipedia": "de:Beck",
    ])
    #expect(withWikipedia > withWikidata)
    let withNames = score(["shop": "bakery", "name": "Beck", "name:en": "Baker", "name:fr": "B"])
    #expect(withNames > bakery)
    let bigTown = score(["place": "town", "name": "A", "population": "150,000"])
    let smallTown = score(["place": "town", "name": "B", "population": "5000"])
    #expect(bigTown > smallTown)
    #expect(smallTown > town)
    #expect(score(["place": "town", "population": "many"]) == town)
    #expect(Importance.score(tags: [:], classification: nil) == 0)
    let everything = Importance.score(
      tags: [
        "place": "country", "population": "9999999999", "wikidata": "Q1", "wikipedia": "en:X",
      ].merging((0..<100).map { ("name:l\($0)", "x") }) { a, _ in a },
      classification: rules.classify(["place": "country"]))
    #expect(everything > country)
  }

  @Test func aBareAddressWeighsItsHouseNumber() throws {
    let rules = try loadRules()
    func score(_ tags: [String: String]) -> UInt16 {
      Importance.score(tags: tags, classification: rules.classify(tags))
    }
    func address(_ number: String) -> [String: String] {
      ["addr:street": "Hohensteinstraße", "addr:housenumber": number]
    }
    // Lower numbers first, letters and ranges by their leading number.
    let numbers = ["1", "2", "8", "10", "76", "999", "12000"].map { score(address($0)) }
    #expect(numbers == numbers.sorted(by: >))
    #expect(Set(numbers).count == numbers.count)
    #expect(score(address("8a")) == score(address("8")))
    #expect(score(address("8-10")) == score(address("8")))
    // No number to read: as a number past every weight.
    #expect(score(address("A")) == score(address("12000")))
    #expect(Int(score(address("1"))) - Int(score(address("A"))) == 400)
    // A building with an address stays above an address point, whatever their numbers; a
    // named place at an address does not weigh its number.
    #expect(
      score(address("9999").merging(["building": "yes"]) { a, _ in a }) > score(address("1")))
    let shop = ["shop": "bakery", "name": "Beck"]
    #expect(
      score(shop.merging(address("1")) { a, _ in a })
        == score(shop.merging(address("76")) { a, _ in a }))
  }

  @Test(
    "most named elements of the Helsinki extract classify",
    .enabled(if: FileManager.default.fileExists(atPath: helsinkiExtract.path)))
  func helsinkiCoverage() throws {
    let rules = try loadRules()
    let text = try String(contentsOf: helsinkiExtract, encoding: .utf8)
    var named = 0
    var classified = 0
    var candidates = 0
    var classifiedCandidates = 0
    var unmapped: [String: Int] = [:]
    for element in OSMTextScanner.elements(in: text) where element.tags["name"] != nil {
      named += 1
      let ok = rules.classify(element.tags) != nil
      if ok { classified += 1 }
      // Relations other than areas (routes, route masters, sites) do not become places.
      let isPlaceCandidate =
        element.kind != "relation"
        || ["multipolygon", "boundary"].contains(element.tags["type"] ?? "")
      guard isPlaceCandidate else { continue }
      candidates += 1
      if ok {
        classifiedCandidates += 1
      } else if let key = rules.unmatchedKey(element.tags) {
        unmapped[key, default: 0] += 1
      }
    }
    let share = Double(classifiedCandidates) / Double(max(candidates, 1))
    let allShare = Double(classified) / Double(max(named, 1))
    print(
      "Helsinki: \(classifiedCandidates) of \(candidates) named place candidates classify"
        + " (\(String(format: "%.1f", share * 100))%); \(classified) of \(named) named elements"
        + " including route relations (\(String(format: "%.1f", allShare * 100))%)")
    let top = unmapped.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    #expect(named > 2_000)
    #expect(
      share > 0.95,
      "top unmapped: \(top.prefix(20).map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    #expect(allShare > 0.88)
  }
}

/// A line-based reader of OSM XML as osmium writes it: one element or tag per line.
private enum OSMTextScanner {
  struct Element {
    var kind: String
    var tags: [String: String]
  }

  static func elements(in text: String) -> [Element] {
    var result: [Element] = []
    var current: Element?
    for rawLine in text.split(separator: "\n") {
      let line = rawLine.drop { $0 == " " || $0 == "\t" }
      if line.hasPrefix("<tag ") {
        if let key = attribute("k", in: line), let value = attribute("v", in: line) {
          current?.tags[key] = value
        }
      } else if let kind = ["node", "way", "relation"].first(where: {
        line.hasPrefix("<\($0) ") || line.hasPrefix("<\($0)>")
      }) {
        if line.hasSuffix("/>") {
          result.append(Element(kind: kind, tags: [:]))
        } else {
          current = Element(kind: kind, tags: [:])
        }
      } else if line.hasPrefix("</node>") || line.hasPrefix("</way>")
        || line.hasPrefix("</relation>")
      {
        if let element = current { result.append(element) }
        current = nil
      }
    }
    return result
  }

  /// The unescaped value of attribute `name` in a tag line.
  static func attribute(_ name: String, in line: Substring) -> String? {
    for quote in ["\"", "'"] {
      guard let start = line.range(of: " \(name)=\(quote)") else { continue }
      let rest = line[start.upperBound...]
      guard let end = rest.firstIndex(of: Character(quote)) else { return nil }
      return unescape(rest[..<end])
    }
    return nil
  }

  static func unescape(_ text: Substring) -> String { XMLText.unescape(text) }
}
