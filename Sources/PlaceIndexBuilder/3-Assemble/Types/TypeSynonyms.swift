import PlaceCore

/// Category words per place type, read from Data/type_synonyms.tsv: what users type to ask for
/// a kind of place ("pharmacy", "Apotheke", "apteekki").
public struct TypeSynonyms: Sendable {
  /// Per type: each word with its language.
  private var words: [String: [(language: String, word: String)]] = [:]

  /// Parses the table; every type must be in `vocabulary`.
  public init(tsv: String, vocabulary: PlaceTypeVocabulary) throws(TableError) {
    let table: DataTable
    do throws(DataTable.LayoutError) {
      table = try DataTable(tsv, required: ["type", "language", "words"])
    } catch {
      throw TableError(table: "type_synonyms.tsv", line: error.line, message: error.message)
    }
    for row in table.rows {
      guard vocabulary.contains(row["type"]) else {
        throw TableError(
          table: "type_synonyms.tsv", line: row.line,
          message: "type '\(row["type"])' is not in the vocabulary")
      }
      let list = row["words"].split(separator: ",").map { DataTable.trim($0) }.filter {
        !$0.isEmpty
      }
      guard !list.isEmpty else {
        throw TableError(table: "type_synonyms.tsv", line: row.line, message: "no words")
      }
      let language = row["language"]
      words[row["type"], default: []].append(contentsOf: list.map { (language, $0) })
    }
  }

  /// The category words of `type`: its own name's words ("italian restaurant"), then the
  /// table's words in every language.
  public func words(for type: String) -> [String] {
    [type.split(separator: "_").joined(separator: " ")] + (words[type] ?? []).map(\.word)
  }

  /// The category words of `type` for a place in `countryCode`: its own name's words, the
  /// table's words in the languages indexed everywhere (``everywhereLanguages``), and those in
  /// the other languages where the country speaks them (all of them when the country is
  /// unknown).
  public func words(for type: String, countryCode: String?) -> [String] {
    guard let country = countryCode?.uppercased(), !country.isEmpty else {
      return words(for: type)
    }
    return [type.split(separator: "_").joined(separator: " ")]
      + (words[type] ?? []).filter {
        Self.everywhereLanguages.contains($0.language)
          || Self.countries[$0.language]?.contains(country) == true
      }.map(\.word)
  }

  /// Languages whose words every place gets, wherever it is: English, and those the table
  /// had when its words were indexed everywhere (a tourist's "Apotheke" in Helsinki).
  public static let everywhereLanguages: Set<String> = [
    "en", "cs", "de", "es", "fi", "fr", "it", "nl", "sv",
  ]

  /// The countries (ISO 3166-1 alpha-2) that speak each other language of the table: its
  /// words go to their places only, which keeps every index from carrying every language.
  public static let countries: [String: Set<String>] = [
    "pt": ["PT", "BR", "AO", "MZ", "CV", "GW", "ST", "TL", "MO"],
    "ca": ["ES", "AD"],
    "pl": ["PL"],
    "ru": ["RU", "BY", "KZ", "KG", "UA", "MD", "LV", "EE"],
    "uk": ["UA"],
    "da": ["DK", "GL", "FO"],
    "no": ["NO", "SJ"],
    "tr": ["TR", "CY"],
    "ja": ["JP"],
    "zh": ["CN", "TW", "HK", "MO", "SG"],
  ]
}
