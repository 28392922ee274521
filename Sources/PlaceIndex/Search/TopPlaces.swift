import Foundation
import PlaceCore
import PlaceIndexFormat

/// A place found for a request, with its score, before it becomes a suggestion.
struct ScoredPlace {
  /// Which of the client's indexes holds it (set by the client; the search holds no
  /// reference to its index, so that threads do not share a reference count per result).
  var shard = 0
  var rank: Int
  var score: Double
  var distance: Double?
  /// Its position, for collapsing duplicates.
  var latitudeE7: Int32
  var longitudeE7: Int32
  /// Its importance (ties between shards are broken as one index ranks).
  var importance: UInt16 = 0
  /// How many typed words the place misses: 0, or 1 for a match of the relaxed pass.
  var missing = 0
}

/// The best places so far, best first, at most `limit`.
struct TopPlaces {
  let limit: Int
  var places: [ScoredPlace] = []

  init(limit: Int) {
    self.limit = limit
    places.reserveCapacity(limit + 1)
  }

  /// The score a place must reach to matter: the `limit`-th best of the shards searched
  /// before (their places and these are merged). A place below it cannot be among the merged
  /// results; one equal to it can, as ties between shards go by importance, kind and id.
  var floor = -Double.infinity

  /// The first rank of this index whose place ties with the floor's place and loses: a rank
  /// order is one index's order of ties (importance, element kind, id), so from it on a place
  /// that scores at most the floor cannot enter ("Bergstrasse 2" in each of 200 towns, the
  /// towns searched after the first: their places all tie with the floor). `Int.max`: none.
  var floorRank = Int.max

  /// Whether `limit` places are held (a place must then beat ``worst`` to enter).
  var isFull: Bool { places.count >= limit }

  /// The score of the last place held.
  var worst: Double { places.last?.score ?? -.infinity }

  /// Whether some score keeps a place out: the results are full, or other shards set a floor.
  var prunes: Bool { isFull || floor > -.infinity }

  /// Whether a place that scores at most `score` cannot enter, in any order: below the worst
  /// of full results (a tie may enter by rank) or below the floor.
  @inline(__always)
  func excludes(_ score: Double) -> Bool {
    (isFull && score < worst) || score < floor
  }

  /// Whether a place that scores at most `score` and ranks after every place held cannot
  /// enter: at most the worst of full results (ties go to the lower rank), or below the floor.
  @inline(__always)
  func excludesLater(_ score: Double) -> Bool {
    (isFull && score <= worst) || score < floor
  }

  /// Whether a place that scores at most `score` and ranks at `rank` or after, after every
  /// place held, cannot enter: ``excludesLater(_:)``, or at most the floor from
  /// ``floorRank`` on.
  @inline(__always)
  func excludesLater(_ score: Double, from rank: Int) -> Bool {
    excludesLater(score) || (score <= floor && rank >= floorRank)
  }

  /// Whether a place that scores at most `score` and ranks at `rank` or after cannot enter:
  /// ``excludes(_:)``, or at most the worst of full results when it ranks after the worst
  /// (a tie goes to the lower rank). A search read from both ends sees places out of rank
  /// order, but every place it has not seen ranks at or after its next posting.
  @inline(__always)
  func excludes(_ score: Double, ranksFrom rank: Int) -> Bool {
    excludes(score) || (isFull && score <= worst && rank > places[places.count - 1].rank)
      || (score <= floor && rank >= floorRank)
  }

  /// Inserts `p` in order (higher score first, then lower rank), dropping the last past
  /// `limit`.
  mutating func insert(_ p: ScoredPlace) {
    var i = places.count
    while i > 0 {
      let q = places[i - 1]
      if q.score > p.score || (q.score == p.score && q.rank < p.rank) { break }
      i -= 1
    }
    guard i < limit else { return }
    places.insert(p, at: i)
    if places.count > limit { places.removeLast() }
  }
}
