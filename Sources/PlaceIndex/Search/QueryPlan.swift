import PlaceCore

/// A query cut at the cursor and split into folded tokens.
struct QueryPlan: Sendable {
  /// Folded query tokens, in typed order.
  var tokens: [String]
  /// Whether the text goes on after the last token (a space, a comma): the user has finished
  /// typing it, as every token before it.
  var lastIsFinished = false

  /// Tokenizes `query` up to `inputOffset` (Unicode scalars).
  init(query: String, inputOffset: Int?) {
    var text = query
    if let offset = inputOffset {
      let scalars = query.unicodeScalars
      let cut = scalars.index(scalars.startIndex, offsetBy: min(max(0, offset), scalars.count))
      text = String(scalars[..<cut])
    }
    let found = Tokenizer.tokens(text).filter { !$0.text.isEmpty }
    // "д. 5", "дом 5": the word for house before a housenumber is not part of the address.
    let all = found.indices.compactMap { i in
      let beforeNumber =
        i + 1 < found.count
        && found[i + 1].text.unicodeScalars.first.map { $0.value &- 0x30 < 10 } == true
      return beforeNumber && Self.houseWords.contains(found[i].text) ? nil : found[i]
    }
    tokens = all.map(\.text)
    lastIsFinished = all.last.map { $0.range.upperBound < text.unicodeScalars.count } ?? false
  }
}

extension QueryPlan {
  /// Words for "house" typed before a housenumber (Russian "д.", "дом"; Ukrainian "буд."),
  /// dropped from the query: addresses are indexed by the number alone.
  static let houseWords: Set<String> = ["д", "дом", "буд"]
}

/// How one query token maps onto an index's dictionary.
struct ResolvedToken: Sendable {
  /// Ids of all tokens with this prefix.
  var range: Range<Int>
  /// The id of the token equal to it, if any.
  var exact: Int?
  /// Sorted ids of tokens within the allowed edits (first letter fixed), outside `range`; for
  /// a word that matches nothing else, of the tokens it lies inside. Both count as typos.
  var typos: [Int]
  /// Total postings over the range (capped) and the typos, to pick the cheapest token to drive
  /// the search.
  var cost: Int
  /// Letters typed (Unicode scalars of the folded word).
  var typedLength = 0
  /// Whether ``typos`` are the tokens the word lies inside (it matches nothing else).
  var infixOnly = false
  /// The part of ``cost`` that the prefix range holds.
  var rangeCost = 0
  /// Whether the word is a whole token in another shard searched with this index, though not
  /// in this one's dictionary: a name then starts with it only as that token, in every shard
  /// (``LoadedIndex/startsName(_:with:terms:shared:)``), as in one index over all of them.
  var wholeInAnotherShard = false
  /// Set on the last word when a place whose address was typed whole earns
  /// ``Ranking/wholeAddress`` (``LoadedIndex/markWholeAddress(_:_:_:)``).
  var wholeAddress = false
  /// Whether this is a one-word query's word, still being typed (nothing after it) and shorter
  /// than ``Ranking/startsNamesBelowLetters``: a name whose first word it starts then starts
  /// with it, though it is a whole token too ("Har" starts "Harbor East" as much as "Har
  /// Sinai Church").
  var beingTyped = false

  /// Whether a name starts with this word only as its whole token (NAME STARTS): it has one,
  /// here or in another shard, and it is not a short one-word query still being typed
  /// (``beingTyped``), whose prefix starts names.
  var startsNamesWhole: Bool { (exact != nil || wholeInAnotherShard) && !beingTyped }

  /// Whether nothing can match this token.
  var isEmpty: Bool { range.isEmpty && typos.isEmpty }

  /// The most share of a match the word can have: ``Ranking/typoShare`` when no token starts
  /// with it (it matches only within typo distance, or inside a longer word), else 1.
  var mostShare: Double { range.isEmpty ? Ranking.typoShare : 1 }

  /// The most points the word can score: in a primary name, whole when it is a token, else as
  /// a prefix (times ``mostShare``).
  var mostNamePoints: Double { exact != nil ? Ranking.nameExact : mostShare * Ranking.namePrefix }
}

extension [ResolvedToken] {
  /// The most coverage a place can earn for these words: ``Ranking/coverage`` times their
  /// shares, at most 1 (a name has a word at least, so `min(inName, n) / n ≤ min(inName, 1)`).
  var mostCoverage: Double { Ranking.coverage * Swift.min(1, reduce(0) { $0 + $1.mostShare }) }

  /// The share every whole-name bonus is scaled by at most: the least of the words' shares.
  var leastShare: Double { map(\.mostShare).min() ?? 1 }
}

/// Edit distances for typo tolerance, over Unicode scalars (a letter outside ASCII is one
/// edit, as it is one letter of ``Ranking/allowedEdits(length:)``).
enum TypoDistance {
  /// ``prefixDistance(_:_:limit:)-(_,[UInt32],_)`` between the scalars of two UTF-8 texts.
  static func prefixDistance(_ query: [UInt8], _ word: [UInt8], limit: Int) -> Int? {
    prefixDistance(scalars(query), scalars(word), limit: limit)
  }

  /// The letters of UTF-8 `bytes` as the typo walk reads them: scalar values, a kana and its
  /// voiced mark as one (``TypoWalk/units(_:)``).
  static func scalars(_ bytes: [UInt8]) -> [UInt32] {
    TypoWalk.units(String(decoding: bytes, as: UTF8.self).unicodeScalars)
  }

  /// The least Damerau–Levenshtein distance (adjacent transpositions count once) between
  /// `query` and any prefix of `word` (scalar values), or nil when it exceeds `limit`.
  static func prefixDistance(_ query: [UInt32], _ word: [UInt32], limit: Int) -> Int? {
    distance(query, word, limit: limit, prefix: true)
  }

  /// The Damerau–Levenshtein distance between `query` and the whole of `word`, or nil when it
  /// exceeds `limit`.
  static func wholeDistance(_ query: [UInt32], _ word: [UInt32], limit: Int) -> Int? {
    guard word.count <= query.count + limit else { return nil }
    return distance(query, word, limit: limit, prefix: false)
  }

  /// ``prefixDistance(_:_:limit:)-(_,[UInt32],_)`` or, `prefix` false, the distance to the
  /// whole word (at most `limit` scalars longer than `query`).
  private static func distance(_ query: [UInt32], _ word: [UInt32], limit: Int, prefix: Bool)
    -> Int?
  {
    let m = query.count
    // Only the first m + limit scalars of the word can take part in a prefix match.
    let n = min(word.count, m + limit)
    if m == 0 { return prefix || n == 0 ? 0 : (n <= limit ? n : nil) }
    if n < m - limit || n == 0 { return nil }
    let width = n + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { buffer in
      var prev2 = buffer.baseAddress!
      var prev = prev2 + width
      var cur = prev + width
      for j in 0...n { prev[j] = j }
      for i in 1...m {
        cur[0] = i
        var rowMin = i
        let qi = query[i - 1]
        for j in 1...n {
          let wj = word[j - 1]
          var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (qi == wj ? 0 : 1))
          if i > 1 && j > 1 && qi == word[j - 2] && query[i - 2] == wj {
            v = min(v, prev2[j - 2] + 1)
          }
          cur[j] = v
          if v < rowMin { rowMin = v }
        }
        if rowMin > limit { return nil }
        (prev2, prev, cur) = (prev, cur, prev2)
      }
      var best = prefix ? prev[0] : prev[n]
      if prefix { for j in 1...n where prev[j] < best { best = prev[j] } }
      return best <= limit ? best : nil
    }
  }
}

/// A finished word of a query and the result limit it was resolved for, and whether its typo
/// and inside-word candidates were looked for (one index decides from its own counts, shards
/// from the counts over all of them: ``LoadedIndex/resolveWords(_:_:limit:)``).
struct WordKey: Hashable, Sendable {
  var word: String
  var limit: Int
  var typos = true
  var infix = true
}
