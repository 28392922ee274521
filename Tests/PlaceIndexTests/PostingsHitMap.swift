import PlaceIndexFormat

@testable import PlaceIndex

/// Every place's ``WordHits`` for one typed word, read whole from its postings: the reference
/// the search's own paths (the driver's merged postings, the other words' TERMS) are tested
/// against, and what "scoring every place" scores.
struct PostingsHitMap {
  private var hits: [UInt16]

  /// Reads the lists of `word`'s prefix range and typo candidates.
  init(_ word: ResolvedToken, postings: Postings, placeCount: Int) throws {
    var hits = [UInt16](repeating: 0, count: placeCount)
    func read(_ token: Int, _ lists: PostingsLists) throws(IndexFormatError) {
      for part in PostingsPart.allCases {
        var c = lists[part]
        let bits = WordHits.of(token, in: part, for: word).rawValue
        while let p = try c.next() { hits[p] |= bits }
      }
    }
    try postings.forEachList(of: word.range, read)
    try postings.forEachList(of: word.typos, read)
    self.hits = hits
  }

  /// The word's hits in place `rank`.
  subscript(rank: Int) -> WordHits { WordHits(rawValue: hits[rank]) }
}
