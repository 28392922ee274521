import Testing

@testable import PlaceCore

@Suite struct TextNormalizationIndexTermsTests {
  let table = TextTestData.abbreviations

  @Test(arguments: [
    ("Zürich", ["zurich", "zuerich"]),
    ("Töölö", ["toolo", "toeoeloe"]),
    ("Tölö", ["tolo", "toeloe"]),
    ("Straße", ["strasse", "str"]),
    ("3191/17", ["3191/17", "3191", "17"]),
    ("23-30", ["23-30", "23", "30"]),
    ("47-380", ["47-380", "47", "380"]),
    ("1-4", ["1-4", "1", "4"]),
    ("12a", ["12a", "12"]),
    ("12 bis", ["12", "bis", "12bis"]),
    ("12 A", ["12", "a", "12a"]),
    ("29th", ["29th"]),
    ("Main Street", ["main", "street", "st"]),
    ("Main St", ["main", "st", "street"]),
    ("5th Ave", ["5th", "ave", "avenue"]),
    ("Kanalstrasse", ["kanalstrasse", "kanalstr", "kanal", "strasse"]),
    ("Kanalstraße", ["kanalstrasse", "kanalstr", "kanal", "strasse"]),
    ("Hauptstr.", ["hauptstr", "hauptstrasse", "haupt"]),
    ("Kanal Str. 18", ["kanal", "str", "strasse", "kanalstrasse", "18"]),
    ("Karl-Marx-Straße", ["karl", "marx", "strasse", "marxstrasse"]),
    ("Mühlenweg", ["muhlenweg", "muehlenweg", "muhlen", "muhlenw", "weg"]),
    ("Yrjönkatu", ["yrjonkatu", "yrjoenkatu", "yrjonk", "yrjon", "katu"]),
    ("Yrjönk. 5", ["yrjonk", "yrjonkatu", "yrjon"]),
    ("Mannerheimintie", ["mannerheimintie", "mannerheimint", "mannerheimin", "tie"]),
    ("Ahkeruuskuja", ["ahkeruuskuja", "ahkeruuskj", "ahkeruus", "kuja", "kj"]),
    ("Storgatan", ["storgatan", "storg", "stor", "gatan"]),
    ("Kungsvägen", ["kungsvagen", "kungsvaegen", "kungsv", "kungs", "vagen"]),
    ("Náměstí Míru", ["namesti", "nam", "miru"]),
    ("Vinohradská třída", ["vinohradska", "trida", "tr"]),
    ("Boulevard Saint-Germain", ["boulevard", "bd", "blvd", "saint", "st", "germain"]),
    ("Rue de l'Église", ["rue", "r", "leglise", "eglise"]),
    ("W 4th St", ["w", "west", "4th", "st", "street"]),
    ("Mt Washington", ["mt", "mount", "washington"]),
    ("Ft Lauderdale", ["ft", "fort"]),
    ("N Main", ["n", "north"]),
    ("Piazza Navona", ["piazza", "pza", "navona"]),
    ("Avenida Paulista", ["avenida", "av", "avda"]),
    ("Kalverstraat", ["kalverstraat", "kalverstr", "kalver", "straat"]),
    ("McDonald's", ["mcdonalds"]),
  ])
  func termsInclude(text: String, expected: [String]) {
    let terms = IndexTerms.terms(for: text, abbreviations: table)
    for term in expected {
      #expect(terms.contains(term), "\(text): \(term) missing from \(terms)")
    }
    #expect(Set(terms).count == terms.count, "duplicates in \(terms)")
  }

  @Test(arguments: [
    ("Dirk", "dirkatu"),
    ("Dirk", "dir"),
    ("Hamburg", "hamburgasse"),
    ("McDonald's", "s"),
    ("Zurich", "zuerich"),
    ("Mannerheimint", "mannerheimintie"),  // a one-letter glued abbreviation needs a period
  ])
  func termsExclude(text: String, unexpected: String) {
    let terms = IndexTerms.terms(for: text, abbreviations: table)
    #expect(!terms.contains(unexpected), "\(text): \(terms)")
  }

  @Test func wholeStreetWordsGetOnlyTheirAbbreviations() {
    #expect(IndexTerms.terms(for: "Strasse", abbreviations: table) == ["strasse", "str"])
    #expect(IndexTerms.terms(for: "Tie", abbreviations: table) == ["tie", "t"])
    #expect(
      IndexTerms.terms(for: "Mannerheimint.", abbreviations: table).contains("mannerheimintie"))
  }

  @Test(arguments: [
    (
      "Kanalstraße 18",
      ["kanalstr 18", "18 kanalstrasse", "Kanalstraße 18", "kanal 18", "kanal str"]
    ),
    ("Kanal Straße 18", ["kanalstrasse 18", "kanal str 18", "kanalstr"]),
    ("Hauptstr. 5", ["hauptstrasse 5", "Hauptstraße 5", "haupt 5", "hauptstr 5"]),
    ("Zürich", ["zurich", "zuerich", "ZÜRICH", "zür", "zue"]),
    ("Main Street", ["main st", "main street", "st main"]),
    ("Main St", ["main street", "main st"]),
    ("23-30 29th Street", ["23-30 29th st", "23-30", "29 st", "23 29th"]),
    ("Stroupežnického 3191/17", ["stroupeznickeho 3191/17", "3191/17", "3191", "17", "stroup"]),
    ("Yrjönkatu 5", ["yrjonkatu 5", "yrjonk 5", "yrjon 5", "yrjoenkatu", "Yrjönk. 5"]),
    ("Rue de l'Église", ["eglise", "rue eglise", "r de l'eglise"]),
  ])
  func queriesMatchByPrefix(text: String, queries: [String]) {
    let terms = IndexTerms.terms(for: text, abbreviations: table)
    for query in queries {
      #expect(textQueryMatches(query, terms: terms), "\(query) should match \(text): \(terms)")
    }
  }

  @Test func nonMatchingQueries() {
    let terms = IndexTerms.terms(for: "Kanalstraße 18", abbreviations: table)
    #expect(!textQueryMatches("kanalweg", terms: terms))
    #expect(!textQueryMatches("19", terms: terms))
    let zurich = IndexTerms.terms(for: "Zürich", abbreviations: table)
    #expect(!textQueryMatches("zurech", terms: zurich))
  }

  @Test func kindsDescribeDerivation() {
    let terms = IndexTerms.tokenTerms(for: "Hauptstraße 3191/17", abbreviations: table)
    #expect(terms.count == 2)
    let street = terms[0].terms
    #expect(street.first == IndexTerm(text: "hauptstrasse", kind: .primary))
    #expect(street.contains(IndexTerm(text: "strasse", kind: .segment(offset: 5))))
    #expect(street.contains(IndexTerm(text: "hauptstr", kind: .variant)))
    let number = terms[1].terms
    #expect(number.contains(IndexTerm(text: "17", kind: .segment(offset: 5))))
    let zurich = IndexTerms.tokenTerms(for: "Zürich", abbreviations: table)[0].terms
    #expect(
      zurich == [.init(text: "zurich", kind: .primary), .init(text: "zuerich", kind: .alternate)])
  }

  @Test func emptyTableGivesFoldsAndParts() {
    let terms = IndexTerms.terms(for: "Zürich Main St 3191/17", abbreviations: .empty)
    #expect(terms == ["zurich", "zuerich", "main", "st", "3191/17", "3191", "17"])
    #expect(IndexTerms.terms(for: "", abbreviations: table).isEmpty)
    #expect(IndexTerms.terms(for: " ,;- ", abbreviations: table).isEmpty)
  }

  @Test func termsAreDeterministic() {
    let text = "Karl-Marx-Straße 12a, 9490 Vaduz"
    #expect(
      IndexTerms.terms(for: text, abbreviations: table)
        == IndexTerms.terms(for: text, abbreviations: table))
  }
}
