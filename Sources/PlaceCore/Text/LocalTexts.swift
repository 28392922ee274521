/// The texts an index keeps for answers in a requested language (`languageCode`): entries in
/// its string table (STRINGS, sorted bytewise) whose keys a reader finds by binary search.
///
/// - A translation: `\u{1}` language `\u{1}` text `\u{1}` translation, e.g. the Swedish
///   "Unionsgatan" of the street "Unioninkatu", or the German "Finnland" of "Finland". The
///   language is lower case, as OSM's `name:xx` keys write it; the text is the long text of an
///   address component (street, locality, admin area, country).
/// - The main language of a country's plain names: `\u{2}` code `\u{1}` language, e.g.
///   "\u{2}FI\u{1}fi".
///
/// Both sort before any text that starts with a printable character.
public enum LocalTexts {
  /// The first bytes of a translation entry of `text` into `language`.
  public static func translationKey(language: String, text: String) -> String {
    "\u{1}" + language.lowercased() + "\u{1}" + text + "\u{1}"
  }

  /// The translation entry of `text` into `language`.
  public static func translation(language: String, text: String, translated: String) -> String {
    translationKey(language: language, text: text) + translated
  }

  /// The first bytes of the main-language entry of country `code`.
  public static func languageKey(country code: String) -> String {
    "\u{2}" + code.uppercased() + "\u{1}"
  }

  /// The main-language entry of country `code`.
  public static func language(country code: String, language: String) -> String {
    languageKey(country: code) + language.lowercased()
  }

  /// Whether a translation or language entry could hold `text`: no separator or newline in
  /// it, and not empty.
  public static func isStorable(_ text: String) -> Bool {
    !text.isEmpty && !text.unicodeScalars.contains { $0.value < 0x20 }
  }
}
