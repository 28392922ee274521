import Foundation
import PlaceCore
import PlaceIndexFormat

/// A place found for a request, with its score, before it becomes a suggestion.
struct ScoredPlace {
  var index: LoadedIndex
  var rank: Int
  var entry: PlaceEntry
  var score: Double
  var distance: Double?
}

extension LoadedIndex {
  /// Weights of the ranking formula: text match, importance, nearness.
  enum Weight {
    static let nameExact = 3.0
    static let namePrefix = 2.0
    static let contextExact = 1.2
    static let contextPrefix = 0.8
    static let wholeName = 1.5
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
      if range.isEmpty { return [] }
      var cost = 0
      for id in range {
        cost += try postings.length(id)
        if cost > 1_000_000 { break }
      }
      resolved.append(ResolvedToken(range: range, exact: try tokens.exactID(t), cost: cost))
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

    var merger = try PostingsMerger(postings: postings, tokens: driver.range)
    while let rank = try merger.next() {
      let entry = try places.entry(rank)
      let importance = Weight.importance * Double(entry.importance) / 65535
      // Places come in rank order, so importance only falls from here: stop when even a
      // perfect text and geo match could not enter the results.
      if best.count >= limit && maxText + maxGeo + importance < worst { break }
      var text = 0.0
      var allInName = true
      var matched = true
      for q in resolved {
        let inName = contains(entry.tokens, q.range)
        let inContext = !inName && contains(entry.contextTokens, q.range)
        guard inName || inContext else {
          matched = false
          break
        }
        let exact =
          q.exact.map { e in entry.tokens.contains(e) || entry.contextTokens.contains(e) }
          ?? false
        if inName {
          text += exact ? Weight.nameExact : Weight.namePrefix
        } else {
          allInName = false
          text += exact ? Weight.contextExact : Weight.contextPrefix
        }
      }
      guard matched else { continue }
      if allInName && entry.tokens.count <= resolved.count * 3 { text += Weight.wholeName }
      guard
        typeFilter.accepts(
          primaryType: primaryTypeOfList[entry.typeList],
          all: types.lists[entry.typeList].map { types.names[Int($0)] })
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
        ScoredPlace(index: self, rank: rank, entry: entry, score: score, distance: distance))
      best.sort { $0.score > $1.score || ($0.score == $1.score && $0.rank < $1.rank) }
      if best.count > limit { best.removeLast() }
      if best.count >= limit { worst = best[best.count - 1].score }
    }
    return best
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

  init(postings: Postings, tokens: Range<Int>) throws {
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
