import Testing

@testable import PlaceIndexBuilder

/// Latin spellings of names in other scripts (build time).
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

  @Test func latinGetsNoneAndOtherCharactersAreKept() {
    #expect(Transliteration.latin("Helsinki", countryCode: "FI").isEmpty)
    #expect(Transliteration.latin("Café 5", countryCode: "FR").isEmpty)
    #expect(Transliteration.latin("2-я улица 5", countryCode: "RU").first == "2-ya ulitsa 5")
  }

  @Test func hebrewArabicAndKoreanGetTheirSpellingsAndTags() {
    #expect(
      Transliteration.latin("שוק הכרמל", countryCode: "IL") == ["shok hkhrml", "shuk hchrml"])
    #expect(Transliteration.languageTag("שוק הכרמל", countryCode: "IL") == "he-Latn")
    #expect(Transliteration.latin("مارينا مول", countryCode: "AE") == ["maryna mwl", "marina mul"])
    #expect(Transliteration.languageTag("مارينا مول", countryCode: "AE") == "ar-Latn")
    #expect(Transliteration.latin("명동교자", countryCode: "KR") == ["myeongdonggyoja"])
    #expect(Transliteration.languageTag("명동교자", countryCode: "KR") == "ko-Latn")
  }

  /// Han in Pinyin without tones, its syllables apart and run together (through ICU).
  @Test func hanGetsPinyinSyllablesApartAndTogether() {
    #expect(
      Transliteration.latin("中山纪念图书馆", countryCode: "CN") == [
        "zhong shan ji nian tu shu guan", "zhongshanjiniantushuguan",
      ])
    #expect(Transliteration.latin("北京", countryCode: nil) == ["bei jing", "beijing"])
    // Words of other scripts between stay apart; one syllable alone has one spelling.
    #expect(
      Transliteration.latin("滨海湾 MRT 站", countryCode: "SG") == [
        "bin hai wan mrt zhan", "binhaiwan mrt zhan",
      ])
    #expect(Transliteration.latin("站", countryCode: "CN") == ["zhan"])
    #expect(Transliteration.languageTag("北京", countryCode: "CN") == "zh-Latn")
  }

  /// Kana in Hepburn; in Japan the Han stay as written (ICU has no Japanese readings).
  @Test func kanaGetsHepburnAndJapaneseHanStays() {
    #expect(Transliteration.latin("マツモトキヨシ", countryCode: "JP") == ["matsumotokiyoshi"])
    #expect(Transliteration.latin("東京スカイツリー", countryCode: "JP") == ["東京 sukaitsuri"])
    #expect(Transliteration.latin("すし", countryCode: nil) == ["sushi"])
    #expect(Transliteration.languageTag("マツモトキヨシ", countryCode: "JP") == "ja-Latn")
  }
}
