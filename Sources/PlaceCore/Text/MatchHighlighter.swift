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
  public static func matches(
    queryTokens: [String], in displayText: String, abbreviations: Abbreviations
  ) -> [Range<Int>] {
    var queries: [[Unicode.Scalar]] = []
    for token in queryTokens {
      let folded = Array(TextNormalizer.fold(token).unicodeScalars)
      if !folded.isEmpty && !queries.contains(folded) { queries.append(folded) }
    }
    guard !queries.isEmpty else { return [] }
    let scalars = Array(displayText.unicodeScalars)
    let tokens = Tokenizer.tokens(in: scalars)
    guard !tokens.isEmpty else { return [] }
    let analyzed = IndexTerms.tokenTerms(
      in: scalars, tokens: tokens, abbreviations: abbreviations)
    var folds: [FoldBuffer?] = Array(repeating: nil, count: tokens.count)
    func primaryFold(_ index: Int) -> FoldBuffer {
      if let fold = folds[index] { return fold }
      let fold = TextNormalizer.fold(
        scalars[tokens[index].range], wordOnly: true, tracksSources: true)
      folds[index] = fold
      return fold
    }

    var ranges: [Range<Int>] = []
    for (index, entry) in analyzed.enumerated() {
      let token = entry.token
      for query in queries {
        if token.text.unicodeScalars.starts(with: query) {
          let fold = primaryFold(index)
          ranges.append(
            token.range.lowerBound..<end(of: query.count, in: fold, token: token, scalars))
          continue
        }
        guard let term = bestTerm(entry.terms, matching: query) else { continue }
        switch term.kind {
        case .primary:
          break
        case .alternate:
          let fold = TextNormalizer.fold(
            scalars[token.range], alternate: true, wordOnly: true, tracksSources: true)
          ranges.append(
            token.range.lowerBound..<end(of: query.count, in: fold, token: token, scalars))
        case .segment(let offset):
          let fold = primaryFold(index)
          guard offset < fold.sources.count else {
            ranges.append(token.range)
            continue
          }
          let upper = end(of: offset + query.count, in: fold, token: token, scalars)
          ranges.append(fold.sources[offset]..<upper)
        case .variant:
          ranges.append(token.range)
        case .joined:
          let next = tokens[index + 1]
          let ownCount = token.text.unicodeScalars.count
          let rest = query[ownCount...]
          if query.count > ownCount && next.text.unicodeScalars.starts(with: rest) {
            let nextFold = primaryFold(index + 1)
            ranges.append(token.range)
            ranges.append(
              next.range.lowerBound..<end(of: rest.count, in: nextFold, token: next, scalars))
          } else {
            ranges.append(token.range.lowerBound..<next.range.upperBound)
          }
        }
      }
    }
    return merged(ranges)
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
    of count: Int, in fold: FoldBuffer, token: TextToken, _ scalars: [Unicode.Scalar]
  ) -> Int {
    let sources = fold.sources
    guard count > 0 else { return token.range.lowerBound }
    guard count < sources.count else { return token.range.upperBound }
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
