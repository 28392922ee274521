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

/// Every place's ``WordHits`` for one typed word, read whole from its postings, for a search
/// that asks for places in any order: the words of a search with an origin that reads from
/// both ends (``LoadedIndex/collectNearFirst(after:_:importanceBound:scorer:into:)``).
///
/// A word of few places, against the index's size, keeps its places as a sorted array (found
/// by binary search), so that its cost follows its postings and not the place count; a word
/// of many keeps an array of every place and bitmaps of the places that carry it in a name
/// and in their context only.
final class WordHitMap: @unchecked Sendable {
  // @unchecked: the storage is written in init, before the map is shared, and only read
  // after.
  private enum Storage {
    /// Indexed by place rank, and the bitmaps (64 ranks a word, low bit first): names,
    /// then contexts.
    case dense(UnsafeMutableBufferPointer<UInt16>, sets: UnsafeMutableBufferPointer<UInt64>)
    /// The places that carry the word, ascending, and their hits.
    case sparse(ranks: [Int32], hits: [UInt16])
  }
  private let storage: Storage
  /// Words per bitmap of a dense map.
  private let words: Int

  /// A word whose postings hold at most the place count over this is kept sparse.
  static let sparseBelow = 32

  /// Whether `word` holds few places against the index's `placeCount`: its map is a sorted
  /// array, and a search in rank order seeks its postings instead of reading them whole.
  static func isFew(_ word: ResolvedToken, placeCount: Int) -> Bool {
    word.cost <= placeCount / sparseBelow
  }

  /// Reads the lists of `word`'s prefix range and typo candidates.
  init(_ word: ResolvedToken, postings: Postings, placeCount: Int) throws(IndexFormatError) {
    words = (placeCount + 63) / 64
    if Self.isFew(word, placeCount: placeCount) {
      var merger = try PostingsMerger(postings: postings, words: [word])
      var ranks: [Int32] = []
      var hits: [UInt16] = []
      ranks.reserveCapacity(word.cost)
      hits.reserveCapacity(word.cost)
      while let rank = try merger.next() {
        ranks.append(Int32(rank))
        hits.append(merger.hits.rawValue)
      }
      storage = .sparse(ranks: ranks, hits: hits)
      return
    }
    let hits = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: placeCount)
    hits.initialize(repeating: 0)
    let sets = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 2 * words)
    sets.initialize(repeating: 0)
    storage = .dense(hits, sets: sets)
    let name = sets.baseAddress!
    let context = name + words
    func read(_ token: Int, _ lists: PostingsLists) throws(IndexFormatError) {
      for part in PostingsPart.allCases {
        var c = lists[part]
        try c.mark(
          WordHits.of(token, in: part, for: word).rawValue, in: hits.baseAddress!,
          set: part == .context ? context : name)
      }
    }
    try postings.forEachList(of: word.range, read)
    try postings.forEachList(of: word.typos, read)
  }

  /// The bytes the map holds.
  var byteCount: Int {
    switch storage {
    case .dense(let hits, let sets): hits.count * 2 + sets.count * 8
    case .sparse(let ranks, _): ranks.count * 6
    }
  }

  deinit {
    if case .dense(let hits, let sets) = storage {
      hits.deallocate()
      sets.deallocate()
    }
  }

  /// The position of `rank` in a sparse map's ranks, or of the first rank above it.
  @inline(__always)
  private static func position(_ rank: Int, in ranks: [Int32]) -> Int {
    var (low, high) = (0, ranks.count)
    while low < high {
      let mid = (low + high) / 2
      if Int(ranks[mid]) < rank { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The word's hits in place `rank`.
  @inline(__always)
  subscript(rank: Int) -> WordHits {
    switch storage {
    case .dense(let hits, _): return WordHits(rawValue: hits[rank])
    case .sparse(let ranks, let hits):
      let i = Self.position(rank, in: ranks)
      return i < ranks.count && Int(ranks[i]) == rank ? WordHits(rawValue: hits[i]) : []
    }
  }

  /// Whether place `rank` carries the word in a name (primary or alternative).
  @inline(__always)
  func inName(_ rank: Int) -> Bool { !self[rank].isDisjoint(with: Self.nameParts) }

  /// Whether place `rank` carries the word in its context.
  @inline(__always)
  func inContext(_ rank: Int) -> Bool { !self[rank].isDisjoint(with: Self.contextPart) }

  private static let nameParts = WordHits.inName
  private static let contextPart: WordHits = [.range(.context), .typo(.context)]

  /// The smallest rank from `start` on that carries the word in a name, or also in its
  /// context when `context` is true; nil when there is none.
  func first(from start: Int, context: Bool) -> Int? {
    switch storage {
    case .sparse(let ranks, let hits):
      let mask = (context ? Self.nameParts.union(Self.contextPart) : Self.nameParts).rawValue
      var i = Self.position(start, in: ranks)
      while i < ranks.count {
        if hits[i] & mask != 0 { return Int(ranks[i]) }
        i += 1
      }
      return nil
    case .dense(_, let sets):
      var w = start >> 6
      guard w < words else { return nil }
      func bits(_ w: Int) -> UInt64 { sets[w] | (context ? sets[words + w] : 0) }
      var b = bits(w) & (~0 << UInt64(start & 63))
      while b == 0 {
        w += 1
        guard w < words else { return nil }
        b = bits(w)
      }
      return w << 6 | b.trailingZeroBitCount
    }
  }
}
