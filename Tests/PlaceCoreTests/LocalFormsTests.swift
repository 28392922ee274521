import Testing

@testable import PlaceCore

/// Tokens and index terms of house numbers and abbreviations as written locally.
@Suite struct LocalFormsTests {
  @Test func innerPeriodsOfShortAbbreviationsAreDropped() {
    #expect(Tokenizer.tokens("P.za Venezia").map(\.text) == ["pza", "venezia"])
    #expect(Tokenizer.tokens("V.le Trastevere").map(\.text) == ["vle", "trastevere"])
    #expect(Tokenizer.tokens("Pça. da Sé").map(\.text) == ["pca", "da", "se"])
    // Initials and longer words stay apart.
    #expect(Tokenizer.tokens("J.S. Bach").map(\.text) == ["j", "s", "bach"])
    #expect(Tokenizer.tokens("Set L.E.").map(\.text) == ["set", "l", "e"])
    #expect(Tokenizer.tokens("S.Maria").map(\.text) == ["s", "maria"])
    #expect(Tokenizer.tokens("St.Gallen").map(\.text) == ["st", "gallen"])
    #expect(Tokenizer.tokens("example.com").map(\.text) == ["example", "com"])
  }

  @Test func russianOrdinalsStayOneToken() {
    #expect(
      Tokenizer.tokens("2-я Новоостанкинская улица 2").map(\.text) == [
        "2-я", "новоостанкинская", "улица", "2",
      ])
    #expect(Tokenizer.tokens("3-го Интернационала").map(\.text) == ["3-го", "интернационала"])
    // Not a short ending, or not Cyrillic: split as before.
    #expect(Tokenizer.tokens("5-этажный").map(\.text).first == "5")
    #expect(Tokenizer.tokens("3-D").map(\.text) == ["3", "d"])
  }

  func terms(_ text: String) -> [String] {
    IndexTerms.terms(for: text, abbreviations: .empty)
  }

  @Test func housenumberParts() {
    #expect(Set(terms("17к1")).isSuperset(of: ["17к1", "17", "к1", "1"]))
    #expect(Set(terms("17с2")).isSuperset(of: ["17с2", "17", "с2", "2"]))
    // The letter of "1a" is a context term of its address (PlaceAssembler), not a name term.
    #expect(Set(terms("1a")) == ["1a", "1"])
    #expect(Set(terms("12bis")).isSuperset(of: ["12bis", "12", "bis"]))
    #expect(Set(terms("17 к1")).isSuperset(of: ["17к1"]))
    #expect(Set(terms("17 А")).isSuperset(of: ["17а"]))
    // The ordinal gives its ending and glued form, not its number.
    #expect(Set(terms("2-я")) == ["2-я", "я", "2я"])
    // English ordinals give no "st"/"th" of their own, nor their number: every address on
    // East 2nd Street would otherwise carry a house number 2.
    #expect(Set(terms("1st")) == ["1st"])
    #expect(Set(terms("29th")) == ["29th"])
    #expect(Set(terms("103rd")) == ["103rd"])
  }

  /// Ordinals of a street's name against the numbers and words beside them.
  @Test(arguments: [
    ("1st", true), ("2nd", true), ("103rd", true), ("4th", true), ("2-я", true), ("1-й", true),
    ("3-го", true), ("2", false), ("12a", false), ("12bis", false), ("2nda", false),
    ("st", false), ("1-4", false), ("2-ябвг", false), ("23-30", false), ("1st2", false),
  ])
  func ordinals(token: String, isOrdinal: Bool) {
    #expect(Tokenizer.isOrdinal(Array(token.unicodeScalars)) == isOrdinal)
  }
}
