import PlaceIndexFormat

extension LoadedIndex {
  /// Token ids within the allowed edits of `token` (first letter fixed), outside `range`.
  ///
  /// The same set as ``TypoDistance/prefixDistance(_:_:limit:)`` over every token with the
  /// token's first letter, computed as a walk of the sorted dictionary: the distance table
  /// is kept column by column (one column per word byte), so a word reuses the columns of the
  /// prefix it shares with the word before it, and once every entry of two adjacent columns
  /// exceeds the limit, the words that share that prefix are skipped without computing any.
  func typoCandidates(_ token: String, excluding range: Range<Int>) throws -> [Int] {
    let query = Array(token.utf8)
    let limit = Ranking.allowedEdits(length: token.unicodeScalars.count)
    guard limit > 0, let first = token.unicodeScalars.first else { return [] }
    let firstRange = try tokens.prefixRange(String(first))
    guard !firstRange.isEmpty else { return [] }
    var walk = TypoWalk(query: query, limit: limit)
    var out: [Int] = []
    var next = firstRange.lowerBound
    while next < firstRange.upperBound && out.count < Ranking.maxTypoCandidates {
      // The first token past a prefix that no word starting with it can match.
      var skipTo: [UInt8]? = nil
      // The prefix the token shares with the last one walked (0 across blocks).
      var run = 0
      try tokens.scanBlock(next / tokens.blockSize) { id, word, shared in
        run = min(run, shared)
        guard id < firstRange.upperBound else {
          next = firstRange.upperBound
          return false
        }
        guard id >= next else { return true }
        next = id + 1
        guard !range.contains(id) else { return true }
        defer { run = .max }
        if walk.matches(word, shared: run) {
          out.append(id)
        } else if walk.deadDepth > 0 && walk.deadDepth <= Ranking.typoSkipDepth {
          // Every later word that shares the dead prefix fails too: jump past them.
          var prefix = Array(word[0..<walk.deadDepth])
          prefix[prefix.count - 1] &+= 1
          skipTo = prefix
          return false
        }
        return out.count < Ranking.maxTypoCandidates
      }
      if let skipTo { next = max(next, try tokens.lowerBound(skipTo)) }
    }
    return out
  }
}

/// The distance table of one query against a run of sorted words, reused across the prefix
/// that consecutive words share (the Levenshtein walk of a trie, over a sorted list).
struct TypoWalk {
  /// After ``matches(_:)`` returned false: the length of the candidate's prefix past which no
  /// word can come back within the limit, or 0.
  private(set) var deadDepth = 0
  /// The query's bytes.
  private let query: [UInt8]
  /// Edits allowed.
  private let limit: Int
  /// Rows per column (query length + 1).
  private let rows: Int
  /// Most word bytes that take part in a prefix match (query length + limit).
  private let maxColumns: Int
  /// Column `j` (the table against the first `j` word bytes), `rows` entries each.
  private var table: [Int32]
  /// Per column: the least last-row entry over columns 0...j (the best prefix distance so far).
  private var best: [Int32]
  /// Per column: the least entry of the column.
  private var columnMin: [Int32]
  /// Columns computed past column 0 (valid for the first `computed` bytes of the candidate
  /// asked last).
  private var computed = 0

  /// Prepares the walk of `query` with `limit` edits.
  init(query: [UInt8], limit: Int) {
    self.query = query
    self.limit = limit
    rows = query.count + 1
    maxColumns = query.count + limit
    table = Array(repeating: 0, count: rows * (maxColumns + 1))
    best = Array(repeating: 0, count: maxColumns + 1)
    columnMin = Array(repeating: 0, count: maxColumns + 1)
    for i in 0..<rows { table[i] = Int32(min(i, limit + 1)) }
    best[0] = Int32(min(query.count, limit + 1))
    columnMin[0] = 0
  }

  /// Whether some prefix of `candidate` is within the limit of the query; `shared` is the
  /// length of the prefix it shares with the candidate asked before (0 when unknown).
  mutating func matches(_ candidate: borrowing [UInt8], shared sharedWithPrevious: Int) -> Bool {
    // Reset first: an early answer below must not leave the previous candidate's depth (an
    // empty candidate, which a damaged dictionary can hold, has no prefix to skip past).
    deadDepth = 0
    let n = min(candidate.count, maxColumns)
    if query.isEmpty { return true }
    if n == 0 { return false }
    // Columns already computed for the shared prefix stay valid.
    let shared = min(sharedWithPrevious, computed, n)
    // A dead column pair inside the shared prefix: nothing past it can come back.
    var j = 1
    while j <= shared {
      if j >= 2 && columnMin[j] > limit && columnMin[j - 1] > limit {
        if best[j] <= limit { return true }
        deadDepth = j
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
        let w = candidate[column - 1]
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
            if i > 1 && column > 1 && q == candidate[column - 2] && query[i - 2] == w {
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
          deadDepth = column
          return false
        }
        column += 1
      }
      return best[n] <= limit32
    }
  }
}
