import PlaceCore
import PlaceIndexFormat

/// The names in other languages (`name:xx`) of the streets, settlements and admin areas of an
/// extract, and the country names of Data/country_names.tsv: the ``LocalTexts`` entries of
/// the index, with which a reader writes a place's address parts in the requested language.
struct Translations {
  /// language → text → translation → elements that give it.
  private var found: [String: [String: [String: Int]]] = [:]
  /// Country code → language → name, from the country boundaries' `name:xx`.
  private var countryNames: [String: [String: String]] = [:]

  /// The component kinds whose texts are translated.
  static let kinds: Set<AddressComponentKind> = [
    .route, .neighborhood, .sublocality, .locality, .adminArea2, .adminArea1, .country,
  ]

  /// Notes the `name:xx` of an element that may name a street, settlement or admin area.
  mutating func add(_ tags: [String: String]) {
    guard let name = tags["name"],
      tags["highway"] != nil || tags["place"] != nil || tags["boundary"] == "administrative"
    else { return }
    let country = tags["admin_level"] == "2" ? AdminArea.isoCountry(tags) : nil
    for (k, v) in tags where k.hasPrefix("name:") {
      let language = String(k.dropFirst(5)).lowercased()
      guard language.count <= 3 || language.contains("-"), !language.contains(":"),
        LocalTexts.isStorable(language), LocalTexts.isStorable(v)
      else { continue }
      if v != name { found[language, default: [:]][name, default: [:]][v, default: 0] += 1 }
      if let country, countryNames[country]?[language] == nil {
        countryNames[country, default: [:]][language] = v
      }
    }
  }

  /// The address texts and countries the places show: what ``entries(for:countries:)``
  /// translates. Added to place by place, as they are assembled.
  struct Shown {
    var texts = Set<String>()
    var codes = Set<String>()

    mutating func add(_ record: PlaceRecord) {
      if !record.countryCode.isEmpty { codes.insert(record.countryCode) }
      for c in record.components where Translations.kinds.contains(c.kind) {
        texts.insert(c.longText)
      }
    }
  }

  /// The entries for the texts `places` show: each component text's most given translation
  /// in each language (ties: the first in bytewise order), the country names of `countries`
  /// (else, for a country it does not list, of the boundary), and each country's main language; sorted.
  func entries(for shown: Shown, countries: CountryTable) -> [String] {
    let (texts, codes) = (shown.texts, shown.codes)
    // Entry key → translation: one translation per key.
    var chosen: [String: String] = [:]
    for (language, byText) in found {
      for (text, options) in byText where texts.contains(text) && LocalTexts.isStorable(text) {
        let best = options.sorted {
          $0.value != $1.value
            ? $0.value > $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        }[0].key
        chosen[LocalTexts.translationKey(language: language, text: text)] = best
      }
    }
    var out: [String] = []
    for code in codes {
      let row = countries.country(code)
      let main = row.code == code ? row.language : ""
      if !main.isEmpty { out.append(LocalTexts.language(country: code, language: main)) }
      let shown = countries.contains(code) && !row.name.isEmpty ? row.name : code
      guard LocalTexts.isStorable(shown) else { continue }
      // The table's names; the boundary's only for a country the table does not list.
      var names = countries.localNames(code)
      if names.isEmpty { names = countryNames[code] ?? [:] }
      for (language, name) in names where LocalTexts.isStorable(name) {
        let key = LocalTexts.translationKey(language: language, text: shown)
        if name == shown { chosen[key] = nil } else { chosen[key] = name }
      }
    }
    for (key, translated) in chosen { out.append(key + translated) }
    return out.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }
}
