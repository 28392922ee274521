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
  /// Total postings over the range (capped), to pick the cheapest token to drive the search.
  var cost: Int
}
