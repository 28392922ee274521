import PlaceCore
import PlaceIndexFormat

/// A place's alternative names and search terms.
extension PlaceAssembler {
  /// The texts a place's search terms come from.
  struct TermSources {
    /// The primary text (of an address: its street line).
    var primary: String
    /// The `name` (or `brand`) tag, nil for an address.
    var name: String?
    var street: String?
    var streetLine: String?
    var housenumber: String?
    /// The alternative names (``alternativeNames(tags:primary:countryCode:)``).
    var names: [LocalizedName]
    var types: [String]
    var admin: AdminContext
  }

  /// The folded search terms of a place, each sorted: of its names, of its alternative names
  /// alone, and of its context alone.
  struct SearchTerms {
    var terms: [String]
    var altTerms: [String]
    var contextTerms: [String]
  }

  /// The alternative names: `name:xx` tags, the alternative name keys, and a Latin spelling
  /// of a name in another script; sorted, at most ``maxNames``.
  func alternativeNames(tags t: [String: String], primary: String, countryCode: String?)
    -> [LocalizedName]
  {
    var names: [LocalizedName] = []
    for (k, v) in t where k.hasPrefix("name:") && !v.isEmpty {
      let lang = String(k.dropFirst(5))
      if lang.count <= 3 || lang.contains("-") {
        names.append(LocalizedName(language: lang, name: v))
      }
    }
    for k in PlaceAssembler.alternativeNameKeys {
      for v in (t[k] ?? "").split(separator: ";") where !v.isEmpty && String(v) != primary {
        names.append(LocalizedName(language: "", name: DataTable.trim(v)))
      }
    }
    // A name in another script gets its Latin spelling as an alternative name (as OSM's
    // name:ru-Latn), unless the data has one: the terms of alternative names need one.
    let latinSpellings = Transliteration.latin(primary, countryCode: countryCode)
    if let first = latinSpellings.first, names.count < PlaceAssembler.maxNames,
      !names.contains(where: { $0.language.hasSuffix("-Latn") })
    {
      names.append(
        LocalizedName(
          language: Transliteration.languageTag(primary, countryCode: countryCode),
          name: Transliteration.capitalized(first)))
    }
    names.sort { ($0.language, $0.name) < ($1.language, $1.name) }
    // The format's per-place limits (docs/LIMITS.md): at most this many alternative names.
    if names.count > PlaceAssembler.maxNames {
      names.removeLast(names.count - PlaceAssembler.maxNames)
    }
    return names
  }

  /// Search terms: the names (the primary text of an address is its street line), then the
  /// context: the address of a named place, the postcode and the admin chain.
  func searchTerms(_ s: TermSources, memo: inout TermMemo) -> SearchTerms {
    let admin = s.admin
    let ownName = s.name.map(TextNormalizer.fold)
    var nameTexts = [s.primary]
    if s.name == nil, let street = s.street { nameTexts.append(street) }
    var contextTexts: [String] = []
    if s.name != nil, let streetLine = s.streetLine { contextTexts.append(streetLine) }
    if let pc = admin.postcode { contextTexts.append(pc) }
    for part in [admin.sublocality, admin.locality, admin.region, admin.countryName] {
      if let part, TextNormalizer.fold(part) != ownName { contextTexts.append(part) }
    }
    var terms = Set<String>()
    for text in nameTexts { terms.formUnion(memo.terms(for: text)) }
    // Terms only the alternative names carry: they match, but rank below the primary name's.
    var altTerms = Set<String>()
    for n in s.names { altTerms.formUnion(memo.terms(for: n.name)) }
    // Latin spellings of the names in other scripts (the primary's and the alternative
    // names' in Cyrillic, Greek, Hebrew, Arabic, Han, Kana), for queries typed on a Latin
    // keyboard.
    for text in nameTexts + s.names.map(\.name) {
      for spelling in Transliteration.latin(text, countryCode: admin.countryCode) {
        altTerms.formUnion(memo.terms(for: spelling))
      }
    }
    altTerms.subtract(terms)
    var contextTerms = Set<String>()
    for text in contextTexts { contextTerms.formUnion(memo.terms(for: text)) }
    // Category words, so that "pharmacy" or "Apotheke" alone finds pharmacies.
    let types = s.types
    if types.contains("establishment") || types.contains("point_of_interest") {
      for type in types where rules.vocabulary.group(of: type) != PlaceTypeVocabulary.genericGroup {
        for word in synonyms.words(for: type, countryCode: admin.countryCode) {
          contextTerms.formUnion(memo.terms(for: word, abbreviated: false))
        }
      }
    }
    // The letter that ends a housenumber ("a" of "1a"), so that "keskuskatu 1 a" finds it; as
    // context, so that a one-letter query still finds names first.
    if let housenumber = s.housenumber, let letter = PlaceAssembler.endingLetter(of: housenumber) {
      contextTerms.insert(letter)
    }
    contextTerms.subtract(terms)
    contextTerms.subtract(altTerms)
    let kept = { (t: Set<String>) in
      t.filter { $0.utf8.count <= PlaceAssembler.maxTermBytes }.sorted()
    }
    return SearchTerms(
      terms: kept(terms), altTerms: kept(altTerms), contextTerms: kept(contextTerms))
  }

  /// The folded letter that ends a housenumber glued to its digits ("a" of "1a", "б" of
  /// "5б"), or nil.
  static func endingLetter(of housenumber: String) -> String? {
    let folded = Array(TextNormalizer.fold(housenumber).unicodeScalars)
    guard folded.count >= 2, let last = folded.last, last.properties.isAlphabetic,
      folded[folded.count - 2].value &- 0x30 < 10
    else { return nil }
    return String(last)
  }
}
