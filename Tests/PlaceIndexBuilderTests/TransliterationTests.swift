import Testing

@testable import PlaceIndexBuilder

/// Latin spellings of Cyrillic and Greek names (build time).
@Suite struct TransliterationTests {
  @Test func russianGetsTheBGNSpellingAndTheCommonVariant() {
    #expect(
      Transliteration.latin("Щёлковская", countryCode: "RU") == ["shchelkovskaya", "schelkovskaja"])
    #expect(Transliteration.latin("Хохловка", countryCode: "RU") == ["khokhlovka", "hohlovka"])
    #expect(
      Transliteration.latin("Юго-Западная", countryCode: "RU") == [
        "yugo-zapadnaya", "jugo-zapadnaja",
      ])
    // е after a vowel is ye in BGN/PCGN; ё is e.
    #expect(Transliteration.latin("Соловьёво", countryCode: nil).contains("solovevo"))
    #expect(Transliteration.latin("Гаяне", countryCode: "RU").first == "gayane")
    #expect(Transliteration.latin("Майское", countryCode: "RU").first == "mayskoye")
  }

  @Test func otherCyrillicLanguagesFollowTheirCountry() {
    #expect(Transliteration.latin("Хрещатик", countryCode: "UA").first == "khreshchatyk")
    #expect(Transliteration.latin("Гоголя", countryCode: "UA").first == "hoholya")
    #expect(Transliteration.latin("Щастливец", countryCode: "BG").first == "shtastlivets")
    #expect(Transliteration.latin("Љубљана", countryCode: "RS").first == "ljubljana")
  }

  @Test func greekDigraphsAndAccents() {
    #expect(Transliteration.latin("Ακρόπολη", countryCode: "GR") == ["akropoli"])
    #expect(
      Transliteration.latin("Μπουμπουλίνας", countryCode: "GR") == ["boumpoulinas", "bubulinas"])
    #expect(Transliteration.latin("Θεσσαλονίκη", countryCode: "GR") == ["thessaloniki"])
    #expect(Transliteration.latin("Χαλκίδα", countryCode: "GR") == ["chalkida", "halkida"])
  }

  @Test func latinAndOtherScriptsGetNone() {
    #expect(Transliteration.latin("Helsinki", countryCode: "FI").isEmpty)
    #expect(Transliteration.latin("中山纪念图书馆", countryCode: "CN").isEmpty)
    // Other characters are kept as they are.
    #expect(Transliteration.latin("2-я улица 5", countryCode: "RU").first == "2-ya ulitsa 5")
  }
}
