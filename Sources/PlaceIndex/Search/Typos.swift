import PlaceIndexFormat

extension LoadedIndex {
  /// Token ids within the allowed edits of `token` (first letter fixed), outside `range`; a
  /// word of Han, Kana or Hangul counts its characters as syllables
  /// (``Ranking/allowedEdits(scalars:)``).
  ///
  /// The same set as ``TypoDistance/prefixDistance(_:_:limit:)`` over every token with the
  /// token's first letter, computed as a walk of the sorted dictionary: the distance table
  /// is kept column by column (one column per Unicode scalar of the word, so that a letter
  /// outside ASCII is one edit as it is one letter of the budget), a word reuses the columns
  /// of the scalars it shares with the word before it, and once a word fails, the walk goes on
  /// from the first word that may match (``TypoWalk/resumeAt(_:)``): the words between are
  /// passed over, those of later blocks unread (a galloping search over the blocks' first
  /// tokens). The walk then reads about as many words as the dictionary has prefixes within
  /// the limit, not every word with the first letter: its cost follows the query, not the
  /// dictionary's size.
  func typoCandidates(_ token: String, excluding range: Range<Int>) throws(IndexFormatError)
    -> [Int]
  {
    var none: [TypoMatches]? = nil
    return try Self.walkTypos([self], token, excluding: [range], into: &none)[0]
  }

  /// ``typoCandidates(_:excluding:)``, narrowed from the matches kept for the word one letter
  /// shorter (the keystroke before) when it was walked with the same limit: every token
  /// within the limit of a word is within it of the word cut by its last letter (an edit of
  /// the longer word's alignment, its last letter dropped, is one of the shorter's), so the
  /// shorter word's matches, those that start with it included, hold all of the longer's.
  /// The same ids as a walk of the dictionary, at the cost of checking those few tokens; the
  /// matches found are kept for the next keystroke (``RecentWork/typoMatches``).
  ///
  /// A word of letters shorter than ``Ranking/typoPrefixFrom`` matches within its edit only
  /// as a whole token (``Ranking/typoMatchesWholeTokens(_:)``): its walk keeps those alone,
  /// and is not kept for the next keystroke (whose word, longer, matches starts of tokens).
  func typoCandidatesTyped(_ token: String, excluding range: Range<Int>)
    throws(IndexFormatError) -> [Int]
  {
    try Self.typoCandidatesTyped([self], token, excluding: [range])[0]
  }

  /// ``typoCandidatesTyped(_:excluding:)`` in each of `indexes` (shards; `ranges[s]` is the
  /// word's prefix range in shard `s`): the shards that kept the keystroke before's matches
  /// narrow them, the others walk their dictionaries together (``walkTypos(_:_:excluding:wholeTokens:into:)``),
  /// so that a token they share is looked at once, not once per shard.
  static func typoCandidatesTyped(
    _ indexes: [LoadedIndex], _ token: String, excluding ranges: [Range<Int>]
  ) throws(IndexFormatError) -> [[Int]] {
    var out = Array(repeating: [Int](), count: indexes.count)
    let units = TypoWalk.units(token.unicodeScalars)
    let limit = Ranking.allowedEdits(scalars: units)
    guard limit > 0 else { return out }
    if Ranking.typoMatchesWholeTokens(units) {
      var none: [TypoMatches]? = nil
      return try walkTypos(indexes, token, excluding: ranges, wholeTokens: true, into: &none)
    }
    var walking: [Int] = []
    for (s, index) in indexes.enumerated() {
      if let kept = index.keptTypoMatches(before: token, units, limit: limit) {
        out[s] = index.keepTypoMatches(kept.narrowed(to: units), for: token, excluding: ranges[s])
      } else {
        walking.append(s)
      }
    }
    guard !walking.isEmpty else { return out }
    var found: [TypoMatches]? = walking.map { _ in TypoMatches(units: units, limit: limit) }
    let walked = try walkTypos(
      walking.map { indexes[$0] }, token, excluding: walking.map { ranges[$0] }, into: &found)
    for (w, s) in walking.enumerated() {
      // The tokens that start with the word are matches too: a few, as the word as typed
      // holds few places when its typos are looked for; when they are more, nothing is kept.
      guard var matches = found?[w], ranges[s].count <= TypoMatches.mostStarting else {
        out[s] = walked[w]
        continue
      }
      let index = indexes[s]
      try index.located { () throws(IndexFormatError) in
        try matches.add(ranges[s], from: index.tokens)
      }
      out[s] = index.keepTypoMatches(matches, for: token, excluding: ranges[s])
    }
    return out
  }

  /// The matches kept for the word `token` cut by its last letter, when they hold every match
  /// of `token` (`units`, with `limit` edits): walked whole with the same limit.
  private func keptTypoMatches(before token: String, _ units: [UInt32], limit: Int)
    -> TypoMatches?
  {
    var shorter = token.unicodeScalars
    shorter.removeLast()
    guard let kept = recent.typoMatches.held(String(shorter)), kept.complete,
      kept.limit == limit, kept.units.count + 1 == units.count,
      kept.units.elementsEqual(units.dropLast())
    else { return nil }
    return kept
  }

  /// Keeps `matches` for the next keystroke after `token`; their ids outside `range`, at most
  /// ``Ranking/maxTypoCandidates``.
  private func keepTypoMatches(
    _ matches: TypoMatches, for token: String, excluding range: Range<Int>
  ) -> [Int] {
    recent.typoMatches.keep(matches, for: token)
    var out: [Int] = []
    for id in matches.ids where !range.contains(id) {
      out.append(id)
      if out.count == Ranking.maxTypoCandidates { break }
    }
    return out
  }

  /// The walk of ``typoCandidates(_:excluding:)`` over the dictionaries of `indexes` at once,
  /// each token looked at once however many of them hold it: one cursor per dictionary
  /// (``TokenCursor``), the least token of all of them asked next, and a failed token's
  /// resume key (``TypoWalk/resumeAt(_:)``) passed to every cursor. For each index, the ids
  /// of its tokens found, in id order; each token found is also added to that index's
  /// `matches` when they are given (their ``TypoMatches/complete`` says whether the walk
  /// ended before the cap). `ranges[s]`: the word's prefix range in index `s`, left out.
  ///
  /// With `wholeTokens`, only the tokens whose whole is within the limit count
  /// (``TypoDistance/wholeDistance(_:_:limit:)``): a token whose start matches but that is
  /// longer than the word plus the limit is passed over with every token that shares that
  /// start, and the cap of ``Ranking/maxTypoCandidates`` counts whole matches only (else, in a
  /// large dictionary, the starts of longer tokens could fill it before a whole one is
  /// reached). The cap counts distinct tokens over all the dictionaries: the tokens one index
  /// over all of them would find.
  static func walkTypos(
    _ indexes: [LoadedIndex], _ token: String, excluding ranges: [Range<Int>],
    wholeTokens: Bool = false, into matches: inout [TypoMatches]?
  ) throws(IndexFormatError) -> [[Int]] {
    var out = Array(repeating: [Int](), count: indexes.count)
    let query = TypoWalk.units(token.unicodeScalars)
    let limit = Ranking.allowedEdits(scalars: query)
    guard limit > 0, let first = token.unicodeScalars.first else { return out }
    let letter = String(first)
    // The most letters a whole match can have.
    let longest = query.count + limit
    var found = 0
    var union = TokenUnion(
      try indexes.enumerated().map { (s, index) throws(IndexFormatError) in
        try index.located { () throws(IndexFormatError) in
          try TokenCursor(index.tokens, range: try index.tokens.prefixRange(letter), source: s)
        }
      })
    do throws(IndexFormatError) {
      var walk = TypoWalk(scalars: query, limit: limit)
      // The token looked at, the one the walk asked last, and the cursors that hold the first.
      var word: [UInt8] = []
      var asked: [UInt8] = []
      var holders: [Int] = []
      while found < Ranking.maxTypoCandidates && !union.isEmpty {
        union.popLeast(into: &holders, token: &word)
        // The prefix range as typed is left out (the same tokens in every index: those that
        // start with the word).
        var resume: [UInt8]? = nil
        let at = union.at(holders[0])
        if !ranges[at.source].contains(at.id) {
          var shared = 0
          while shared < word.count && shared < asked.count && word[shared] == asked[shared] {
            shared += 1
          }
          swap(&asked, &word)
          if walk.matches(asked, shared: shared) {
            let units = wholeTokens ? TypoDistance.scalars(asked) : []
            if !wholeTokens || TypoDistance.wholeDistance(query, units, limit: limit) != nil {
              found += 1
              for c in holders {
                let (s, id) = union.at(c)
                out[s].append(id)
                matches?[s].append(id, asked)
              }
            } else if units.count > longest {
              // Every token that starts with its first `longest` + 1 letters is as long.
              resume = TypoWalk.pastEvery(startingWith: asked, letters: longest + 1)
            }
          } else {
            resume = walk.resumeAt(asked)
          }
        }
        try union.advance(holders)
        if let key = resume { try union.seek(atLeast: key) }
      }
    } catch {
      // (A cursor that failed names its dictionary.)
      throw error.withPath(indexes[union.failing].file.path)
    }
    if matches != nil {
      for s in indexes.indices { matches?[s].complete = found < Ranking.maxTypoCandidates }
    }
    return out
  }
}

/// The tokens with a word's first letter within its edit limit, those that start with the
/// word included, in id order and with their bytes: what a typo walk found, kept for the
/// next keystroke (``LoadedIndex/typoCandidatesTyped(_:excluding:)``).
struct TypoMatches: Sendable {
  /// At most this many tokens starting with the word are kept beside the walk's: more, and
  /// the matches are not kept.
  static let mostStarting = 64
  /// The word's letters (``TypoWalk/units(_:)``) and its edit limit.
  let units: [UInt32]
  let limit: Int
  private(set) var ids: [Int] = []
  private(set) var tokens: [[UInt8]] = []
  /// Whether every such token is here: the walk did not stop at
  /// ``Ranking/maxTypoCandidates``.
  var complete = true

  init(units: [UInt32], limit: Int) {
    self.units = units
    self.limit = limit
  }

  /// The bytes kept, about.
  var bytes: Int { tokens.reduce(64 + 4 * units.count) { $0 + $1.count + 40 } }

  mutating func append(_ id: Int, _ token: [UInt8]) {
    ids.append(id)
    tokens.append(token)
  }

  /// Adds the tokens of `range` (ids that none of those held has), in id order.
  mutating func add(_ range: Range<Int>, from dictionary: TokenDictionary)
    throws(IndexFormatError)
  {
    guard !range.isEmpty else { return }
    var starting: [[UInt8]] = []
    var b = range.lowerBound / dictionary.blockSize
    while starting.count < range.count {
      try dictionary.scanBlock(b) { id, token, _ in
        guard id < range.upperBound else { return false }
        if id >= range.lowerBound { starting.append(copy token) }
        return true
      }
      b += 1
    }
    let at = ids.firstIndex { $0 > range.lowerBound } ?? ids.count
    ids.insert(contentsOf: range, at: at)
    tokens.insert(contentsOf: starting, at: at)
  }

  /// The matches of `longer`, these letters and one more, with the same limit: those of these
  /// tokens within the limit of it.
  func narrowed(to longer: [UInt32]) -> TypoMatches {
    var walk = TypoWalk(scalars: longer, limit: limit)
    var out = TypoMatches(units: longer, limit: limit)
    out.complete = complete
    for (id, token) in zip(ids, tokens) where walk.matches(token, shared: 0) {
      out.append(id, token)
    }
    return out
  }
}

/// The distance table of one query against a run of sorted words, reused across the prefix
/// that consecutive words share (the Levenshtein walk of a trie, over a sorted list).
///
/// Distances count Unicode scalars: the words come as UTF-8 bytes and are decoded as they are
/// walked. The bytes a word shares with the one before may end inside a scalar; only the
/// scalars whose bytes are all shared keep their columns. A kana and the voiced or semi-voiced
/// mark after it (folding splits ガ into カ and U+3099) are one letter (``units(_:)``): "ガ"
/// for "サ" is one edit, as "カ" for "サ" is.
struct TypoWalk {
  /// After ``matches(_:shared:)`` returned false: the number of the candidate's scalars past
  /// which no word can come back within the limit, or 0.
  private(set) var deadDepth = 0
  /// The bytes of those ``deadDepth`` scalars (the byte prefix the dead words share), or 0.
  private(set) var deadBytes = 0
  /// The query's scalars.
  private let query: [UInt32]
  /// Whether the query holds a kana: a letter of it may then span another's bytes, and
  /// ``resumeAt(_:)`` passes over no more than the dead prefix.
  private let hasKana: Bool
  /// Edits allowed.
  private let limit: Int
  /// Rows per column (query length + 1).
  private let rows: Int
  /// Most word scalars that take part in a prefix match (query length + limit).
  private let maxColumns: Int
  /// Column `j` (the table against the first `j` word scalars), `rows` entries each.
  private var table: [Int32]
  /// Per column: the least last-row entry over columns 0...j (the best prefix distance so far).
  private var best: [Int32]
  /// Per column: the least entry of the column.
  private var columnMin: [Int32]
  /// The scalars of the candidate asked last (the first ``decoded`` of them).
  private var word: [UInt32]
  /// `ends[j]`: the byte offset just past scalar `j - 1` of that candidate (`ends[0]` is 0).
  private var ends: [Int]
  /// `reach[k]`: the bytes from `ends[k]` on that decoding scalar `k` looked at (more than it
  /// takes for a sequence cut short): the scalar is the same in a word that shares them.
  private var reach: [Int]
  /// Scalars of that candidate decoded.
  private var decoded = 0
  /// Columns computed past column 0 (valid for the first `computed` scalars of the candidate
  /// asked last).
  private var computed = 0

  /// Prepares the walk of `query` (UTF-8) with `limit` edits.
  init(query: [UInt8], limit: Int) {
    self.init(
      scalars: Self.units(String(decoding: query, as: UTF8.self).unicodeScalars), limit: limit)
  }

  /// The least key past every word (UTF-8) that starts with the bytes of the first `letters`
  /// letters of `word` (as ``units(_:)`` counts them: a kana and its voiced mark are one):
  /// those bytes with their last byte below 0xFF raised by one and the rest cut. Every such
  /// word has at least `letters` letters. Nil when `word` has fewer, or every byte is 0xFF.
  static func pastEvery(startingWith word: borrowing [UInt8], letters: Int) -> [UInt8]? {
    var end = 0
    var count = 0
    var last: UInt32 = 0
    while end < word.count {
      let s = scalar(at: end, in: word)
      // A voiced mark after a kana is part of its letter.
      let joins = count > 0 && isVoicedMark(s.value) && isKana(last)
      if !joins {
        if count == letters { break }
        count += 1
      }
      last = s.value
      end += s.length
    }
    guard count == letters else { return nil }
    var key = Array(word[0..<min(end, word.count)])
    while let byte = key.last, byte == 0xFF { key.removeLast() }
    guard !key.isEmpty else { return nil }
    key[key.count - 1] += 1
    return key
  }

  /// The letters the walk compares, as values: each scalar's, but a kana followed by a voiced
  /// or semi-voiced mark (U+3099, U+309A) is one letter, its value past every scalar's
  /// (``voicedKana(_:mark:)``).
  static func units(_ scalars: some Sequence<Unicode.Scalar>) -> [UInt32] {
    var out: [UInt32] = []
    for s in scalars {
      if let last = out.last, isVoicedMark(s.value), isKana(last) {
        out[out.count - 1] = voicedKana(last, mark: s.value)
      } else {
        out.append(s.value)
      }
    }
    return out
  }

  /// A kana that takes a voiced mark after it (Hiragana and Katakana, the marks excluded).
  @inline(__always)
  static func isKana(_ v: UInt32) -> Bool { v &- 0x3041 < 0xBF && !isVoicedMark(v) }

  /// The combining voiced and semi-voiced marks.
  @inline(__always)
  static func isVoicedMark(_ v: UInt32) -> Bool { v == 0x3099 || v == 0x309A }

  /// The value of kana `v` with `mark`: past every scalar and every broken byte's value.
  @inline(__always)
  static func voicedKana(_ v: UInt32, mark: UInt32) -> UInt32 {
    v | (mark == 0x3099 ? 0x40_0000 : 0x80_0000)
  }

  /// Prepares the walk of the query given as its scalar values, with `limit` edits.
  init(scalars query: [UInt32], limit: Int) {
    self.query = query
    self.limit = limit
    hasKana = query.contains { Self.isKana($0) || Self.isVoicedMark($0) || $0 > 0x10_FFFF }
    rows = query.count + 1
    maxColumns = query.count + limit
    table = Array(repeating: 0, count: rows * (maxColumns + 1))
    best = Array(repeating: 0, count: maxColumns + 1)
    columnMin = Array(repeating: 0, count: maxColumns + 1)
    word = Array(repeating: 0, count: maxColumns)
    ends = Array(repeating: 0, count: maxColumns + 1)
    reach = Array(repeating: 0, count: maxColumns + 1)
    for i in 0..<rows { table[i] = Int32(min(i, limit + 1)) }
    best[0] = Int32(min(query.count, limit + 1))
    columnMin[0] = 0
  }

  /// The scalar that starts at byte `at` of `bytes`, the bytes it takes and the bytes its
  /// lead byte announces. A byte that starts no well-formed sequence (a damaged dictionary)
  /// stands for itself, as a value no query scalar has.
  @inline(__always)
  static func scalar(at: Int, in bytes: borrowing [UInt8]) -> (
    value: UInt32, length: Int, reach: Int
  ) {
    let lead = bytes[at]
    if lead < 0x80 { return (UInt32(lead), 1, 1) }
    let length = lead >= 0xF8 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    let invalid = (value: 0x11_0000 | UInt32(lead), length: 1, reach: length)
    guard length > 1, at + length <= bytes.count else { return invalid }
    var value = UInt32(lead) & (0x7F >> length)
    for k in 1..<length {
      let b = bytes[at + k]
      guard b & 0xC0 == 0x80 else { return invalid }
      value = value << 6 | UInt32(b & 0x3F)
    }
    // A kana looks at the 3 bytes after it for a voiced mark (E3 82 99 or E3 82 9A): they
    // are part of the letter it makes, whether they hold the mark or not.
    if length == 3 && isKana(value) {
      let next = at + 3
      if next + 3 <= bytes.count && bytes[next] == 0xE3 && bytes[next + 1] == 0x82
        && (bytes[next + 2] == 0x99 || bytes[next + 2] == 0x9A)
      {
        return (voicedKana(value, mark: 0x3000 | UInt32(bytes[next + 2])), 6, 6)
      }
      return (value, 3, 6)
    }
    return (value, length, length)
  }

  /// Whether some prefix of `candidate` (UTF-8) is within the limit of the query; `shared` is
  /// the length in bytes of the prefix it shares with the candidate asked before (0 when
  /// unknown).
  mutating func matches(_ candidate: borrowing [UInt8], shared sharedBytes: Int) -> Bool {
    // Reset first: an early answer below must not leave the previous candidate's depth (an
    // empty candidate, which a damaged dictionary can hold, has no prefix to skip past).
    deadDepth = 0
    deadBytes = 0
    if query.isEmpty { return true }
    if candidate.isEmpty {
      decoded = 0
      computed = 0
      return false
    }
    // The scalars whose bytes (all those their decoding read) lie in the shared prefix are
    // the previous candidate's.
    var shared = 0
    let limitBytes = min(sharedBytes, candidate.count)
    while shared < computed && reach[shared] + ends[shared] <= limitBytes { shared += 1 }
    // Decode the rest (as far as a prefix match can reach).
    var count = shared
    var at = ends[shared]
    while count < maxColumns && at < candidate.count {
      let s = Self.scalar(at: at, in: candidate)
      word[count] = s.value
      reach[count] = s.reach
      at += s.length
      count += 1
      ends[count] = at
    }
    decoded = count
    let n = count
    // A dead column pair inside the shared prefix: nothing past it can come back.
    var j = 1
    while j <= shared {
      if j >= 2 && columnMin[j] > limit && columnMin[j - 1] > limit {
        computed = j
        if best[j] <= limit { return true }
        if ends[j - 1] + reach[j - 1] <= ends[j] {
          deadDepth = j
          deadBytes = ends[j]
        }
        return false
      }
      j += 1
    }
    computed = shared
    let limit32 = Int32(limit)
    let cap = limit32 + 1
    let m = query.count
    return table.withUnsafeMutableBufferPointer { t in
      var column = shared + 1
      while column <= n {
        let w = word[column - 1]
        let base = column * rows
        let previous = base - rows
        // Only the band |i - column| <= limit can hold entries within the limit; the cells
        // just outside it read as limit + 1.
        let lo = max(1, column - limit)
        let hi = min(m, column + limit)
        t[base + lo - 1] = min(Int32(column), cap)
        if hi < m { t[base + hi + 1] = cap }
        var low = cap
        if lo <= hi {
          for i in lo...hi {
            let q = query[i - 1]
            var v = min(t[previous + i] + 1, t[base + i - 1] + 1)
            v = min(v, t[previous + i - 1] + (q == w ? 0 : 1))
            if i > 1 && column > 1 && q == word[column - 2] && query[i - 2] == w {
              v = min(v, t[previous - rows + i - 2] + 1)
            }
            v = min(v, cap)
            t[base + i] = v
            if v < low { low = v }
          }
        }
        columnMin[column] = low
        best[column] = min(best[column - 1], hi == m ? t[base + m] : cap)
        computed = column
        if column >= 2 && low > limit32 && columnMin[column - 1] > limit32 {
          if best[column] <= limit32 { return true }
          // A letter read past its bytes (a kana before what might have been a voiced mark)
          // differs in words that share its bytes but not the ones after: no skip past it.
          if ends[column - 1] + reach[column - 1] <= ends[column] {
            deadDepth = column
            deadBytes = ends[column]
          }
          return false
        }
        column += 1
      }
      return best[n] <= limit32
    }
  }

  /// After ``matches(_:shared:)`` returned false for `candidate`: the least byte string above
  /// it that a word within the limit may start with, or nil when the next word must be read
  /// (the candidate ran out before its prefixes died, or a letter's bytes do not tell it).
  ///
  /// The candidate's first ``deadDepth`` letters leave every word that starts with them out.
  /// From the deepest node before them up, each node's next child that is not dead (a letter
  /// of the query whose column, or a transposition into the column after it, stays within the
  /// limit; any letter when a letter outside the query keeps it) is where the walk resumes;
  /// a node with none left is done, and its parent is asked. Past the first letter, the walk
  /// is over: the successor of the first letter, past its range.
  func resumeAt(_ candidate: borrowing [UInt8]) -> [UInt8]? {
    // Past the dead prefix alone, when it is known.
    let pastDead = deadBytes > 0 ? TypoWalk.successor(Array(candidate[0..<deadBytes])) : nil
    guard deadDepth > 0, !hasKana else { return pastDead }
    // Node `k`: the candidate's first k letters; `word[k]` its child on the candidate's path,
    // dead or done.
    var k = deadDepth - 1
    while k >= 1 {
      // A letter whose bytes are not its own (a kana read past them) cannot be passed by
      // bytes: resume at the dead prefix's end as before.
      guard ends[k] + reach[k] <= ends[k + 1] else { return pastDead }
      let after = word[k]
      if childMayMatch(node: k, letter: nil) {
        return TypoWalk.successor(Array(candidate[0..<ends[k + 1]]))
      }
      if let u = nextLetter(node: k, after: after) {
        var key = Array(candidate[0..<ends[k]])
        key.append(contentsOf: String(Unicode.Scalar(u)!).utf8)
        return key
      }
      k -= 1
    }
    return TypoWalk.successor(Array(candidate[0..<ends[1]]))
  }

  /// The least letter above `after` that begins a child of node `k` which may match (no
  /// letter the query lacks does: the caller asked): only the query's letters in the rows
  /// the child's column can reach within the limit, the row before them and the row after
  /// them (swaps), can bring an entry within it.
  private func nextLetter(node k: Int, after: UInt32) -> UInt32? {
    let column = k + 1
    let lo = max(1, column - limit)
    let hi = min(query.count, column + limit)
    guard lo <= hi else { return nil }
    var best: UInt32? = nil
    // A match or a swap in the rows lo...hi, or a swap into the column after it (a row
    // further down).
    for j in max(0, lo - 2)...min(query.count - 1, column + limit) {
      let u = query[j]
      guard u > after, best.map({ u < $0 }) ?? true, childMayMatch(node: k, letter: u) else {
        continue
      }
      best = u
    }
    return best
  }

  /// Whether a child of node `k` (the candidate asked last, cut to k letters: its columns up
  /// to k are computed) with `letter` (nil: a letter the query lacks) can begin a word within
  /// the limit: its column has an entry within it, or a transposition of the letter with the
  /// next one brings the column after back within it.
  private func childMayMatch(node k: Int, letter: UInt32?) -> Bool {
    let limit32 = Int32(limit)
    let cap = limit32 + 1
    let m = query.count
    let column = k + 1
    // Entries of column `c` (computed) at row `i`: the band's cells, cap outside it.
    func cell(_ c: Int, _ i: Int) -> Int32 {
      guard i >= 0, i <= m, abs(i - c) <= limit else { return cap }
      return table[c * rows + i]
    }
    guard m > 0 else { return false }
    // Row 0 of the new column.
    var previousRow = min(Int32(column), cap)
    if previousRow <= limit32 { return true }
    // Only the band |i - column| <= limit can hold an entry within the limit, and the row just
    // past it a swap into the band: the rows outside read as cap and bring nothing back.
    let lo = max(1, column - limit)
    let hi = min(m, column + limit + 1)
    guard lo <= hi else { return false }
    if lo > 1 { previousRow = cap }
    for i in lo...hi {
      let q = query[i - 1]
      var v = min(cell(k, i) + 1, previousRow + 1)
      v = min(v, cell(k, i - 1) + (q == letter ? 0 : 1))
      if i > 1, let letter, q == word[k - 1], query[i - 2] == letter {
        v = min(v, cell(k - 1, i - 2) + 1)
      }
      v = min(v, cap)
      if abs(i - column) > limit { v = cap }
      if v <= limit32 { return true }
      // The letter after it swapped with this one: from column k at row i - 1.
      if i > 1, let letter, q == letter, cell(k, i - 2) + 1 <= limit32 { return true }
      previousRow = v
    }
    return false
  }

  /// The smallest byte string above every string that starts with `key`.
  static func successor(_ key: [UInt8]) -> [UInt8] {
    // `key` starts with a letter's UTF-8, so it has one; [0xFF] is past every token else.
    TokenDictionary.successor(key) ?? [0xFF]
  }
}
