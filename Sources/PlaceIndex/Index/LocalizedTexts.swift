import PlaceCore
import PlaceIndexFormat

/// A place's texts as the hosted service writes them, in the requested language where the
/// index knows it (``LocalTexts`` entries of STRINGS): the display name and its language, the
/// secondary parts and formatted address (without the name of an establishment), and the
/// address components.
struct LocalizedTexts {
  /// The name shown (in the requested language when the place has it).
  var displayName: String
  /// The language of ``displayName``: the requested one, else the language the data gives the
  /// plain name (its `name:xx` equal to it, or the country's main language), else nil.
  var displayNameLanguage: String?
  /// The secondary parts, their address words in the requested language, without the country
  /// when it is the request's region.
  var secondaryParts: [String]
  /// The address: the secondary parts for an establishment (its name is ``displayName``),
  /// else the display name and the secondary parts; nil when that is empty.
  var formattedAddress: String?
  /// The address components, their long texts in the requested language.
  var components: [AddressComponent]

  /// The texts of `e`; `language` lower case or nil, `region` upper case or nil. Without
  /// `details` (a suggestion's texts), ``displayNameLanguage`` and ``formattedAddress`` are
  /// left nil: a suggestion shows neither, and they cost lookups.
  init(
    _ e: PlaceEntry, in index: LoadedIndex, language: String?, region: String?,
    details: Bool = true
  ) throws(IndexFormatError) {
    let s = index.strings
    let primary = try s.string(e.primaryText)
    let stored = try e.components.map { (c) throws(IndexFormatError) in
      let long = try s.string(c.long)
      return AddressComponent(
        kind: c.kind, longText: long, shortText: try c.short.map(s.string) ?? long)
    }
    // The names are read when a language is asked for or the display name's is wanted.
    var names: [(language: String, name: String)] = []
    if language != nil || details {
      for n in e.names {
        names.append((try s.string(n.language).lowercased(), try s.string(n.name)))
      }
    }
    let countryCode = try e.countryCode.map(s.string)
    // The display name and its language.
    var name = primary
    var nameLanguage: String? = nil
    if let language, let found = names.first(where: { $0.language == language }) {
      name = found.name
      nameLanguage = language
    }
    // Translations of the component texts.
    var translated: [String: String] = [:]
    if let language {
      for c in stored where LocalizedTexts.translatedKinds.contains(c.kind) {
        if translated[c.longText] == nil,
          let t = try index.translation(of: c.longText, into: language)
        {
          translated[c.longText] = t
        }
      }
    }
    let isAddress = LocalizedTexts.isAddress(primary, stored)
    if nameLanguage == nil, isAddress, !translated.isEmpty {
      let local = LocalizedTexts.replacing(primary, translated)
      if local != primary {
        name = local
        nameLanguage = language
      }
    }
    if nameLanguage == nil, details {
      let main = try countryCode.flatMap(index.mainLanguage(ofCountry:))
      let tagged = names.filter { $0.name == primary && LocalizedTexts.isLanguage($0.language) }
        .map(\.language).sorted()
      if let main, isAddress || tagged.contains(main) || tagged.isEmpty {
        nameLanguage = main
      } else {
        nameLanguage = tagged.first
      }
    }
    displayName = name
    displayNameLanguage = nameLanguage
    // The secondary parts: the region's country left out, then the address words translated.
    var parts = try e.secondaryParts.map(s.string)
    if let region, countryCode == region,
      let country = stored.first(where: { $0.kind == .country }), parts.last == country.longText
    {
      parts.removeLast()
    }
    secondaryParts = parts.map { LocalizedTexts.replacing($0, translated) }
    if details {
      let types = index.types.types(ofList: e.typeList)
      let establishment =
        !isAddress && (types.contains("establishment") || types.contains("point_of_interest"))
      let address = (establishment ? [] : [name]) + secondaryParts
      formattedAddress = address.isEmpty ? nil : address.joined(separator: ", ")
    } else {
      formattedAddress = nil
    }
    components = stored.map { c in
      guard let t = translated[c.longText] else { return c }
      return AddressComponent(
        kind: c.kind, longText: t, shortText: c.shortText == c.longText ? t : c.shortText)
    }
  }

  /// The component kinds whose long texts have translations.
  static let translatedKinds: Set<AddressComponentKind> = [
    .route, .neighborhood, .sublocality, .locality, .adminArea2, .adminArea1, .country,
  ]

  /// Whether the primary text is the place's address (its street and number), not a name.
  static func isAddress(_ primary: String, _ components: [AddressComponent]) -> Bool {
    guard let number = components.first(where: { $0.kind == .streetNumber })?.longText,
      let street = components.first(where: { $0.kind == .route })?.longText
    else { return false }
    return primary.contains(number) && primary.contains(street)
  }

  /// Whether a name key's language is a language (not a transliteration such as "ru-Latn").
  static func isLanguage(_ tag: String) -> Bool {
    !tag.isEmpty && !tag.contains("-")
  }

  /// `text` with every whole-word occurrence of a key of `translations` replaced by its
  /// value, longer keys first; replaced text is not looked at again.
  static func replacing(_ text: String, _ translations: [String: String]) -> String {
    guard !translations.isEmpty else { return text }
    var scalars = Array(text.unicodeScalars)
    var taken = [Bool](repeating: false, count: scalars.count)
    var edits: [(start: Int, end: Int, with: [Unicode.Scalar])] = []
    for key in translations.keys.sorted(by: {
      ($0.unicodeScalars.count, $1) > ($1.unicodeScalars.count, $0)
    }) {
      let k = Array(key.unicodeScalars)
      guard !k.isEmpty, k.count <= scalars.count else { continue }
      var i = 0
      while i + k.count <= scalars.count {
        if !taken[i], scalars[i] == k[0], Array(scalars[i..<(i + k.count)]) == k,
          i == 0 || !isWordScalar(scalars[i - 1]),
          i + k.count == scalars.count || !isWordScalar(scalars[i + k.count]),
          !taken[i..<(i + k.count)].contains(true)
        {
          for j in i..<(i + k.count) { taken[j] = true }
          edits.append((i, i + k.count, Array(translations[key]!.unicodeScalars)))
          i += k.count
        } else {
          i += 1
        }
      }
    }
    for edit in edits.sorted(by: { $0.start > $1.start }) {
      scalars.replaceSubrange(edit.start..<edit.end, with: edit.with)
    }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars)
    return String(out)
  }

  private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
    s.properties.isAlphabetic || s.properties.numericType != nil
  }
}

extension LoadedIndex {
  /// The bytes of the first string of STRINGS that starts with `prefix`, if one does (a
  /// binary search: the strings are sorted bytewise).
  func string(startingWith prefix: String) throws(IndexFormatError) -> [UInt8]? {
    let key = Array(prefix.utf8)
    var lo = 0
    var hi = strings.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if try strings.utf8(mid).lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
    }
    guard lo < strings.count else { return nil }
    let found = try strings.utf8(lo)
    return found.starts(with: key) ? found : nil
  }

  /// The translation of the address text `text` into `language`, if the index has one.
  func translation(of text: String, into language: String) throws(IndexFormatError) -> String? {
    let key = LocalTexts.translationKey(language: language, text: text)
    guard let found = try string(startingWith: key) else { return nil }
    let rest = found.dropFirst(key.utf8.count)
    return rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self)
  }

  /// The main language of country `code`'s plain names, if the index has it.
  func mainLanguage(ofCountry code: String) throws(IndexFormatError) -> String? {
    let key = LocalTexts.languageKey(country: code)
    guard let found = try string(startingWith: key) else { return nil }
    let rest = found.dropFirst(key.utf8.count)
    return rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self)
  }
}
