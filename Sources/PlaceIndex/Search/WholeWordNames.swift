import PlaceIndexFormat

/// The places whose primary or alternative name carries at least ``need`` of the typed words
/// whole, in ascending rank: what a scan in rank order reads once no later place with fewer
/// can enter (``LoadedIndex/collect(_:drivers:missing:context:into:)``).
///
/// A place that carries `need` of the `m` words whole carries one of any `m - need + 1` of
/// them: the union of the cheapest `m - need + 1` words' name lists holds every such place,
/// and each is checked against the other words' lists. With one word needed that is the
/// union of all of them; with every word needed, the cheapest list checked against the
/// others ("S 7" at 200×: the names that carry both "s" and "7" whole, not the thousands that
/// carry "7").
struct WholeWordNames {
  /// How many of the words a place's names must carry whole.
  let need: Int
  /// Per word that a place of the driving lists may lack, the merge of its exact token's name
  /// and alternative-name lists (all words, but the driving one when it drives alone: each of
  /// its places carries it).
  private var words: [PostingsMerger]
  /// The words a place of the driving lists carries for sure: 1 when one word drives, else 0.
  private let carriedByDriving: Int
  /// The union of the cheapest `words.count - need + 1` words' lists: every place that may
  /// qualify is in it.
  private var driving: PostingsMerger
  /// How many places the driving lists hold.
  let cost: Int
  /// The last place ``first(from:)`` found, and whether the driving lists are at their end.
  private var pending: Int? = nil
  private var exhausted = false

  /// The places that carry at least `need` of `tokens` (exact token ids, one per typed word
  /// that has one) whole in a name; nil when `need` is more than the tokens.
  init?(postings: Postings, tokens: [Int], need: Int) throws(IndexFormatError) {
    guard need >= 1, need <= tokens.count else { return nil }
    self.need = need
    func names(_ ids: [Int]) throws(IndexFormatError) -> PostingsMerger {
      let words = ids.map {
        ResolvedToken(range: $0..<($0 + 1), exact: $0, typos: [], cost: 0, typedLength: 0)
      }
      var merger = try PostingsMerger(postings: postings, words: words)
      merger.dropContextLists()
      return merger
    }
    var counts: [Int] = []
    for t in tokens {
      let lists = try postings.lists(t)
      counts.append(lists.name.count + lists.alternative.count)
    }
    let cheapest = tokens.indices.sorted { counts[$0] < counts[$1] }
      .prefix(tokens.count - need + 1)
    cost = cheapest.reduce(0) { $0 + counts[$1] }
    driving = try names(cheapest.map { tokens[$0] })
    let checked =
      cheapest.count == 1 ? tokens.indices.filter { $0 != cheapest.first } : [Int](tokens.indices)
    carriedByDriving = cheapest.count == 1 ? 1 : 0
    words =
      need == 1
      ? [] : try checked.map { (i) throws(IndexFormatError) in try names([tokens[i]]) }
  }

  /// The first place from `rank` on that qualifies (`rank` not below one asked for before),
  /// or nil when none does: a scan skips to it.
  mutating func first(from rank: Int) throws(IndexFormatError) -> Int? {
    if let p = pending, p >= rank { return p }
    if exhausted { return nil }
    try driving.seek(to: rank)
    while let r = try driving.next() {
      // With one word needed, every place of the driving lists qualifies.
      if need > 1, try !carries(r) { continue }
      pending = r
      return r
    }
    exhausted = true
    pending = nil
    return nil
  }

  /// Whether place `rank`, of the driving lists and after every place asked about before,
  /// carries `need` words: the words' own lists tell.
  private mutating func carries(_ rank: Int) throws(IndexFormatError) -> Bool {
    var count = carriedByDriving
    for w in words.indices {
      if try words[w].hits(at: rank) != [] {
        count += 1
        if count == need { return true }
      } else if count + words.count - w - 1 < need {
        return false
      }
    }
    return false
  }
}
