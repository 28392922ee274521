import PlaceIndexFormat

/// One typed word's postings read forward beside a scan in rank order: where the word lies in
/// each place the scan asks about, without the place's tokens; and, once the lists of its
/// context are dropped, the next place whose name carries it, which the scan can skip to
/// (the two words' postings intersected).
struct WordFilter {
  /// The typed word this filter tells of.
  let word: Int
  private var merger: PostingsMerger
  /// The merger's next place from the last rank asked (`Int.max` past its end; -1 before the
  /// first question), and what it tells of it.
  private var head = -1
  private var headHits: WordHits = []
  /// The text score at most of a place whose word lies in its context alone.
  let contextText: Double
  /// Whether the context lists were dropped: the stream holds only the places whose names
  /// carry the word (as typed or within typo distance).
  private(set) var namesOnly = false

  init(word: Int, resolved: ResolvedToken, postings: Postings, contextText: Double)
    throws(IndexFormatError)
  {
    self.word = word
    self.contextText = contextText
    merger = try PostingsMerger(postings: postings, words: [resolved])
  }

  /// The first place from `rank` on that the word lies in, or `Int.max`: `rank` is not below
  /// the rank asked before.
  @inline(__always)
  mutating func first(from rank: Int) throws(IndexFormatError) -> Int {
    if head < rank {
      try merger.seek(to: rank)
      head = try merger.next() ?? .max
      headHits = merger.hits
    }
    return head
  }

  /// Where the word lies in place `rank` (not below the rank asked before): what its
  /// postings tell, all of it until the context lists are dropped, after that the name hits.
  @inline(__always)
  mutating func hits(at rank: Int) throws(IndexFormatError) -> WordHits {
    try first(from: rank) == rank ? headHits : []
  }

  /// Stops reading the context lists: a place that carries the word only there is told to
  /// lack it. Refused (nothing changes) when the word has typo candidates: a place's context
  /// match then ranks above its typo match in a name, which the name lists alone would tell.
  mutating func dropContextLists() throws(IndexFormatError) {
    merger.dropContextLists()
    namesOnly = merger.droppedContextLists
    guard namesOnly, head >= 0, head < .max else { return }
    // The place read ahead may carry the word in its context alone: then the next one.
    headHits.subtract(Self.contextHits)
    if headHits == [] {
      head = try merger.next() ?? .max
      headHits = merger.hits
    }
  }

  private static let contextHits: WordHits = [.range(.context), .exact(.context), .typo(.context)]
}
