import Foundation
import PlaceCore
@_spi(Testing) import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// The hard-case fixture, built once.
let hardCases: Result<String, Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("hard.placeidx").path
  let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hard-addresses.osm").path
  _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
    IndexBuilder.Options(extract: fixture, output: out))
  return out
}

@Suite struct HardAddressTests {
  static let cases: [(String, String, [String])] = [
    (
      "N2", "Stroupežnického 3191/17",
      [
        "Stroupežnického 3191/17, Praha", "stroupeznickeho 3191/17", "stroupeznickeho 3191",
        "stroupeznickeho 17", "3191/17 praha", "3191 stroupez",
      ]
    ),
    (
      "N4", "23-30 29th Street",
      [
        "23-30 29th St, Queens", "23-30 29th street", "23-30 29th", "29th st 23-30 queens",
        "23 30 29th",
      ]
    ),
    (
      "N6", "47-380 Kamehameha Highway",
      ["47-380 Kamehameha Hwy", "47-380 kamehameha", "kamehameha hwy 47-380", "47 380 kameha"]
    ),
    (
      "N7", "Kanalstrasse 18",
      ["kanalstr 18", "18 kanalstrasse", "Kanalstraße 18", "kanal 18", "kanalstr. 18 vaduz"]
    ),
  ]

  @Test(arguments: 0..<cases.count)
  func foundByTheFullFormAndByItsParts(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try hardCases.get()])
    let (id, primary, queries) = HardAddressTests.cases[i]
    for q in queries {
      let s = try client.autocompleteSuggestions(for: AutocompleteRequest(query: q)).compactMap(
        \.placeSuggestion)
      #expect(s.first?.placeID == id, "'\(q)' gave \(s.map(\.fullText.text))")
      if s.first?.placeID == id { #expect(s.first?.primaryText.text == primary) }
    }
  }

  /// A city without a letter is a tagging mistake (the house number typed twice): the place
  /// takes the town it lies in.
  @Test func aCityWithoutLettersIsNotTheLocality() throws {
    let client = try PlacesClient(indexPaths: [try hardCases.get()])
    let s = try #require(
      try client.autocompleteSuggestions(for: AutocompleteRequest(query: "salon vlasta")).first?
        .placeSuggestion)
    #expect(s.placeID == "N8")
    #expect(s.secondaryText.text == "Vinohradská 7, 12000 Praha, Czechia")
  }

  @Test func addressesFollowTheCountryConvention() throws {
    let client = try PlacesClient(indexPaths: [try hardCases.get()])
    let li = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "N7", placeProperties: [.formattedAddress]))
    #expect(li.formattedAddress == "Kanalstrasse 18, 9490 Vaduz, Liechtenstein")
    let us = try client.fetchPlace(
      with: FetchPlaceRequest(
        placeID: "N4", placeProperties: [.formattedAddress, .addressComponents]))
    #expect(us.formattedAddress == "23-30 29th Street, Queens, NY 11105, USA")
    #expect(us.addressComponents?.first { $0.kind == .streetNumber }?.longText == "23-30")
    let cz = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "N2", placeProperties: [.addressComponents]))
    #expect(cz.addressComponents?.first { $0.kind == .streetNumber }?.longText == "3191/17")
    #expect(cz.addressComponents?.first { $0.kind == .country }?.shortText == "CZ")
  }

  @Test func highlightsAreOnTheDisplayedText() throws {
    let client = try PlacesClient(indexPaths: [try hardCases.get()])
    let s = try #require(
      client.autocompleteSuggestions(for: AutocompleteRequest(query: "kanalstraße 18")).first?
        .placeSuggestion)
    let text = Array(s.primaryText.text.unicodeScalars)
    let marked = s.primaryText.matches.map { String(String.UnicodeScalarView(text[$0])) }
    #expect(
      marked.contains("Kanalstrasse") || marked.contains { $0.hasPrefix("Kanalstr") }, "\(marked)")
    #expect(marked.contains("18"))
  }
}

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct RealAddressTests {
  @Test func liechtensteinAddressesAreFoundByThreeTypings() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    // Every 7th place by rank that is an address on a "…strasse" street in Liechtenstein.
    let index = try #require(client.indexes.first)
    var found: [(id: String, street: String, number: String)] = []
    for rank in stride(from: 0, to: index.placeCount, by: 7) where found.count < 12 {
      let id = try index.placeIDForTesting(rank: rank)
      let p = try client.fetchPlace(
        with: FetchPlaceRequest(placeID: id, placeProperties: [.types, .addressComponents]))
      guard p.types?.first == "street_address", let c = p.addressComponents,
        c.first(where: { $0.kind == .country })?.shortText == "LI",
        let street = c.first(where: { $0.kind == .route })?.longText,
        street.lowercased().hasSuffix("strasse"),
        !street.contains(" "), let hn = c.first(where: { $0.kind == .streetNumber })?.longText,
        hn.allSatisfy(\.isNumber)
      else { continue }
      found.append((id, street, hn))
    }
    var tried = 0
    var ok = 0
    var missed: [String] = []
    for (id, street, hn) in found {
      let stem = String(street.dropLast("strasse".count))
      let typings = [
        "\(street) \(hn)", "\(hn) \(street)", "\(stem)str \(hn)", "\(stem)straße \(hn)",
        "\(stem) \(hn)",
      ]
      for t in typings {
        tried += 1
        let r = try client.autocompleteSuggestions(for: AutocompleteRequest(query: t)).compactMap(
          \.placeSuggestion)
        if r.contains(where: { $0.placeID == id }) { ok += 1 } else { missed.append(t) }
      }
    }
    print("liechtenstein: \(ok) of \(tried) address typings found in the top 5")
    #expect(tried >= 25)
    #expect(ok == tried, "not found in the top 5: \(missed)")
  }

  @Test func bilingualHelsinkiNamesFindTheSamePlace() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    let text = try String(contentsOf: TestPaths.osm("helsinki-center-2019.osm"), encoding: .utf8)
    let re = try NSRegularExpression(
      pattern:
        #"<node id="(\d+)"[^>]*[^/]>((?:(?!</node>).)*?<tag k="name:fi" v="([^"]+)"/>(?:(?!</node>).)*?<tag k="name:sv" v="([^"]+)"/>(?:(?!</node>).)*?)</node>"#,
      options: [.dotMatchesLineSeparators])
    let ns = text as NSString
    var pairs: [(String, String, String)] = []
    for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
      let fi = ns.substring(with: m.range(at: 3))
      let sv = ns.substring(with: m.range(at: 4))
      if fi != sv && !fi.contains("&") && !sv.contains("&") {
        pairs.append(("N" + ns.substring(with: m.range(at: 1)), fi, sv))
      }
    }
    // Only names that are unique in the extract: several tram stops share a square's name.
    let nameCounts = try NSRegularExpression(pattern: #"<tag k="name(?::fi|:sv)?" v="([^"]+)"/>"#)
      .matches(in: text, range: NSRange(location: 0, length: ns.length))
      .reduce(into: [String: Int]()) { $0[ns.substring(with: $1.range(at: 1)), default: 0] += 1 }
    pairs = pairs.filter { (nameCounts[$0.1] ?? 0) <= 2 && (nameCounts[$0.2] ?? 0) <= 2 }
    try #require(pairs.count >= 20, "read \(pairs.count) bilingual nodes")
    var ok = 0
    var misses: [String] = []
    for (id, fi, sv) in pairs.prefix(40) {
      let a = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: fi, maxResultCount: 10))
      let b = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: sv, maxResultCount: 10))
      if a.contains(where: { $0.placeSuggestion?.placeID == id })
        && b.contains(where: { $0.placeSuggestion?.placeID == id })
      {
        ok += 1
      } else {
        misses.append(
          "\(id) \(fi) | \(sv): \(a.compactMap { $0.placeSuggestion?.placeID }) \(b.compactMap { $0.placeSuggestion?.placeID })"
        )
      }
    }
    print(
      "helsinki: \(ok) of \(min(40, pairs.count)) places found by both their Finnish and Swedish names"
    )
    #expect(Double(ok) / Double(min(40, pairs.count)) >= 0.9, "missed: \(misses)")
  }

  @Test func aStreetIsReturnedOnceAsARoute() throws {
    let client = try PlacesClient(indexPaths: [try helsinki.get().path])
    for street in ["Mannerheimintie", "Aleksanterinkatu", "Bulevardi"] {
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(
          query: street, filter: AutocompleteFilter(types: ["route"]), maxResultCount: 10)
      ).compactMap(\.placeSuggestion).filter { $0.primaryText.text == street }
      #expect(s.count == 1, "\(street): \(s.map(\.fullText.text))")
    }
  }
}
