/// A folded term under which a token of a place's text is indexed, and how it relates to the
/// token, so that matches on it can be highlighted.
public struct IndexTerm: Sendable, Hashable {
  /// How a term was derived from its token.
  public enum Kind: Sendable, Hashable {
    /// The token's primary fold ("zurich" for "Zürich").
    case primary
    /// The German/Nordic alternate fold ("zuerich" for "Zürich").
    case alternate
    /// A piece of the primary fold starting at this offset, in folded scalars: a housenumber
    /// part ("17" of "3191/17"), a compound's street-type word ("strasse" of "kanalstrasse"),
    /// the word after an elision ("eglise" of "l'Église").
    case segment(offset: Int)
    /// Another spelling of the whole token: an abbreviation or expansion ("st" ↔ "street"),
    /// a compound's stem or abbreviated form ("kanal", "kanalstr").
    case variant
    /// The token glued to the next one ("kanalstrasse" for "Kanal Strasse", "12bis" for
    /// "12 bis").
    case joined
  }

  /// The folded term.
  public var text: String
  /// How it was derived.
  public var kind: Kind

  /// Creates a term.
  public init(text: String, kind: Kind) {
    self.text = text
    self.kind = kind
  }
}

/// The index terms of one token.
public struct TokenTerms: Sendable, Hashable {
  /// The token (primary fold and source range).
  public var token: TextToken
  /// Its terms, primary fold first, without duplicates.
  public var terms: [IndexTerm]

  /// Creates the terms of a token.
  public init(token: TextToken, terms: [IndexTerm]) {
    self.token = token
    self.terms = terms
  }
}

/// The folded terms under which a place's text is indexed.
///
/// A query token matches a place when it equals or is a prefix of one of these terms. Per
/// token: the primary fold, the alternate fold when umlauts make it differ, housenumber parts
/// ("3191/17" → "3191", "17"; "12a" → "12"; "17к1" → "17", "1", "к1"; "2-я" → "я",
/// "2я"), the word after a short elision ("l'Église" →
/// "eglise"), abbreviation variants both ways ("Main Street" → "st"; "Main St" → "street"),
/// compound street words split and abbreviated ("Kanalstrasse" → "kanalstr", "kanal",
/// "strasse"; "Hauptstr." → "hauptstrasse"; "Yrjönkatu" → "yrjonk", "yrjon") and glued forms
/// of a word and a following street word or housenumber suffix ("Kanal Str." →
/// "kanalstrasse", "12 bis" → "12bis").
public enum IndexTerms {
  /// The de-duplicated folded terms of `text`, in a deterministic order (by token, primary
  /// fold first).
  public static func terms(for text: String, abbreviations: Abbreviations) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for tokenTerms in tokenTerms(for: text, abbreviations: abbreviations) {
      for term in tokenTerms.terms where seen.insert(term.text).inserted {
        result.append(term.text)
      }
    }
    return result
  }

  /// The terms of each token of `text`, with how each term was derived.
  public static func tokenTerms(for text: String, abbreviations: Abbreviations) -> [TokenTerms] {
    let scalars = Array(text.unicodeScalars)
    return tokenTerms(
      in: scalars, tokens: Tokenizer.tokens(in: scalars), abbreviations: abbreviations)
  }

  /// The terms of the given tokens of a text given as its scalars.
  static func tokenTerms(
    in scalars: [Unicode.Scalar], tokens: [TextToken], abbreviations: Abbreviations
  ) -> [TokenTerms] {
    var result: [TokenTerms] = []
    result.reserveCapacity(tokens.count)
    for (index, token) in tokens.enumerated() {
      var collector = TermCollector()
      let primary = Array(token.text.unicodeScalars)
      collector.add(token.text, .primary)

      var alternate: [Unicode.Scalar]? = nil
      if scalars[token.range].contains(where: { $0.value >= 0xC0 }) {
        let folded = TextNormalizer.fold(scalars[token.range], alternate: true, wordOnly: true)
        if folded.scalars != primary {
          alternate = folded.scalars
          collector.add(folded.string, .alternate)
        }
      }

      addNumberParts(of: primary, to: &collector)
      addElisionTail(of: token, primary: primary, in: scalars, to: &collector)

      let followedByPeriod =
        token.range.upperBound < scalars.count && scalars[token.range.upperBound] == "."
      for variant in abbreviations.variants(of: token.text) {
        collector.add(variant, .variant)
      }
      addCompoundForms(
        of: primary, isPrimary: true, followedByPeriod: followedByPeriod,
        abbreviations: abbreviations, to: &collector)
      if let alternate {
        let text = String(textScalars: alternate[...])
        for variant in abbreviations.variants(of: text) { collector.add(variant, .variant) }
        addCompoundForms(
          of: alternate, isPrimary: false, followedByPeriod: followedByPeriod,
          abbreviations: abbreviations, to: &collector)
      }

      if index + 1 < tokens.count {
        addJoinedForms(
          of: token, primary: primary, next: tokens[index + 1], in: scalars,
          abbreviations: abbreviations, to: &collector)
      }
      result.append(TokenTerms(token: token, terms: collector.terms))
    }
    return result
  }

  /// Housenumber parts: the pieces between "/" and "-", and the digit runs of mixed pieces
  /// (letter runs too when they are 3 or more long, such as "bis" of "12bis", and a short
  /// letter run with the digits after it).
  private static func addNumberParts(
    of primary: [Unicode.Scalar], to collector: inout TermCollector
  ) {
    guard primary.contains(where: { $0.value &- 0x30 < 10 }) else { return }
    var pieces: [Range<Int>] = []
    var start = 0
    for (offset, scalar) in primary.enumerated() where scalar == "-" || scalar == "/" {
      pieces.append(start..<offset)
      start = offset + 1
    }
    pieces.append(start..<primary.count)
    // A Russian ordinal ("2-я" of a street name): its ending and its glued form; not its
    // number, which a query's housenumber would otherwise match exactly.
    if pieces.count == 2, primary[pieces[1]].allSatisfy({ $0.value &- 0x400 < 0x100 }),
      !pieces[0].isEmpty, !pieces[1].isEmpty,
      primary[pieces[0]].allSatisfy({ $0.value &- 0x30 < 10 })
    {
      collector.add(String(textScalars: primary[pieces[1]]), .segment(offset: pieces[1].lowerBound))
      collector.add(String(textScalars: primary[pieces[0]] + primary[pieces[1]]), .variant)
      return
    }
    // An English ordinal ("2nd" of "East 2nd Street"): not its number either, which would
    // make every address on the street an address of house number 2.
    if pieces.count == 1, Tokenizer.isOrdinal(primary) { return }
    for piece in pieces {
      if pieces.count > 1 && !piece.isEmpty {
        collector.add(String(textScalars: primary[piece]), .segment(offset: piece.lowerBound))
      }
      var runStart = piece.lowerBound
      var runs: [Range<Int>] = []
      for offset in piece {
        let isDigit = primary[offset].value &- 0x30 < 10
        if offset > runStart && isDigit != (primary[offset - 1].value &- 0x30 < 10) {
          runs.append(runStart..<offset)
          runStart = offset
        }
      }
      guard runStart > piece.lowerBound else { continue }
      runs.append(runStart..<piece.upperBound)
      for (k, run) in runs.enumerated() {
        let isDigits = primary[run.lowerBound].value &- 0x30 < 10
        // Letters after a number: 3 or more ("bis" of "12bis"), or 1 to 3 before more
        // digits, taken with them ("к1" of "17к1", for "17 к1"). (The letter that ends "1a"
        // is a context term of the address: PlaceAssembler.)
        let afterNumber = k > 0
        if isDigits || run.count >= 3 {
          collector.add(String(textScalars: primary[run]), .segment(offset: run.lowerBound))
        }
        if !isDigits && afterNumber && run.count <= 3 && k + 1 < runs.count {
          collector.add(
            String(textScalars: primary[run.lowerBound..<piece.upperBound]),
            .segment(offset: run.lowerBound))
        }
      }
    }
  }

  /// The word after a short elided head: "l'Église" → "eglise", "dell'Orso" → "orso",
  /// "O'Brien" → "brien" (not "McDonald's" → "s").
  private static func addElisionTail(
    of token: TextToken, primary: [Unicode.Scalar], in scalars: [Unicode.Scalar],
    to collector: inout TermCollector
  ) {
    guard
      let apostrophe = scalars[token.range].firstIndex(where: {
        TextScalars.isApostrophe($0.value)
      })
    else { return }
    let head = TextNormalizer.fold(scalars[token.range.lowerBound..<apostrophe], wordOnly: true)
    let headCount = head.scalars.count
    guard headCount >= 1 && headCount <= 6 && primary.count - headCount >= 3 else { return }
    collector.add(String(textScalars: primary[headCount...]), .segment(offset: headCount))
  }

  /// Compound street words: "kanalstrasse" → "kanal", "kanalstr", "strasse";
  /// "hauptstr" → "hauptstrasse", "haupt", "strasse". A glued one-letter abbreviation counts
  /// only before a period ("Yrjönk." but not "Dirk").
  private static func addCompoundForms(
    of word: [Unicode.Scalar], isPrimary: Bool, followedByPeriod: Bool,
    abbreviations: Abbreviations, to collector: inout TermCollector
  ) {
    guard let key = Abbreviations.endingKey(word[...]) else { return }
    guard
      abbreviations.suffixEndings.contains(key)
        || (followedByPeriod && abbreviations.suffixLetters.contains(word[word.count - 1].value))
    else { return }
    for rule in abbreviations.suffixRules {
      let full = rule.full
      if word.count >= full.count + 2 && word.endsWith(full) {
        let stem = word[..<(word.count - full.count)]
        collector.add(String(textScalars: stem), .variant)
        for abbreviation in rule.abbreviations {
          collector.add(String(textScalars: stem + abbreviation), .variant)
        }
        collector.add(rule.fullText, isPrimary ? .segment(offset: stem.count) : .variant)
        for (abbreviation, text) in zip(rule.abbreviations, rule.abbreviationTexts)
        where abbreviation.count >= 2 && !full.starts(with: abbreviation) {
          collector.add(text, .variant)
        }
        continue
      }
      for abbreviation in rule.abbreviations
      where (abbreviation.count >= 2 || followedByPeriod)
        && word.count >= abbreviation.count + 3 && word.endsWith(abbreviation)
      {
        let stem = word[..<(word.count - abbreviation.count)]
        collector.add(String(textScalars: stem + full), .variant)
        collector.add(String(textScalars: stem), .variant)
        collector.add(rule.fullText, .variant)
      }
    }
  }

  /// A word glued to a following street word ("Kanal Strasse", "Karl-Marx-Str." →
  /// "marxstrasse"), a number glued to a following letter, "bis"/"ter" or Russian block
  /// ("12 a" → "12a", "17 к1" → "17к1").
  private static func addJoinedForms(
    of token: TextToken, primary: [Unicode.Scalar], next: TextToken, in scalars: [Unicode.Scalar],
    abbreviations: Abbreviations, to collector: inout TermCollector
  ) {
    for scalar in scalars[token.range.upperBound..<next.range.lowerBound] {
      guard scalar == " " || scalar == "-" || scalar == "\u{A0}" else { return }
    }
    let nextText = next.text
    if abbreviations.suffixRules.contains(where: { $0.fullText == nextText }) {
      collector.add(token.text + nextText, .joined)
      return
    }
    let nextCount = nextText.unicodeScalars.count
    let nextFollowedByPeriod =
      next.range.upperBound < scalars.count && scalars[next.range.upperBound] == "."
    if let fulls = abbreviations.suffixAbbreviationFulls[nextText],
      nextCount >= 2 || nextFollowedByPeriod
    {
      for full in fulls { collector.add(token.text + full, .joined) }
      return
    }
    if primary.allSatisfy({ $0.value &- 0x30 < 10 }) {
      let nextScalars = Array(nextText.unicodeScalars)
      let isLetter =
        nextScalars.count == 1
        && (nextScalars[0].value &- 0x61 < 26 || nextScalars[0].value &- 0x430 < 0x30)
      // A Russian building or block after the number: "17 к1" (корпус), "17 с2" (строение).
      let letters = nextScalars.prefix { $0.value &- 0x430 < 0x30 }
      let isBlock =
        (1...3).contains(letters.count) && nextScalars.count > letters.count
        && nextScalars[letters.count...].allSatisfy { $0.value &- 0x30 < 10 }
      if isLetter || isBlock || nextText == "bis" || nextText == "ter" || nextText == "quater" {
        collector.add(token.text + nextText, .joined)
      }
    }
  }
}

/// Terms of one token without duplicates, first kind kept.
struct TermCollector {
  var terms: [IndexTerm] = []

  mutating func add(_ text: String, _ kind: IndexTerm.Kind) {
    guard !text.isEmpty, !terms.contains(where: { $0.text == text }) else { return }
    terms.append(IndexTerm(text: text, kind: kind))
  }
}

extension String {
  /// A string made of the given scalars.
  init(textScalars: ArraySlice<Unicode.Scalar>) {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: textScalars)
    self.init(view)
  }
}

extension Array where Element == Unicode.Scalar {
  /// Whether the array ends with `suffix`.
  func endsWith(_ suffix: [Unicode.Scalar]) -> Bool {
    count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
  }
}
