/// Finds the parts of a display text matched by the tokens of a query, for bolding.
public enum MatchHighlighter {
  /// The ranges, in Unicode scalar offsets of `displayText`, sorted, non-overlapping and
  /// merged, of the display tokens matched by the folded query tokens.
  ///
  /// A display token is matched when a query token equals or is a prefix of one of its
  /// ``IndexTerms``. When the match is a prefix of the token's primary or alternate fold, or
  /// of a piece of it (a housenumber part, a compound's street word), only the matched
  /// portion is returned, mapped back onto the source scalars even where folding changed the
  /// length ("zur" on "Zürich" → the first 3 scalars; "stras" on "Straße" → "Straß");
  /// a match on another spelling ("street" on "St") covers the whole token.
  ///
  /// Only the tokens that can carry another term than their primary fold (non-ASCII letters,
  /// digits, an apostrophe, an abbreviation or compound street word, or a query that runs past
  /// the token into the next) have their ``IndexTerms`` computed; the result is the same as
  /// ``matchesByTerms(queryTokens:in:abbreviations:)``, which computes them for every token.
  public static func matches(
    queryTokens: [String], in displayText: String, abbreviations: Abbreviations
  ) -> [Range<Int>] {
    matches(
      queryTokens: queryTokens, in: Prepared(displayText, abbreviations: abbreviations),
      abbreviations: abbreviations)
  }

  /// The same ranges as ``matches(queryTokens:in:abbreviations:)-(_,String,_)``, for a text
  /// prepared with the same `abbreviations`: a text shown again is matched without folding
  /// it again.
  public static func matches(
    queryTokens: [String], in text: Prepared, abbreviations: Abbreviations
  ) -> [Range<Int>] {
    let queries = foldedQueries(queryTokens)
    guard !queries.isEmpty, !text.folds.isEmpty else { return [] }
    let folds = text.folds
    let spans = text.spans
    var ranges: [Range<Int>] = []
    for index in folds.indices {
      let primary = folds[index].scalars
      var terms = text.terms[index]
      for query in queries {
        if primary.starts(with: query) {
          ranges.append(
            spans[index]
              .lowerBound..<end(
                of: query.count, in: folds[index], range: spans[index], text.scalars)
          )
          continue
        }
        // A joined form starts with the whole token and runs into the next one.
        let runsOn =
          index + 1 < folds.count && query.count > primary.count && query.starts(with: primary)
        if !runsOn {
          switch text.others[index] {
          case .none: continue
          // Every term starts with one of the token's own letters.
          case .ownLetters(let extra):
            if !primary.contains(query[0]) && !extra.contains(query[0]) { continue }
          case .any: break
          }
        }
        if terms == nil { terms = text.computeTerms(index, abbreviations: abbreviations) }
        guard let term = bestTerm(terms!, matching: query) else {
          appendTransliterated(query, token: spans[index], text.scalars, to: &ranges)
          continue
        }
        appendMatch(
          of: term, query: query, token: index, ranges: &ranges,
          context: Context(scalars: text.scalars, spans: spans, folds: folds))
      }
    }
    return merged(ranges)
  }

  /// A display text prepared for highlighting: its tokens, their primary folds, which other
  /// index terms each can have, and those terms for the tokens that can have them. Computed
  /// once, it serves every query that shows the text.
  public final class Prepared: Sendable {
    let scalars: [Unicode.Scalar]
    let spans: [Range<Int>]
    let folds: [FoldBuffer]
    let others: [OtherTerms]
    /// The index terms of each token that can have terms besides its primary fold (other
    /// than joined with the next token); nil for the others.
    let terms: [[IndexTerm]?]

    /// Prepares `displayText`, with the abbreviation table the index was built with.
    public init(_ displayText: String, abbreviations: Abbreviations) {
      let scalars = Array(displayText.unicodeScalars)
      var folds: [FoldBuffer] = []
      var spans: [Range<Int>] = []
      for span in Tokenizer.spans(in: scalars) {
        let fold = TextNormalizer.fold(scalars[span], wordOnly: true, tracksSources: true)
        if !fold.scalars.isEmpty {
          folds.append(fold)
          spans.append(span)
        }
      }
      let others = folds.indices.map {
        MatchHighlighter.otherTerms(
          folds[$0].scalars, range: spans[$0], in: scalars, abbreviations: abbreviations)
      }
      self.scalars = scalars
      self.spans = spans
      self.folds = folds
      self.others = others
      terms = folds.indices.map {
        if case .none = others[$0] { return nil }
        return Self.terms(
          of: $0, scalars: scalars, spans: spans, folds: folds, abbreviations: abbreviations)
      }
    }

    /// The index terms of token `index` (with the next token, for joined forms).
    func computeTerms(_ index: Int, abbreviations: Abbreviations) -> [IndexTerm] {
      Self.terms(
        of: index, scalars: scalars, spans: spans, folds: folds, abbreviations: abbreviations)
    }

    private static func terms(
      of index: Int, scalars: [Unicode.Scalar], spans: [Range<Int>], folds: [FoldBuffer],
      abbreviations: Abbreviations
    ) -> [IndexTerm] {
      func token(_ i: Int) -> TextToken {
        TextToken(text: MatchHighlighter.text(of: folds[i].scalars), range: spans[i])
      }
      let pair = index + 1 < folds.count ? [token(index), token(index + 1)] : [token(index)]
      return IndexTerms.tokenTerms(in: scalars, tokens: pair, abbreviations: abbreviations)[0]
        .terms
    }
  }

  /// The same ranges as ``matches(queryTokens:in:abbreviations:)``, computing the index terms
  /// of every token (the plain definition, kept to check the other against).
  static func matchesByTerms(
    queryTokens: [String], in displayText: String, abbreviations: Abbreviations
  ) -> [Range<Int>] {
    let queries = foldedQueries(queryTokens)
    guard !queries.isEmpty else { return [] }
    let scalars = Array(displayText.unicodeScalars)
    let tokens = Tokenizer.tokens(in: scalars)
    guard !tokens.isEmpty else { return [] }
    let analyzed = IndexTerms.tokenTerms(
      in: scalars, tokens: tokens, abbreviations: abbreviations)
    let folds = tokens.map {
      TextNormalizer.fold(scalars[$0.range], wordOnly: true, tracksSources: true)
    }
    let context = Context(scalars: scalars, spans: tokens.map(\.range), folds: folds)
    var ranges: [Range<Int>] = []
    for (index, entry) in analyzed.enumerated() {
      let token = entry.token
      for query in queries {
        if token.text.unicodeScalars.starts(with: query) {
          ranges.append(
            token.range
              .lowerBound..<end(of: query.count, in: folds[index], range: token.range, scalars))
          continue
        }
        guard let term = bestTerm(entry.terms, matching: query) else {
          appendTransliterated(query, token: token.range, scalars, to: &ranges)
          continue
        }
        appendMatch(of: term, query: query, token: index, ranges: &ranges, context: context)
      }
    }
    return merged(ranges)
  }

  /// The folded query tokens, without empty ones and repeats.
  private static func foldedQueries(_ queryTokens: [String]) -> [[Unicode.Scalar]] {
    var queries: [[Unicode.Scalar]] = []
    for token in queryTokens {
      // Query tokens come folded already: lower-case ASCII letters and digits fold to
      // themselves.
      let folded =
        token.utf8.allSatisfy { $0 &- 0x61 < 26 || $0 &- 0x30 < 10 }
        ? Array(token.unicodeScalars) : Array(TextNormalizer.fold(token).unicodeScalars)
      if !folded.isEmpty && !queries.contains(folded) { queries.append(folded) }
    }
    return queries
  }

  /// Which index terms a token can have besides its primary fold (other than joined with the
  /// next token).
  enum OtherTerms: Sendable {
    /// None.
    case none
    /// Only terms that start with one of its own folded letters or with one of `extra`: an
    /// ASCII token with digits (number parts), an apostrophe, a compound or abbreviated
    /// street word (its pieces), or an abbreviation (its expansions' first letters in
    /// `extra`).
    case ownLetters(extra: [Unicode.Scalar])
    /// Any: a token with letters beyond ASCII (alternate folds, Latin spellings of other
    /// scripts).
    case any
  }

  /// Which index terms a token can have besides its primary fold, other than glued to the
  /// next token: the conditions under which ``IndexTerms`` adds alternate folds, number
  /// parts, elision tails, abbreviation variants and compound forms.
  static func otherTerms(
    _ primary: [Unicode.Scalar], range: Range<Int>, in scalars: [Unicode.Scalar],
    abbreviations: Abbreviations
  ) -> OtherTerms {
    var apostrophe = false
    for scalar in scalars[range] {
      if scalar.value >= 0xC0 { return .any }
      if TextScalars.isApostrophe(scalar.value) { apostrophe = true }
    }
    let variants = abbreviations.variants(of: text(of: primary))
    if !variants.isEmpty { return .ownLetters(extra: variants.compactMap(\.unicodeScalars.first)) }
    if apostrophe || primary.contains(where: { $0.value &- 0x30 < 10 }) {
      return .ownLetters(extra: [])
    }
    if let key = Abbreviations.endingKey(primary[...]), abbreviations.suffixEndings.contains(key) {
      return .ownLetters(extra: [])
    }
    let followedByPeriod = range.upperBound < scalars.count && scalars[range.upperBound] == "."
    if followedByPeriod, let last = primary.last, abbreviations.suffixLetters.contains(last.value) {
      return .ownLetters(extra: [])
    }
    return .none
  }

  /// The string of folded scalars, built straight from bytes when they are all ASCII (the
  /// common case, without the scalar-by-scalar append).
  static func text(of scalars: [Unicode.Scalar]) -> String {
    guard scalars.allSatisfy({ $0.value < 0x80 }) else { return String(textScalars: scalars[...]) }
    return String(unsafeUninitializedCapacity: scalars.count) { buffer in
      for (i, scalar) in scalars.enumerated() {
        buffer[i] = UInt8(truncatingIfNeeded: scalar.value)
      }
      return scalars.count
    }
  }

  /// A display text's scalars, its tokens' source ranges and their primary folds (with
  /// sources).
  private struct Context {
    var scalars: [Unicode.Scalar]
    var spans: [Range<Int>]
    var folds: [FoldBuffer]
  }

  /// Appends the source range that `term` of token `index` covers for `query`.
  private static func appendMatch(
    of term: IndexTerm, query: [Unicode.Scalar], token index: Int, ranges: inout [Range<Int>],
    context: Context
  ) {
    let scalars = context.scalars
    let range = context.spans[index]
    switch term.kind {
    case .primary:
      break
    case .alternate:
      let fold = TextNormalizer.fold(
        scalars[range], alternate: true, wordOnly: true, tracksSources: true)
      ranges.append(range.lowerBound..<end(of: query.count, in: fold, range: range, scalars))
    case .segment(let offset):
      let fold = context.folds[index]
      guard offset < fold.sources.count else {
        ranges.append(range)
        return
      }
      let upper = end(of: offset + query.count, in: fold, range: range, scalars)
      ranges.append(fold.sources[offset]..<upper)
    case .variant:
      ranges.append(range)
    case .joined:
      let next = context.spans[index + 1]
      let nextFold = context.folds[index + 1]
      let ownCount = context.folds[index].scalars.count
      let rest = query[ownCount...]
      if query.count > ownCount && nextFold.scalars.starts(with: rest) {
        ranges.append(range)
        ranges.append(next.lowerBound..<end(of: rest.count, in: nextFold, range: next, scalars))
      } else {
        ranges.append(range.lowerBound..<next.upperBound)
      }
    }
  }

  /// Appends the letters of a token in Cyrillic, Greek, Hebrew, Arabic or Hangul that a Latin
  /// query matched through one of the token's Latin spellings (`LatinTransliteration`, the
  /// table the builder indexed them with): "rosn" on "Роснефть" → "Росн"; or the characters
  /// in Han or Kana whose Pinyin or Hepburn it typed (``EastAsianSpelling``): "zhongsh" on
  /// "中山纪念图书馆" → "中山", "sukai" on "東京スカイツリー" → "スカイ". A text with Kana is
  /// Japanese, its Han without a spelling (as the builder has it).
  private static func appendTransliterated(
    _ query: [Unicode.Scalar], token range: Range<Int>, _ scalars: [Unicode.Scalar],
    to ranges: inout [Range<Int>]
  ) {
    guard query[0].value < 0x80 else { return }
    let token = Array(scalars[range])
    if let covered = LatinTransliteration.coveredPrefix(of: query, in: token) {
      ranges.append(range.lowerBound..<(range.lowerBound + covered))
    } else if let covered = EastAsianSpelling.coveredRange(
      of: query, in: token, japanese: scalars.contains(where: EastAsianSpelling.isKana))
    {
      ranges.append(
        (range.lowerBound + covered.lowerBound)..<(range.lowerBound + covered.upperBound))
    }
  }

  /// The matching term that maps most precisely onto the source: alternate fold, then
  /// pieces, then glued forms, then other spellings.
  private static func bestTerm(_ terms: [IndexTerm], matching query: [Unicode.Scalar])
    -> IndexTerm?
  {
    var best: IndexTerm? = nil
    var bestRank = Int.max
    for term in terms where term.text.unicodeScalars.starts(with: query) {
      let rank: Int
      switch term.kind {
      case .primary: rank = 0
      case .alternate: rank = 1
      case .segment: rank = 2
      case .joined: rank = 3
      case .variant: rank = 4
      }
      if rank < bestRank {
        best = term
        bestRank = rank
      }
    }
    return best
  }

  /// The source offset just after the first `count` folded scalars of a token: after the
  /// source scalar that produced the last of them, and after combining marks that follow it.
  private static func end(
    of count: Int, in fold: FoldBuffer, range: Range<Int>, _ scalars: [Unicode.Scalar]
  ) -> Int {
    let sources = fold.sources
    guard count > 0 else { return range.lowerBound }
    guard count < sources.count else { return range.upperBound }
    var end = sources[count - 1] + 1
    let limit = sources[count]
    while end < limit && isMark(scalars[end]) { end += 1 }
    return end
  }

  /// A combining mark or variation selector (folded to nothing, belongs to the scalar before).
  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// Ranges sorted and merged where they overlap or touch.
  private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    let sorted = ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
    var result: [Range<Int>] = []
    for range in sorted {
      if let last = result.last, range.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }
}
