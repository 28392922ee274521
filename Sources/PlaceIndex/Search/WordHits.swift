import PlaceIndexFormat

/// Where one typed word lies in one place, as the postings tell it: for each part of the place
/// (primary name, alternative name, context), whether a token of the word's prefix range lies
/// there, whether its exact token does, and whether one of its typo candidates does.
struct WordHits: OptionSet, Sendable {
  let rawValue: UInt16

  /// A token of the prefix range lies in `part`.
  @inline(__always)
  static func range(_ part: PostingsPart) -> WordHits {
    WordHits(rawValue: 1 << UInt16(part.rawValue))
  }

  /// The token equal to the word lies in `part`.
  @inline(__always)
  static func exact(_ part: PostingsPart) -> WordHits {
    WordHits(rawValue: 8 << UInt16(part.rawValue))
  }

  /// A typo candidate lies in `part`.
  @inline(__always)
  static func typo(_ part: PostingsPart) -> WordHits {
    WordHits(rawValue: 64 << UInt16(part.rawValue))
  }

  /// A range token or a typo candidate lies in a name (primary or alternative).
  static let inName: WordHits = [
    .range(.name), .range(.alternative), .typo(.name), .typo(.alternative),
  ]
  /// The exact token lies in a name.
  static let exactInName: WordHits = [.exact(.name), .exact(.alternative)]
  /// The exact token lies somewhere in the place.
  static let exactAnywhere: WordHits = [.exact(.name), .exact(.alternative), .exact(.context)]

  /// What a postings list of `token` in `part` tells of each place it holds, for `word`.
  @inline(__always)
  static func of(_ token: Int, in part: PostingsPart, for word: ResolvedToken) -> WordHits {
    guard word.range.contains(token) else { return .typo(part) }
    return token == word.exact ? [.range(part), .exact(part)] : .range(part)
  }

  /// The first part, in order of weight, that `hits` name as a range match; else as a typo
  /// match. With the share of a match that counts and whether the word lies there whole.
  @inline(__always)
  var match: (part: PostingsPart, share: Double, exact: Bool)? {
    let r = rawValue & 7
    if r != 0 {
      let part = PostingsPart(rawValue: r.trailingZeroBitCount)!
      return (part, 1, contains(.exact(part)))
    }
    let t = (rawValue >> 6) & 7
    guard t != 0 else { return nil }
    return (PostingsPart(rawValue: t.trailingZeroBitCount)!, Ranking.typoShare, false)
  }
}

extension WordHits {
  /// Where `word` lies in a place whose tokens (TERMS) are `refs`, its shared lists in
  /// `shared`: what the word's postings tell of that place, read from the place's side; each
  /// shared list is searched in place (its tokens ascend) instead of copied.
  @inline(__always)
  static func of(_ word: ResolvedToken, in refs: PlaceTermRefs, shared: SharedTermLists)
    -> WordHits
  {
    var found: WordHits = []
    for (i, t) in refs.own.enumerated() {
      let token = Int(t)
      guard word.range.contains(token) || (!word.typos.isEmpty && isTypo(token, word.typos))
      else { continue }
      found.formUnion(.of(token, in: refs.part(at: i), for: word))
    }
    if refs.sharedName >= 0 { found.formUnion(of(word, inList: refs.sharedName, shared, .name)) }
    found.formUnion(of(word, inList: refs.commonContext, shared, .context))
    if refs.sharedRest >= 0 {
      found.formUnion(of(word, inList: refs.sharedRest, shared, .context))
    }
    return found
  }

  /// Where `word` lies in shared list `id`, held in `part`: binary searches in its ascending
  /// tokens.
  @inline(__always)
  private static func of(
    _ word: ResolvedToken, inList id: Int, _ shared: SharedTermLists, _ part: PostingsPart
  ) -> WordHits {
    let (start, end) = (Int(shared.starts[id]), Int(shared.starts[id + 1]))
    var found: WordHits = []
    let first = lowerBound(word.range.lowerBound, in: shared.tokens, start, end)
    if first < end && Int(shared.tokens[first]) < word.range.upperBound {
      found.insert(.range(part))
      if let exact = word.exact {
        let at = lowerBound(exact, in: shared.tokens, first, end)
        if at < end && Int(shared.tokens[at]) == exact { found.insert(.exact(part)) }
      }
    }
    for typo in word.typos {
      let at = lowerBound(typo, in: shared.tokens, start, end)
      if at < end && Int(shared.tokens[at]) == typo {
        found.insert(.typo(part))
        break
      }
    }
    return found
  }

  /// The first position in `tokens[start ..< end]` (ascending) whose token is `token` or
  /// above; `end` when none is.
  @inline(__always)
  private static func lowerBound(_ token: Int, in tokens: [Int32], _ start: Int, _ end: Int)
    -> Int
  {
    var (low, high) = (start, end)
    while low < high {
      let mid = (low + high) / 2
      if Int(tokens[mid]) < token { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Whether `token` is one of the sorted `typos`.
  @inline(__always)
  private static func isTypo(_ token: Int, _ typos: [Int]) -> Bool {
    var (low, high) = (0, typos.count)
    while low < high {
      let mid = (low + high) / 2
      if typos[mid] < token { low = mid + 1 } else { high = mid }
    }
    return low < typos.count && typos[low] == token
  }
}
