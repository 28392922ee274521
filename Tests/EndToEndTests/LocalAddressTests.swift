import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// House numbers and street types as people write them locally, on the fixture's addresses.
@Suite struct LocalAddressFormTests {
  static let cases: [(query: String, id: String)] = [
    ("Гончарова 17к1", "N11"), ("Гончарова 17 к1", "N11"), ("улица Гончарова 17к1", "N11"),
    ("Гончарова 17А к1", "N12"), ("гончарова 17а к1", "N12"), ("Гончарова 17с2", "N13"),
    ("Гончарова 17 с2", "N13"), ("Гончарова д. 5", "N14"), ("ул. Гончарова, д. 5", "N14"),
    ("улица Гончарова дом 5", "N14"), ("2-я Новоостанкинская улица 2", "N15"),
    ("2-я Новоостанкинская 12", "N16"), ("keskuskatu 1 a", "N20"), ("keskuskatu 1a", "N20"),
    ("Keskuskatu 1 b", "N22"), ("keskuskatu 1b", "N22"), ("rue de la paix 12 bis", "N23"),
    ("rue de la paix 12bis", "N23"), ("rue victor hugo 12b", "N25"),
    ("rue victor hugo 12 b", "N25"), ("Stroupežnického 3191/17", "N26"),
    ("stroupeznickeho 3191/17 praha", "N26"), ("P.za Venezia 5", "N28"),
    ("p.za venezia", "N28"), ("V.le di Trastevere 10", "N29"), ("V.le Trastevere", "N29"),
    ("C.so Vittorio Emanuele II 3", "N30"), ("Pça. da Sé 100", "N31"), ("Pça da Sé", "N31"),
  ]

  @Test(arguments: 0..<cases.count)
  func theAddressAsWrittenComesFirst(_ i: Int) throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let (query, id) = Self.cases[i]
    let s = try placeSuggestions(client, query)
    #expect(s.first?.placeID == id, "'\(query)' gave \(s.prefix(5).map(\.fullText.text))")
  }

  /// A number after an ordinal street name is the housenumber, not the ordinal again: the
  /// street's other addresses (12, 20, 2с1) and the street come after house 2.
  @Test func theOrdinalDoesNotTakeTheHousenumber() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let s = try placeSuggestions(client, "2-я Новоостанкинская улица 2")
    #expect(s.first?.placeID == "N15")
    #expect(s.first?.primaryText.text == "2-я Новоостанкинская улица 2")
    #expect(s.first?.primaryText.matches == [0..<3, 4..<20, 21..<26, 27..<28])
  }

  /// The highlight of a housenumber part lies on the part typed.
  @Test func aBlockTypedApartHighlightsInTheNumber() throws {
    let client = try PlacesClient(indexPaths: [try scriptsIndex.get()])
    let s = try #require(try placeSuggestions(client, "Гончарова 17 к1").first)
    #expect(s.primaryText.text == "улица Гончарова 17к1")
    #expect(s.primaryText.matches == [6..<15, 16..<20])
  }
}
