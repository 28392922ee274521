import PlaceCore

/// A query cut at the cursor and split into folded tokens.
struct QueryPlan: Sendable {
  /// Folded query tokens, in typed order.
  var tokens: [String]

  /// Tokenizes `query` up to `inputOffset` (Unicode scalars).
  init(query: String, inputOffset: Int?) {
    var text = query
    if let offset = inputOffset {
      let scalars = query.unicodeScalars
      let cut = scalars.index(scalars.startIndex, offsetBy: min(max(0, offset), scalars.count))
      text = String(scalars[..<cut])
    }
    tokens = Tokenizer.tokens(text).map(\.text).filter { !$0.isEmpty }
  }
}

/// How one query token maps onto an index's dictionary.
struct ResolvedToken {
  /// Ids of all tokens with this prefix.
  var range: Range<Int>
  /// The id of the token equal to it, if any.
  var exact: Int?
  /// Sorted ids of tokens within the allowed edits (first letter fixed), outside `range`.
  var typos: [Int]
  /// Total postings over the range (capped), to pick the cheapest token to drive the search.
  var cost: Int

  /// Whether nothing can match this token.
  var isEmpty: Bool { range.isEmpty && typos.isEmpty }
}

/// Edit distances for typo tolerance.
enum TypoDistance {
  /// Edits allowed for a query token of `length` scalars: 1 from 5, 2 from 9.
  static func allowedEdits(length: Int) -> Int {
    length >= 9 ? 2 : length >= 5 ? 1 : 0
  }

  /// The least Damerau–Levenshtein distance (adjacent transpositions count once) between
  /// `query` and any prefix of `word`, or nil when it exceeds `limit`.
  static func prefixDistance(_ query: [UInt8], _ word: [UInt8], limit: Int) -> Int? {
    let m = query.count
    let n = word.count
    if n < m - limit { return nil }
    // Rows of the DP table over word positions 0...n.
    var prev2 = [Int](repeating: 0, count: n + 1)
    var prev = Array(0...n)
    var cur = [Int](repeating: 0, count: n + 1)
    for i in 1...max(m, 1) where m > 0 {
      cur[0] = i
      var rowMin = cur[0]
      for j in 1...max(n, 1) where n > 0 {
        let cost = query[i - 1] == word[j - 1] ? 0 : 1
        var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        if i > 1 && j > 1 && query[i - 1] == word[j - 2] && query[i - 2] == word[j - 1] {
          v = min(v, prev2[j - 2] + 1)
        }
        cur[j] = v
        rowMin = min(rowMin, v)
      }
      if rowMin > limit { return nil }
      (prev2, prev, cur) = (prev, cur, prev2)
    }
    let best = prev.min() ?? m
    return best <= limit ? best : nil
  }
}
