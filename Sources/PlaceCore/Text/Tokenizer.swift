/// Splits text into folded tokens with their positions.
///
/// Letters, digits and combining marks make words; whitespace and punctuation split them.
/// Apostrophes and middle dots between word characters are dropped without splitting
/// ("McDonald's" → "mcdonalds", "Paral·lel" → "parallel"), invisible formatting characters
/// (soft hyphen, zero-width joiners) likewise. "/" and "-" (and dash variants) between two
/// digits are kept, so housenumbers such as "3191/17", "23-30" and "47-380" stay whole.
public enum Tokenizer {
  /// The tokens of `text`, in order, each with its primary fold and its range in Unicode
  /// scalar offsets of `text`.
  ///
  /// Queries use these whole tokens ("23-30 29th st" → "23-30", "29th", "st"); the parts
  /// of housenumbers and other index-only forms come from ``IndexTerms``.
  public static func tokens(_ text: String) -> [TextToken] {
    tokens(in: Array(text.unicodeScalars))
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
          continues = TextScalars.isDigit(scalars[index - 1]) && TextScalars.isDigit(next)
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
}
