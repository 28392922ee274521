/// Latin spellings of names written in Cyrillic or Greek, indexed beside the name so that a
/// query typed on a Latin keyboard finds it ("sberbank" for Сбербанк, "akropoli" for
/// Ακρόπολη). Build time only: the reader sees the terms, not this table.
///
/// Each name gets at most two spellings: one after BGN/PCGN (kh, ts, shch, ya, yu; ELOT 743
/// for Greek) and one with the variants people also type (h, c, sch, ja, ju; phonetic Greek);
/// ё is e in both. The letters of Ukrainian, Belarusian, Bulgarian and Serbian follow the
/// language of the place's country where it differs from Russian (г is h in Ukrainian and
/// Belarusian, щ is sht in Bulgarian).
enum Transliteration {
  /// The Latin spellings of `text` (lower case, other characters kept), or none when it has
  /// no Cyrillic or Greek letter.
  static func latin(_ text: String, countryCode: String?) -> [String] {
    let scalars = Array(text.lowercased().unicodeScalars)
    guard scalars.contains(where: { isCyrillic($0) || isGreek($0) }) else { return [] }
    let language = Language(countryCode: countryCode)
    var spellings: [String] = []
    for variant in [false, true] {
      var out = String.UnicodeScalarView()
      var i = 0
      while i < scalars.count {
        let s = scalars[i]
        if isGreek(s) {
          i += appendGreek(scalars, at: i, variant: variant, to: &out)
        } else if isCyrillic(s) {
          let previous = i > 0 ? scalars[i - 1] : nil
          out.append(
            contentsOf: cyrillic(s, after: previous, language: language, variant: variant)
              .unicodeScalars)
          i += 1
        } else {
          out.append(s)
          i += 1
        }
      }
      let spelling = String(out)
      if !spellings.contains(spelling) { spellings.append(spelling) }
    }
    return spellings
  }

  /// The BCP 47 tag of the Latin spelling of `text`, as OSM writes it in name keys
  /// ("ru-Latn", "el-Latn").
  static func languageTag(_ text: String, countryCode: String?) -> String {
    if text.unicodeScalars.contains(where: isGreek) { return "el-Latn" }
    switch Language(countryCode: countryCode) {
    case .russian: return "ru-Latn"
    case .ukrainian: return "uk-Latn"
    case .belarusian: return "be-Latn"
    case .bulgarian: return "bg-Latn"
    case .serbian: return "sr-Latn"
    }
  }

  /// `text` with the first letter of each word in upper case ("ulitsa goncharova" →
  /// "Ulitsa Goncharova").
  static func capitalized(_ text: String) -> String {
    var out = ""
    var atStart = true
    for c in text {
      out += atStart ? c.uppercased() : String(c)
      atStart = c == " " || c == "-"
    }
    return out
  }

  /// The language whose letters a Cyrillic name follows.
  enum Language {
    case russian, ukrainian, belarusian, bulgarian, serbian

    init(countryCode: String?) {
      switch countryCode?.uppercased() {
      case "UA": self = .ukrainian
      case "BY": self = .belarusian
      case "BG": self = .bulgarian
      case "RS", "ME", "BA", "MK": self = .serbian
      default: self = .russian
      }
    }
  }

  static func isCyrillic(_ s: Unicode.Scalar) -> Bool { s.value &- 0x400 < 0x100 }
  static func isGreek(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x370 < 0x90 || s.value &- 0x1F00 < 0x100
  }

  /// One Cyrillic letter (lower case).
  static func cyrillic(
    _ s: Unicode.Scalar, after previous: Unicode.Scalar?, language: Language, variant: Bool
  ) -> String {
    switch s {
    case "а": return "a"
    case "б": return "b"
    case "в": return "v"
    case "г":
      return language == .ukrainian || language == .belarusian ? "h" : "g"
    case "ґ": return "g"
    case "д": return "d"
    case "ђ": return "dj"
    case "е":
      // Ukrainian е is e; Russian е after a vowel or a sign is ye in BGN/PCGN.
      if language == .russian && !variant, let previous,
        "аеёиоуыэюяьъ".unicodeScalars.contains(previous)
      {
        return "ye"
      }
      return "e"
    case "ё": return "e"
    case "є": return variant ? "je" : "ye"
    case "ж": return "zh"
    case "з": return "z"
    case "и":
      return language == .ukrainian ? "y" : "i"
    case "і": return "i"
    case "ї": return variant ? "ji" : "yi"
    case "й": return variant ? "j" : (language == .ukrainian ? "i" : "y")
    case "ј": return "j"
    case "к": return "k"
    case "л": return "l"
    case "љ": return "lj"
    case "м": return "m"
    case "н": return "n"
    case "њ": return "nj"
    case "о": return "o"
    case "п": return "p"
    case "р": return "r"
    case "с": return "s"
    case "т": return "t"
    case "ћ": return "c"
    case "у": return "u"
    case "ў": return variant ? "u" : "w"
    case "ф": return "f"
    case "х": return variant ? "h" : "kh"
    case "ц": return variant ? "c" : "ts"
    case "ч": return "ch"
    case "џ": return "dz"
    case "ш": return "sh"
    case "щ":
      if language == .bulgarian { return "sht" }
      return variant ? "sch" : "shch"
    case "ъ": return language == .bulgarian ? "a" : ""
    case "ы": return "y"
    case "ь": return ""
    case "э": return "e"
    case "ю": return variant ? "ju" : "yu"
    case "я": return variant ? "ja" : "ya"
    default: return ""
    }
  }

  /// Appends the Latin form of the Greek letter (or digraph) at `i`; returns the scalars
  /// it took.
  static func appendGreek(
    _ scalars: [Unicode.Scalar], at i: Int, variant: Bool, to out: inout String.UnicodeScalarView
  ) -> Int {
    // Accents and breathings off: the base letter decides.
    func base(_ k: Int) -> Unicode.Scalar? {
      guard k < scalars.count else { return nil }
      let decomposed = String(scalars[k]).decomposedStringWithCanonicalMapping.unicodeScalars
      return decomposed.first
    }
    let s = base(i)!
    let next = base(i + 1)
    func put(_ text: String) { out.append(contentsOf: text.unicodeScalars) }
    // Digraphs.
    if let next {
      switch (s, next) {
      case ("ο", "υ"): put(variant ? "u" : "ou"); return 2
      case ("α", "ι"): put(variant ? "e" : "ai"); return 2
      case ("ε", "ι"), ("ο", "ι"): put(variant ? "i" : String(s == "ε" ? "ei" : "oi")); return 2
      case ("μ", "π"): put(i == 0 || variant ? "b" : "mp"); return 2
      case ("ν", "τ"): put(i == 0 || variant ? "d" : "nt"); return 2
      case ("γ", "κ"): put(i == 0 || variant ? "g" : "gk"); return 2
      case ("γ", "γ"): put("ng"); return 2
      case ("α", "υ"): put("av"); return 2
      case ("ε", "υ"): put("ev"); return 2
      default: break
      }
    }
    if let pair = greekLetters[s] { put(variant ? pair.1 : pair.0) }
    return 1
  }

  /// Greek letters: (ELOT 743 / BGN-PCGN, phonetic).
  static let greekLetters: [Unicode.Scalar: (String, String)] = [
    "α": ("a", "a"), "β": ("v", "v"), "γ": ("g", "g"), "δ": ("d", "d"), "ε": ("e", "e"),
    "ζ": ("z", "z"), "η": ("i", "i"), "θ": ("th", "th"), "ι": ("i", "i"), "κ": ("k", "k"),
    "λ": ("l", "l"), "μ": ("m", "m"), "ν": ("n", "n"), "ξ": ("x", "ks"), "ο": ("o", "o"),
    "π": ("p", "p"), "ρ": ("r", "r"), "σ": ("s", "s"), "ς": ("s", "s"), "τ": ("t", "t"),
    "υ": ("y", "i"), "φ": ("f", "f"), "χ": ("ch", "h"), "ψ": ("ps", "ps"), "ω": ("o", "o"),
  ]
}
