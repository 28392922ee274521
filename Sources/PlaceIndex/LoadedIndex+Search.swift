import Foundation
import PlaceCore
import PlaceIndexFormat

/// A place found for a request, with its score, before it becomes a suggestion.
struct ScoredPlace {
  var index: LoadedIndex
  var rank: Int
  var score: Double
  var distance: Double?
  /// Its position, for collapsing duplicates.
  var latitudeE7: Int32
  var longitudeE7: Int32
}

extension LoadedIndex {
  /// Weights of the ranking formula: text match, importance, nearness.
  enum Weight {
    static let nameExact = 3.0
    static let namePrefix = 2.0
    static let contextExact = 1.2
    static let contextPrefix = 0.8
    static let wholeName = 1.5
    /// A token found only within typo distance counts this share of a prefix match.
    static let typoShare = 0.45
    static let importance = 6.0
    static let nearness = 4.0
    /// Distance at which the nearness bonus falls to 1/e of its maximum.
    static let nearnessScale = 8_000.0
  }

  /// The best places for `plan`, at most `limit`, after filters; sorted by score.
  func search(
    _ plan: QueryPlan, filter: AutocompleteFilter, typeFilter: TypeFilter, limit: Int
  ) throws -> [ScoredPlace] {
    var resolved: [ResolvedToken] = []
    for t in plan.tokens {
      let range = try tokens.prefixRange(t)
      var cost = 0
      for id in range {
        cost += try postings.length(id)
        if cost > 1_000_000 { break }
      }
      // Typo candidates only when the token as typed finds fewer places than a page of
      // results: a correct prefix with many places needs no guessing, and guessing costs a
      // scan of the dictionary's tokens with the same first letter.
      var typos: [Int] = []
      if cost < 2 * limit {
        typos = try typoCandidates(t, excluding: range)
        for id in typos { cost += try postings.length(id) }
      }
      let token = ResolvedToken(
        range: range, exact: try tokens.exactID(t), typos: typos, cost: cost)
      if token.isEmpty { return [] }
      resolved.append(token)
    }
    guard let driverIndex = resolved.indices.min(by: { resolved[$0].cost < resolved[$1].cost })
    else { return [] }
    let driver = resolved[driverIndex]
    let focus = filter.origin ?? filter.coordinateRegionBias?.center
    let countries = Set(filter.countries.map { $0.uppercased() })
    let maxText =
      Double(resolved.count) * Weight.nameExact + Weight.wholeName
    let maxGeo = focus == nil ? 0 : Weight.nearness
    var best: [ScoredPlace] = []
    var worst = -Double.infinity

    var merger = try PostingsMerger(postings: postings, tokens: Array(driver.range) + driver.typos)
    var entry = PlaceMatch()
    while let rank = try merger.next() {
      try places.match(rank, into: &entry)
      let importance = Weight.importance * Double(entry.importance) / 65535
      // Places come in rank order, so importance only falls from here: stop when even a
      // perfect text and geo match could not enter the results.
      if best.count >= limit && maxText + maxGeo + importance < worst { break }
      var text = 0.0
      var allInName = true
      var matched = true
      for q in resolved {
        var inName = contains(entry.tokens, q.range)
        var inContext = !inName && contains(entry.contextTokens, q.range)
        var share = 1.0
        if !inName && !inContext && !q.typos.isEmpty {
          inName = intersects(entry.tokens, q.typos)
          inContext = !inName && intersects(entry.contextTokens, q.typos)
          share = Weight.typoShare
        }
        guard inName || inContext else {
          matched = false
          break
        }
        let exact =
          share == 1
          && (q.exact.map { e in entry.tokens.contains(e) || entry.contextTokens.contains(e) }
            ?? false)
        if inName {
          text += share * (exact ? Weight.nameExact : Weight.namePrefix)
        } else {
          allInName = false
          text += share * (exact ? Weight.contextExact : Weight.contextPrefix)
        }
      }
      guard matched else { continue }
      // Every word of the name typed: "Restaurant Weinstube" is that place, not
      // "Hotel Restaurant Weinstube".
      if allInName && resolved.count >= entry.nameWordCount { text += Weight.wholeName }
      guard
        typeFilter.accepts(
          primaryType: primaryTypeOfList[entry.typeList],
          all: typeFilter.needsAllTypes ? types.types(ofList: entry.typeList) : [])
      else { continue }
      let point = Coordinate(
        latitude: Double(entry.latitudeE7) / 1e7, longitude: Double(entry.longitudeE7) / 1e7)
      if !countries.isEmpty {
        guard let cc = entry.countryCode, countries.contains(try strings.string(cc)) else {
          continue
        }
      }
      if let restriction = filter.coordinateRegionRestriction, !restriction.contains(point) {
        continue
      }
      var geo = 0.0
      if let bias = filter.coordinateRegionBias, bias.contains(point) {
        geo = Weight.nearness
      } else if let focus {
        geo = Weight.nearness * exp(-focus.distance(to: point) / Weight.nearnessScale)
      }
      let score = text + importance + geo
      if best.count >= limit && score <= worst { continue }
      let distance = filter.origin.map { $0.distance(to: point) }
      best.append(
        ScoredPlace(
          index: self, rank: rank, score: score, distance: distance,
          latitudeE7: entry.latitudeE7, longitudeE7: entry.longitudeE7))
      best.sort { $0.score > $1.score || ($0.score == $1.score && $0.rank < $1.rank) }
      if best.count > limit { best.removeLast() }
      if best.count >= limit { worst = best[best.count - 1].score }
    }
    return best
  }

  /// Token ids within the allowed edits of `token` (first letter fixed), outside `range`.
  func typoCandidates(_ token: String, excluding range: Range<Int>) throws -> [Int] {
    let query = Array(token.utf8)
    let scalarCount = token.unicodeScalars.count
    let limit = TypoDistance.allowedEdits(length: scalarCount)
    guard limit > 0, let first = token.unicodeScalars.first else { return [] }
    var out: [Int] = []
    let firstRange = try tokens.prefixRange(String(first))
    guard !firstRange.isEmpty else { return [] }
    var b = firstRange.lowerBound / tokens.blockSize
    while b * tokens.blockSize < firstRange.upperBound && out.count < 256 {
      try tokens.scanBlock(b) { id, word in
        guard id < firstRange.upperBound else { return false }
        if id >= firstRange.lowerBound, !range.contains(id),
          TypoDistance.prefixDistance(query, word, limit: limit) != nil
        {
          out.append(id)
        }
        return out.count < 256
      }
      b += 1
    }
    return out
  }

  /// Whether two sorted id lists share an id.
  private func intersects(_ a: [Int], _ b: [Int]) -> Bool {
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
      if a[i] == b[j] { return true }
      if a[i] < b[j] { i += 1 } else { j += 1 }
    }
    return false
  }

  /// Whether a sorted id list has an id in `range`.
  private func contains(_ sorted: [Int], _ range: Range<Int>) -> Bool {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if sorted[mid] < range.lowerBound { lo = mid + 1 } else { hi = mid }
    }
    return lo < sorted.count && sorted[lo] < range.upperBound
  }
}

/// Merges the postings lists of a token range into one ascending stream of place ranks.
struct PostingsMerger {
  private var cursors: [PostingsCursor] = []
  private var heads: [(value: Int, cursor: Int)] = []

  init(postings: Postings, tokens: [Int]) throws {
    for t in tokens {
      var c = try postings.list(t)
      if let v = try c.next() {
        cursors.append(c)
        heads.append((v, cursors.count - 1))
      }
    }
    heads.sort { $0.value > $1.value }
  }

  /// The next place rank, each rank once.
  mutating func next() throws -> Int? {
    guard let top = heads.last else { return nil }
    let value = top.value
    // Advance every cursor whose head is this value.
    while let h = heads.last, h.value == value {
      heads.removeLast()
      if let v = try cursors[h.cursor].next() { insert((v, h.cursor)) }
    }
    return value
  }

  /// Inserts keeping `heads` sorted descending (smallest at the end).
  private mutating func insert(_ h: (value: Int, cursor: Int)) {
    var lo = 0
    var hi = heads.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if heads[mid].value > h.value { lo = mid + 1 } else { hi = mid }
    }
    heads.insert(h, at: lo)
  }
}
