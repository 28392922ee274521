/// Latin spellings of words written in Cyrillic, Greek, Hebrew, Arabic or Hangul, letter by
/// letter, with the letter each Latin letter came from. The builder indexes them beside a
/// name (a query typed on a Latin keyboard finds "Сбербанк" by "sberbank"); the reader uses
/// the same table only to map a matched Latin prefix back onto the displayed name's letters.
///
/// Two spellings of each text: one after BGN/PCGN (kh, ts, shch, ya, yu; ELOT 743 for Greek;
/// consonant skeletons for Hebrew and Arabic, with the letters that also write vowels as
/// vowels; the Revised Romanization for Korean, syllable by syllable), and one with the
/// variants people also type (h, c, sch, ja, ju; phonetic Greek; u and i for Hebrew and
/// Arabic waw and yod/ya; a Korean final consonant carried over to a following vowel). ё is
/// e in both. Ukrainian, Belarusian, Bulgarian and Serbian letters follow the language of
/// the place's country where they differ from Russian (г is h in Ukrainian and Belarusian,
/// щ is sht in Bulgarian).
package enum LatinTransliteration {
  /// The language whose letters a Cyrillic text follows.
  package enum Language: Sendable, CaseIterable {
    case russian, ukrainian, belarusian, bulgarian, serbian

    package init(countryCode: String?) {
      switch countryCode?.uppercased() {
      case "UA": self = .ukrainian
      case "BY": self = .belarusian
      case "BG": self = .bulgarian
      case "RS", "ME", "BA", "MK": self = .serbian
      default: self = .russian
      }
    }
  }

  /// One spelling: the Latin scalars (lower case, other characters kept) and, for each, the
  /// offset of the scalar of the input it came from.
  package struct Spelling: Sendable, Equatable {
    package var scalars: [Unicode.Scalar] = []
    package var sources: [Int] = []

    package var text: String {
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars)
      return String(view)
    }

    mutating func put(_ latin: String, from source: Int) {
      for s in latin.unicodeScalars {
        scalars.append(s)
        sources.append(source)
      }
    }
  }

  /// Whether `s` is a letter or mark of a script this table writes in Latin.
  package static func hasTable(_ s: Unicode.Scalar) -> Bool {
    isCyrillic(s) || isGreek(s) || isHebrew(s) || isArabic(s) || isHangul(s)
  }

  /// The Latin spellings of `text` (lower case, other characters kept), at most two, or none
  /// when it has no letter of a script this table writes.
  package static func latin(_ text: String, countryCode: String?) -> [String] {
    // Most names have no such letter: looked at without copying them.
    guard !text.utf8.allSatisfy({ $0 < 0x80 }), text.unicodeScalars.contains(where: hasTable)
    else { return [] }
    let scalars = Array(text.unicodeScalars)
    let language = Language(countryCode: countryCode)
    var out: [String] = []
    for variant in [false, true] {
      let s = spelling(scalars, language: language, variant: variant).text
      if !out.contains(s) { out.append(s) }
    }
    return out
  }

  /// How many scalars of `token` (from its start) a Latin `query` covers, when the query is a
  /// prefix of one of the token's spellings in any language: through the letter that gave
  /// the query's last Latin letter, or the whole token when the query is its whole spelling.
  /// Nil when no spelling starts with the query.
  package static func coveredPrefix(of query: [Unicode.Scalar], in token: [Unicode.Scalar])
    -> Int?
  {
    guard !query.isEmpty, token.contains(where: hasTable) else { return nil }
    let languages: [Language] =
      token.contains(where: isCyrillic) ? Language.allCases : [.russian]
    var best: Int? = nil
    for language in languages {
      for variant in [false, true] {
        let s = spelling(token, language: language, variant: variant)
        guard s.scalars.starts(with: query) else { continue }
        var covered =
          query.count == s.scalars.count ? token.count : s.sources[query.count - 1] + 1
        while covered < token.count && isMark(token[covered]) { covered += 1 }
        best = min(best ?? covered, covered)
      }
    }
    return best
  }

  /// The spelling of `scalars` (any case) in `language`'s letters, BGN/PCGN or the variant.
  package static func spelling(_ scalars: [Unicode.Scalar], language: Language, variant: Bool)
    -> Spelling
  {
    let lower = scalars.map(lowercase)
    var out = Spelling()
    var i = 0
    while i < lower.count {
      let s = lower[i]
      let previous = i > 0 ? lower[i - 1] : nil
      if isGreek(s) {
        i += appendGreek(lower, at: i, variant: variant, to: &out)
        continue
      }
      if isCyrillic(s) {
        out.put(cyrillic(s, after: previous, language: language, variant: variant), from: i)
      } else if isHangul(s) {
        let next = i + 1 < lower.count ? lower[i + 1] : nil
        out.put(hangul(s, before: next, variant: variant), from: i)
      } else if isHebrew(s) {
        // The letters around, past the points.
        var p = i - 1
        while p >= 0 && isMark(lower[p]) { p -= 1 }
        var n = i + 1
        while n < lower.count && isMark(lower[n]) { n += 1 }
        out.put(
          hebrew(
            s, after: p >= 0 ? lower[p] : nil, before: n < lower.count ? lower[n] : nil,
            variant: variant), from: i)
      } else if isArabic(s),
        let digit = s.properties.numericType.flatMap({ _ in
          s.properties.numericValue
        })
      {
        // Arabic-Indic digits as the digits people type.
        out.put(String(Int(digit)), from: i)
      } else if isArabic(s) {
        out.put(arabic(s, after: previous, variant: variant), from: i)
      } else if !isMark(s) {
        out.scalars.append(s)
        out.sources.append(i)
      }
      i += 1
    }
    return out
  }

  static func lowercase(_ s: Unicode.Scalar) -> Unicode.Scalar {
    let mapped = s.properties.lowercaseMapping.unicodeScalars
    return mapped.count == 1 ? mapped.first! : s
  }

  static func isMark(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  package static func isCyrillic(_ s: Unicode.Scalar) -> Bool { s.value &- 0x400 < 0x100 }
  package static func isGreek(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x370 < 0x90 || s.value &- 0x1F00 < 0x100
  }
  package static func isHangul(_ s: Unicode.Scalar) -> Bool { s.value &- 0xAC00 < 11172 }

  /// Initial consonants, vowels and final consonants of Hangul syllables in the Revised
  /// Romanization of Korean (2000).
  static let hangulInitials = [
    "g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t",
    "p", "h",
  ]
  static let hangulVowels = [
    "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo",
    "we", "wi", "yu", "eu", "ui", "i",
  ]
  static let hangulFinals = [
    "", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p",
    "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t",
  ]
  /// A final consonant read as the next syllable's initial, before a syllable that starts
  /// with a vowel (한국어 → hangugeo): ㄱ g, ㄴ n, ㄷ d, ㄹ r, ㅁ m, ㅂ b, ㅅ s, ㅈ j, ㅊ ch,
  /// ㅋ k, ㅌ t, ㅍ p, ㅎ silent; clusters and ㅇ as at the end.
  static let hangulLinkedFinals: [Int: String] = [
    1: "g", 2: "kk", 4: "n", 7: "d", 8: "r", 16: "m", 17: "b", 19: "s", 20: "ss", 22: "j",
    23: "ch", 24: "k", 25: "t", 26: "p", 27: "",
  ]

  /// One Hangul syllable in the Revised Romanization; in the variant, a final consonant
  /// before a syllable that starts with a vowel is read as that syllable's initial.
  static func hangul(_ s: Unicode.Scalar, before next: Unicode.Scalar?, variant: Bool) -> String {
    let index = Int(s.value - 0xAC00)
    let initial = index / (21 * 28)
    let vowel = (index / 28) % 21
    let final = index % 28
    var out = hangulInitials[initial] + hangulVowels[vowel]
    if variant, let next, isHangul(next), Int(next.value - 0xAC00) / (21 * 28) == 11,
      let linked = hangulLinkedFinals[final]
    {
      out += linked
    } else {
      out += hangulFinals[final]
    }
    return out
  }

  package static func isHebrew(_ s: Unicode.Scalar) -> Bool { s.value &- 0x591 < 0x64 }
  package static func isArabic(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x600 < 0x100 || s.value &- 0xFB50 < 0x2B0 || s.value &- 0xFE70 < 0x90
  }

  /// Whether `s` is not a letter of a word (a word starts after it).
  static func isBoundary(_ s: Unicode.Scalar?) -> Bool {
    guard let s else { return true }
    return !s.properties.isAlphabetic
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
    _ scalars: [Unicode.Scalar], at i: Int, variant: Bool, to out: inout Spelling
  ) -> Int {
    // Accents and breathings off: the base letter decides.
    func base(_ k: Int) -> Unicode.Scalar? {
      guard k < scalars.count else { return nil }
      return String(scalars[k]).decomposedStringWithCanonicalMapping.unicodeScalars.first
    }
    let s = base(i)!
    let next = base(i + 1)
    func put(_ text: String) { out.put(text, from: i) }
    // Digraphs: both letters are the source of the first Latin letter, the second of the rest.
    func pair(_ text: String) -> Int {
      let latin = Array(text.unicodeScalars)
      for (k, l) in latin.enumerated() {
        out.scalars.append(l)
        out.sources.append(k == 0 && latin.count > 1 ? i : i + 1)
      }
      return 2
    }
    if let next {
      switch (s, next) {
      case ("ο", "υ"): return pair(variant ? "u" : "ou")
      case ("α", "ι"): return pair(variant ? "e" : "ai")
      case ("ε", "ι"), ("ο", "ι"): return pair(variant ? "i" : String(s == "ε" ? "ei" : "oi"))
      case ("μ", "π"): return pair(i == 0 || variant ? "b" : "mp")
      case ("ν", "τ"): return pair(i == 0 || variant ? "d" : "nt")
      case ("γ", "κ"): return pair(i == 0 || variant ? "g" : "gk")
      case ("γ", "γ"): return pair("ng")
      case ("α", "υ"): return pair("av")
      case ("ε", "υ"): return pair("ev")
      default: break
      }
    }
    if let letters = greekLetters[s] { put(variant ? letters.1 : letters.0) }
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

  /// One Hebrew letter: the consonant skeleton as commonly romanized (Israeli road signs),
  /// waw and yod as the vowels they mostly write inside a word; points and cantillation
  /// marks give nothing.
  static func hebrew(
    _ s: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?,
    variant: Bool
  ) -> String {
    let initial = isBoundary(previous)
    let final = isBoundary(next)
    switch s {
    case "א", "ע": return initial ? "a" : ""
    case "ב": return initial || variant ? "b" : "v"
    case "ג": return "g"
    case "ד": return "d"
    case "ה": return final && !initial ? "a" : "h"
    case "ו":
      if initial || previous == "ו" { return "v" }
      if next == "ו" { return "" }
      return variant ? "u" : "o"
    case "ז": return "z"
    case "ח": return variant ? "ch" : "h"
    case "ט": return "t"
    case "י":
      if initial || previous == "י" { return "y" }
      if next == "י" { return "" }
      return "i"
    case "כ": return initial ? "k" : (variant ? "ch" : "kh")
    case "ך": return variant ? "ch" : "kh"
    case "ל": return "l"
    case "מ", "ם": return "m"
    case "נ", "ן": return "n"
    case "ס": return "s"
    case "פ": return initial ? "p" : "f"
    case "ף": return "f"
    case "צ", "ץ": return variant ? "tz" : "ts"
    case "ק": return "k"
    case "ר": return "r"
    case "ש": return "sh"
    case "ת": return "t"
    default: return ""
    }
  }

  /// One Arabic (or Persian) letter, as commonly romanized: the consonants after BGN/PCGN
  /// without its dots and lines, alif as a, waw and ya as w and y (u and i in the variant),
  /// the short-vowel marks as the vowels they write, hamza and the other marks as nothing.
  static func arabic(_ s: Unicode.Scalar, after previous: Unicode.Scalar?, variant: Bool)
    -> String
  {
    switch s {
    case "ا", "أ", "آ", "ٱ", "ى": return "a"
    case "إ": return "i"
    case "ب": return "b"
    case "ت": return "t"
    case "ة": return "a"
    case "ث": return "th"
    case "ج": return "j"
    case "ح": return "h"
    case "خ": return "kh"
    case "د": return "d"
    case "ذ": return "dh"
    case "ر": return "r"
    case "ز": return "z"
    case "س": return "s"
    case "ش": return "sh"
    case "ص": return "s"
    case "ض": return "d"
    case "ط": return "t"
    case "ظ": return "z"
    case "ع": return isBoundary(previous) ? "a" : ""
    case "غ": return "gh"
    case "ف": return "f"
    case "ق": return variant ? "k" : "q"
    case "ك", "ک": return "k"
    case "گ": return "g"
    case "ل": return "l"
    case "م": return "m"
    case "ن": return "n"
    case "ه", "ہ", "ھ": return "h"
    case "و", "ؤ": return variant ? "u" : "w"
    case "ي", "ی", "ئ", "ې": return variant ? "i" : "y"
    case "پ": return "p"
    case "چ": return "ch"
    case "ژ": return "zh"
    case "\u{64E}": return "a"
    case "\u{64F}": return "u"
    case "\u{650}": return "i"
    default: return ""
    }
  }
}
