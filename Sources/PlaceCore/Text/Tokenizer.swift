/// Splits text into folded tokens with their positions.
///
/// Letters, digits and combining marks make words; whitespace and punctuation split them.
/// Apostrophes and middle dots between word characters are dropped without splitting
/// ("McDonald's" → "mcdonalds", "Paral·lel" → "parallel"), invisible formatting characters
/// (soft hyphen, zero-width joiners) likewise. "/" and "-" (and dash variants) between two
/// digits are kept, so housenumbers such as "3191/17", "23-30" and "47-380" stay whole, and so
/// is "-" before a Russian ordinal ending ("2-я"). A period inside a short abbreviation
/// ("P.za", "V.le") is dropped without splitting.
public enum Tokenizer {
  /// The tokens of `text`, in order, each with its primary fold and its range in Unicode
  /// scalar offsets of `text`.
  ///
  /// Queries use these whole tokens ("23-30 29th st" → "23-30", "29th", "st"); the parts
  /// of housenumbers and other index-only forms come from ``IndexTerms``.
  public static func tokens(_ text: String) -> [TextToken] {
    tokens(in: Array(text.unicodeScalars))
  }

  /// The first token of `text`, folded as ``tokens(_:)`` folds it; nil when it has none.
  public static func firstToken(_ text: String) -> String? {
    let scalars = Array(text.unicodeScalars)
    for span in spans(in: scalars) {
      let folded = TextNormalizer.fold(scalars[span], wordOnly: true)
      if !folded.scalars.isEmpty { return folded.string }
    }
    return nil
  }

  /// The tokens of a text given as its scalars.
  static func tokens(in scalars: [Unicode.Scalar]) -> [TextToken] {
    var tokens: [TextToken] = []
    for span in spans(in: scalars) {
      let folded = TextNormalizer.fold(scalars[span], wordOnly: true)
      if !folded.scalars.isEmpty {
        tokens.append(TextToken(text: folded.string, range: span))
      }
    }
    return tokens
  }

  /// The source ranges of the words of a text given as its scalars.
  static func spans(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    var start = -1
    let count = scalars.count
    var index = 0
    while index < count {
      let scalar = scalars[index]
      let continues: Bool
      if TextScalars.isWord(scalar) {
        continues = true
      } else if start < 0 || index + 1 >= count {
        continues = false
      } else {
        let value = scalar.value
        let next = scalars[index + 1]
        if TextScalars.isNumberJoiner(value) {
          continues =
            TextScalars.isDigit(scalars[index - 1])
            && (TextScalars.isDigit(next) || isOrdinalEnding(scalars, after: index))
        } else if value == 0x2E {
          continues = isInnerAbbreviationPeriod(scalars, at: index, wordStart: start)
        } else if TextScalars.isIntraWordPunctuation(value) {
          continues = TextScalars.isWord(scalars[index - 1]) && TextScalars.isWord(next)
        } else if TextScalars.isFormat(scalar) {
          continues = TextScalars.isWord(next)
        } else {
          continues = false
        }
      }
      if continues {
        if start < 0 { start = index }
      } else if start >= 0 {
        spans.append(start..<index)
        start = -1
      }
      index += 1
    }
    if start >= 0 { spans.append(start..<count) }
    return spans
  }

  /// A letter that is not a digit.
  @inline(__always)
  private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    TextScalars.isWord(scalar) && !TextScalars.isDigit(scalar)
  }

  /// The number of letters from `from` on, up to `limit + 1`.
  private static func letterRun(_ scalars: [Unicode.Scalar], from: Int, limit: Int) -> Int {
    var end = from
    while end < scalars.count && end - from <= limit && isLetter(scalars[end]) { end += 1 }
    return end - from
  }

  /// Whether the dash at `index` joins a number to a Russian-style ordinal ending of 1 to 3
  /// Cyrillic letters that ends the word ("2-я", "1-й", "3-го"): the ordinal stays one
  /// token, so a housenumber after the street name is not taken for it.
  static func isOrdinalEnding(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
    let n = letterRun(scalars, from: index + 1, limit: 3)
    guard n >= 1 && n <= 3 else { return false }
    let end = index + 1 + n
    guard end == scalars.count || !TextScalars.isWord(scalars[end]) else { return false }
    return scalars[(index + 1)..<end].allSatisfy { $0.value &- 0x400 < 0x100 }
  }

  /// Whether a folded token is an ordinal of a street's name, never a housenumber: digits then
  /// an English ordinal ending ("1st", "2nd", "103rd", "4th") or a dash and a Russian one
  /// (``isOrdinalEnding(_:after:)``: "2-я", "1-й"). Its digits are no token of their own
  /// (``IndexTerms``), and a query's ordinal ("East 2nd") is no house number.
  package static func isOrdinal(_ token: [Unicode.Scalar]) -> Bool {
    let digits = token.prefix(while: { $0.value &- 0x30 < 10 }).count
    guard digits > 0, digits < token.count else { return false }
    if token[digits] == "-" { return isOrdinalEnding(token, after: digits) }
    guard token.count == digits + 2 else { return false }
    switch (token[digits], token[digits + 1]) {
    case ("s", "t"), ("n", "d"), ("r", "d"), ("t", "h"): return true
    default: return false
    }
  }

  /// Whether the period at `index` stands inside an abbreviation written with an inner
  /// period, as Italian street types are ("P.za" piazza, "V.le" viale, "C.so" corso): one
  /// letter that starts the word, the period, then 2 or 3 letters that end it. The period is
  /// dropped as apostrophes are ("P.za" → "pza"); initials ("J.S.", "L.E.") stay apart.
  static func isInnerAbbreviationPeriod(
    _ scalars: [Unicode.Scalar], at index: Int, wordStart: Int
  ) -> Bool {
    guard wordStart == index - 1, isLetter(scalars[index - 1]) else { return false }
    let n = letterRun(scalars, from: index + 1, limit: 3)
    guard n >= 2 && n <= 3 else { return false }
    let end = index + 1 + n
    return end == scalars.count || !TextScalars.isWord(scalars[end])
  }
}
