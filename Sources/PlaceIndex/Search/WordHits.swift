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

/// Every place's ``WordHits`` for one typed word, read whole from its postings: what a search
/// checks for each word that does not drive it (and for the driving word too when it reads
/// from both ends, or when its candidates come from a region).
final class WordHitMap: @unchecked Sendable {
  // @unchecked: the buffers are written in init, before the map is shared, and only read
  // after.
  /// Indexed by place rank; read through ``view``.
  private let hits: UnsafeMutableBufferPointer<UInt16>
  /// With `sets` at init: the places that carry the word in a name (primary or alternative),
  /// and those that carry it only in their context.
  let sets: (inName: PlaceSet, inContext: PlaceSet)?

  /// Reads the lists of `word`'s prefix range and typo candidates; with `sets`, also fills
  /// ``sets``.
  init(_ word: ResolvedToken, postings: Postings, placeCount: Int, sets: Bool = false) throws {
    hits = .allocate(capacity: placeCount)
    hits.initialize(repeating: 0)
    // The sets' bitmaps while the lists are read: names, then contexts.
    let words = (placeCount + 63) / 64
    let bitmaps = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: sets ? 2 * words : 0)
    defer { bitmaps.deallocate() }
    bitmaps.initialize(repeating: 0)
    let hits = hits.baseAddress!
    let name = sets ? bitmaps.baseAddress : nil
    let context = sets ? bitmaps.baseAddress! + words : nil
    func read(_ token: Int, _ lists: PostingsLists) throws {
      for part in PostingsPart.allCases {
        var c = lists[part]
        try c.mark(
          WordHits.of(token, in: part, for: word).rawValue, in: hits,
          set: part == .context ? context : name)
      }
    }
    try postings.forEachList(of: word.range, read)
    try postings.forEachList(of: word.typos, read)
    self.sets =
      sets
      ? (
        PlaceSet(words: Array(bitmaps.prefix(words))), PlaceSet(words: Array(bitmaps.suffix(words)))
      )
      : nil
  }

  deinit { hits.deallocate() }

  /// The hits, valid while this map lives: copying the view retains nothing.
  var view: UnsafeBufferPointer<UInt16> { UnsafeBufferPointer(hits) }

  /// The word's hits in place `rank`.
  @inline(__always)
  subscript(rank: Int) -> WordHits { WordHits(rawValue: hits[rank]) }

}
