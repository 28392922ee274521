import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

let campoGrande: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("campo-grande-2013.osm.gz")
}

let krems: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("krems-2013.osm.gz")
}

let bayfront: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("bayfront-singapore-2019.osm.gz")
}

let baltimore: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("baltimore-2015.osm.gz")
}

/// Answers a local would expect, on the shared extracts (issue #21's list): a street above the
/// tram stop named after it, a university above the metro station named after it, a station
/// mapped as several nodes shown once, a shop mapped twice at one address shown once, a name
/// typed as it is above one reached by a typo. Each asserts the position of a place by its
/// OSM ID, as a local would rank it.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct LocalAnswerTests {
  func top(
    _ index: Result<(path: String, report: BuildReport), Error>, _ q: String,
    _ f: AutocompleteFilter = AutocompleteFilter()
  ) throws -> [AutocompletePlaceSuggestion] {
    let c = try PlacesClient(indexPaths: [try index.get().path])
    return try c.autocompleteSuggestions(
      for: AutocompleteRequest(query: q, filter: f, maxResultCount: 5)
    )
    .compactMap(\.placeSuggestion)
  }

  /// The 1-based position of `id` in `s`, or nil.
  func position(_ id: String, _ s: [AutocompletePlaceSuggestion]) -> Int? {
    s.firstIndex { $0.placeID == id }.map { $0 + 1 }
  }

  func listing(_ s: [AutocompletePlaceSuggestion]) -> String {
    s.map { "\($0.placeID) \($0.types.first ?? "") \($0.fullText.text)" }.joined(
      separator: " | ")
  }

  /// A postcode typed whole is the postcode (derived from the addresses that carry it: no
  /// element maps it), then the places in it; its digits' prefix shows the postcodes first.
  @Test(arguments: [
    ("00100", "Helsinki, Finland"), ("21224", "MD, USA"), ("9490", "Vaduz, Liechtenstein"),
  ])
  func aPostcodeComesFirstForItsCode(code: String, secondary: String) throws {
    let index = code == "00100" ? helsinki : code == "21224" ? baltimore : liechtenstein
    let s = try top(index, code)
    let first = try #require(s.first, "nothing for \(code)")
    #expect(first.types.first == "postal_code" && first.placeID.hasPrefix("P"), "\(listing(s))")
    #expect(first.primaryText.text == code && first.secondaryText.text.hasSuffix(secondary))
    // The places after it carry the code in their address: none is another postcode.
    #expect(s.dropFirst().allSatisfy { $0.types.first != "postal_code" }, "\(listing(s))")
    #expect(s.dropFirst().allSatisfy { $0.secondaryText.text.contains(code) }, "\(listing(s))")
    let prefix = try top(index, String(code.dropLast(2)))
    #expect(prefix.first?.types.first == "postal_code", "\(listing(prefix))")
    #expect(prefix.contains { $0.placeID == first.placeID }, "\(listing(prefix))")
  }

  @Test func aStreetComesBeforeTheTramStopNamedAfterIt() throws {
    // Kaisaniemenkatu: the street (W17000361) first; its tram stop (N177934965, mapped twice)
    // after it, if shown.
    let s = try top(helsinki, "kaisaniemenkatu")
    #expect(position("W17000361", s) == 1, "\(listing(s))")
    if let stop = position("N177934965", s) { #expect(stop > 1) }
  }

  @Test func aUniversityComesBeforeTheMetroStationNamedAfterIt() throws {
    // "Helsingin yliopisto" is the university (W446178813); the metro station of that name,
    // mapped as five nodes around its entrances, comes after it, and once.
    let s = try top(helsinki, "helsingin yliopisto")
    #expect(position("W446178813", s) == 1, "\(listing(s))")
    let stations = s.filter {
      $0.types.first == "subway_station" && $0.primaryText.text == "Helsingin yliopisto"
    }
    #expect(stations.count == 1, "\(listing(s))")
    // "Metro Helsingin yliopisto" (N189427137) is that station too: one subway station in all.
    #expect(s.filter { $0.types.first == "subway_station" }.count == 1, "\(listing(s))")
    // Folding the station's nodes still leaves a full page: the search goes deeper.
    #expect(s.count == 5, "\(listing(s))")
  }

  @Test func aStreetComesBeforeTheStationsNamedAfterItsCorners() throws {
    // "houston st": East Houston Street (W23) first; the subway stations "1 Avenue & Houston
    // St" (N10178) and "Allen St & Houston St" (N10179) after it.
    let s = try top(manhattan, "houston st")
    #expect(position("W23", s) == 1, "\(listing(s))")
    for station in ["N10178", "N10179"] {
      if let p = position(station, s) { #expect(p > 1) }
    }
  }

  @Test func aNameThatStartsWithTheTypedWordComesBeforeOneThatHasItInside() throws {
    // "Lönn" 100 m from Lönnrotinkatu 13: the street (W37142311) first, and its nearest
    // addresses 16 and 15 (N311746594, N311747737, 250-260 m) in the top 5, before the
    // sculpture "Elias Lönnrot" (N60133671) and the hotel "Omenahotelli Lönnrotinkatu"
    // (N648249324), whose names only carry the word.
    let near = AutocompleteFilter(origin: Coordinate(latitude: 60.166395, longitude: 24.931496))
    let s = try top(helsinki, "Lönn", near)
    #expect(position("W37142311", s) == 1, "\(listing(s))")
    for id in ["N311746594", "N311747737"] {
      #expect(position(id, s) != nil, "\(id): \(listing(s))")
    }
    for id in ["N60133671", "N648249324"] { #expect(position(id, s) == nil, "\(listing(s))") }
    // "E" on East 2nd Street, Manhattan: East 3rd and 4th Street (W1801, W1800) in the top 5,
    // the school "Lower East Side Preparatory High School" (R41) not.
    let e = try top(
      manhattan, "E",
      AutocompleteFilter(origin: Coordinate(latitude: 40.721622, longitude: -73.983357)))
    for id in ["W1801", "W1800"] { #expect(position(id, e) != nil, "\(id): \(listing(e))") }
    #expect(position("R41", e) == nil, "\(listing(e))")
  }

  @Test func aBiasCircleMovesAQueryForAKindOfPlace() throws {
    // "hotel" with a 500 m circle at Hakaniemi: the three hotels inside it, Scandic Hakaniemi
    // (N701305091, 82 m), Scandic Paasi (N1930869351, 176 m) and Hilton Strand (N55211772,
    // 207 m), none named "Hotel", come before the hotels named so 700 m and more away.
    let center = Coordinate(latitude: 60.1790, longitude: 24.9510)
    let f = AutocompleteFilter(
      coordinateRegionBias: .circle(center: center, radiusMeters: 500))
    let s = try top(helsinki, "hotel", f)
    for id in ["N701305091", "N1930869351", "N55211772"] {
      let p = position(id, s)
      #expect(p != nil && p! <= 3, "\(id): \(listing(s))")
    }
    // Without the circle they are not in the top 5: the names win there.
    let plain = try top(helsinki, "hotel")
    #expect(plain.count == 5)
    #expect(!plain.contains { $0.placeID == "N701305091" }, "\(listing(plain))")
  }

  @Test func theCentralStationComesBeforeTheTramStopBesideIt() throws {
    // "rautatieasema" (railway station): the central station (N25389429, named "Helsinki",
    // found by its other name) first; the tram stop "Rautatieasema (M)" (N25502085) beside it
    // after it.
    let s = try top(helsinki, "rautatieasema")
    #expect(position("N25389429", s) == 1, "\(listing(s))")
    let stop = try #require(position("N25502085", s), "\(listing(s))")
    #expect(stop > 1)
  }

  @Test func aStationOfManyNodesIsShownOnce() throws {
    // Delancey Street–Essex Street is one station mapped as a node per line and entrance
    // ("(J,M,F)", "(J,M,Z,F)", …): one suggestion, not four.
    let s = try top(manhattan, "essex")
    let station = s.filter {
      $0.types.first == "subway_station" && $0.primaryText.text.hasPrefix("Delancey Street")
    }
    #expect(station.count == 1, "\(listing(s))")
    #expect(s.count >= 3, "\(listing(s))")
  }

  @Test func aShopMappedTwiceAtOneAddressIsShownOnce() throws {
    // Duane Reade at 100 Delancey Street is mapped as a drugstore (N11184) and a pharmacy
    // (N11185); the other Duane Reade (N9943, 194 East 2nd Street) is another shop.
    let s = try top(manhattan, "duane reade")
    let delancey = s.filter { $0.secondaryText.text.hasPrefix("100 Delancey Street") }
    #expect(delancey.count == 1, "\(listing(s))")
    #expect(position("N9943", s) != nil, "\(listing(s))")
  }

  @Test func aNameTypedAsItIsComesBeforeATypoMatch() throws {
    // "kauppah" is the start of Vanha Kauppahalli (W123814071), not a typo of Kauppatori.
    let s = try top(helsinki, "kauppah")
    #expect(position("W123814071", s) == 1, "\(listing(s))")
    // The typo matches are still shown (Kauppatori, R2919185), after it.
    let typo = try #require(position("R2919185", s), "\(listing(s))")
    #expect(typo > 1)
  }

  @Test func aStreetComesBeforeTheStationOfItsName() throws {
    // "Grand Street" is the street (W49); the subway station Grand Street (N226) after it.
    let s = try top(manhattan, "grand street")
    #expect(position("W49", s) == 1, "\(listing(s))")
    #expect(position("N226", s).map { $0 > 1 } ?? true, "\(listing(s))")
  }

  @Test func aStreetComesBeforeABikeStationNamedAfterIt() throws {
    // Mannerheimvägen is the Swedish name of Mannerheimintie (W22906934), not of the city-bike
    // station "Mannerheimintie kaupunkipyöräasema" (N4811014442).
    let s = try top(helsinki, "mannerheimvägen")
    #expect(position("W22906934", s) == 1, "\(listing(s))")
  }

  @Test func aParkComesBeforeTheBusStopNamedLikeIt() throws {
    // "Esplanadi" is the park Esplanadinpuisto (W28328802) before the bus stop Esplanadi
    // (N337798943).
    let s = try top(helsinki, "esplanadi")
    let park = try #require(position("W28328802", s), "\(listing(s))")
    #expect(park == 1, "\(listing(s))")
    if let stop = position("N337798943", s) { #expect(stop > park) }
  }

  @Test func aPlaceNamedAsTypedComesBeforeANameThatHoldsTheWordInALongerOne() throws {
    // "Tristel" is the bus stop Tristel (N984725135); the street Tristelstrasse (W43341018)
    // holds the word only inside a longer word, and comes after it.
    let s = try top(liechtenstein, "Tristel")
    #expect(position("N984725135", s) == 1, "\(listing(s))")
    let street = try #require(position("W43341018", s), "\(listing(s))")
    #expect(street > 1)
    // "Rütti" near Planken: the area Rütti (N4554296317) before the nearer streets
    // Rüttistrasse (W4904154) and Rüttiwaldstrasse (W8154751).
    let near = try top(
      liechtenstein, "Rütti",
      AutocompleteFilter(origin: Coordinate(latitude: 47.173411, longitude: 9.54187)))
    #expect(position("N4554296317", near) == 1, "\(listing(near))")
    #expect(position("W4904154", near) != nil, "\(listing(near))")
    // "Avenue A" is Avenue A (W103), before 2nd Avenue (W14), whose one word "avenue" both
    // typed words only reach.
    let avenue = try top(manhattan, "Avenue A")
    let a = try #require(position("W103", avenue), "\(listing(avenue))")
    if let second = position("W14", avenue) { #expect(a < second, "\(listing(avenue))") }
  }

  @Test func aNeighbourhoodComesBeforeABarePointOfInterestOfItsName() throws {
    // "Fells Point" is the neighbourhood (N157562330); the point of interest of that name in
    // it (N1919120937), of no more specific type, is no landmark whose grounds it is. Also
    // when typed with a typo.
    for query in ["Fells Point", "Fejls Point"] {
      let s = try top(baltimore, query)
      #expect(position("N157562330", s) == 1, "\(query): \(listing(s))")
      if let poi = position("N1919120937", s) { #expect(poi > 1) }
    }
  }

  @Test func aCastleComesBeforeItsGrounds() throws {
    // Schloss Vaduz is the castle (R1252853); the neighbourhood of that name around it
    // (W651764121) after it.
    let s = try top(liechtenstein, "schloss vaduz")
    #expect(position("R1252853", s) == 1, "\(listing(s))")
  }

  @Test func aWordThatMatchesNothingIsLeftOut() throws {
    // "zparima" is no word of the extract, not within a typo and inside none: it is the word
    // left out, and Rua Serra Parima (W154247167) is among the streets that carry the others,
    // though "rua" is every street's word (the two cheapest words hold thousands of places).
    let s = try top(campoGrande, "Rua Serra ZParima")
    #expect(position("W154247167", s) != nil, "\(listing(s))")
    #expect(s.allSatisfy { $0.primaryText.text.contains("Serra") }, "\(listing(s))")
  }

  @Test func anEntranceTypedByItsLetterIsShown() throws {
    // "Bayfront (CCL/DTL) Exit B" (N1192) is one of four entrances of one station, named
    // alike but for the letter after the lines; typed with its letter, it is shown, not
    // folded into Exit D as the same station.
    let s = try top(bayfront, "Bayfront Exit B")
    #expect(position("N1192", s) != nil, "\(listing(s))")
    // The nodes of one entrance are still one: no name is shown twice.
    #expect(Set(s.map(\.fullText.text)).count == s.count, "\(listing(s))")
  }

  @Test func aStreetsAddressesComeInTheOrderOfTheirNumbers() throws {
    // "Hohensteinstraße": the street first, then its addresses, each kind (buildings, then
    // address points) lowest number first, as a street's addresses are read.
    let c = try PlacesClient(indexPaths: [try krems.get().path])
    let s = try c.autocompleteSuggestions(
      for: AutocompleteRequest(query: "Hohensteinstraße", maxResultCount: 10)
    ).compactMap(\.placeSuggestion)
    #expect(s.first?.types.first == "route", "\(listing(s))")
    let addresses = s.filter { $0.types.first == "premise" }
      .compactMap { Int($0.primaryText.text.split(separator: " ").last ?? "") }
    try #require(addresses.count >= 4, "\(listing(s))")
    #expect(addresses == addresses.sorted(), "\(listing(s))")
  }

  @Test func aPlaceAtAnAddressTypedWholeComesBeforeTheNumbersItStarts() throws {
    // "Bergstrasse 1" is the Rathaus at that address (W297699576), whose name carries neither
    // word; the bare addresses Bergstrasse 175, 12, 14 that "1" only starts come after it.
    let s = try top(liechtenstein, "Bergstrasse 1")
    #expect(position("W297699576", s) == 1, "\(listing(s))")
    let c = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    let explained = try c.explainedSuggestions(
      for: AutocompleteRequest(query: "Bergstrasse 1", maxResultCount: 5))
    #expect(explained.first?.breakdown.wholeAddress == true, "\(explained.map(\.breakdown))")
    #expect(explained.dropFirst().allSatisfy { !$0.breakdown.wholeAddress })
    // "Kaivokatu 1" is the central station: its node and its building are both at the top.
    let k = try top(helsinki, "Kaivokatu 1")
    #expect(position("N25389429", k) == 1, "\(listing(k))")
    #expect((position("W122595198", k) ?? 99) <= 3, "\(listing(k))")
  }

  @Test(arguments: ["East 2", "East 2nd"])
  func anOrdinalTypedNamesTheStreetNotAHouseNumber(query: String) throws {
    // Near the shops of East 2nd Street (188, 194, 209 East 2nd Street), "East 2nd" is that
    // street: its "2nd" (and the "2" it starts) is no house number, so the shops' addresses
    // are not addresses typed whole.
    let f = AutocompleteFilter(origin: Coordinate(latitude: 40.721622, longitude: -73.983357))
    let s = try top(manhattan, query, f)
    #expect(position("W20", s) == 1, "\(listing(s))")
    let c = try PlacesClient(indexPaths: [try manhattan.get().path])
    let explained = try c.explainedSuggestions(
      for: AutocompleteRequest(query: query, filter: f, maxResultCount: 5))
    try #require(explained.count == 5)
    #expect(explained.allSatisfy { !$0.breakdown.wholeAddress }, "\(explained.map(\.breakdown))")
  }

  @Test func anOrdinalStreetWithItsHouseNumberIsAnAddressTypedWhole() throws {
    // "East 2nd Street 188": the ordinal is no second number, so the number typed is the
    // only one and the gallery at 188 East 2nd Street (N11456), whose name carries none of the
    // words, is that address typed whole.
    let f = AutocompleteFilter(origin: Coordinate(latitude: 40.721622, longitude: -73.983357))
    let c = try PlacesClient(indexPaths: [try manhattan.get().path])
    let explained = try c.explainedSuggestions(
      for: AutocompleteRequest(query: "East 2nd Street 188", filter: f, maxResultCount: 5))
    #expect(explained.first?.suggestion.placeID == "N11456", "\(explained.map(\.breakdown))")
    #expect(explained.first?.breakdown.wholeAddress == true)
  }

  @Test func oneLetterStartsAStreetBeforeItIsAnInitial() throws {
    // Typing "e" with nothing after it: the "E" of "E Houston St" and the "e" that abbreviates
    // "East" count as a prefix, like every other word starting with e; the names made of
    // one-letter words do not all come first.
    let s = try top(manhattan, "e")
    try #require(s.count == 5)
    let c = try PlacesClient(indexPaths: [try manhattan.get().path])
    let explained = try c.explainedSuggestions(
      for: AutocompleteRequest(query: "e", maxResultCount: 5))
    try #require(explained.count == 5)
    for e in explained {
      #expect(e.breakdown.words.first?.match == "prefix", "\(e.breakdown)")
    }
    // Typed on ("e "), the word is finished and the whole word counts again.
    let finished = try c.explainedSuggestions(
      for: AutocompleteRequest(query: "e ", maxResultCount: 5))
    #expect(finished.contains { $0.breakdown.words.first?.match == "whole word" })
  }
}
