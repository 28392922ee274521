import Foundation
import PlaceCore
import PlaceIndexFormat

extension LoadedIndex {
  /// The nearness score of a place at `point` (the full bonus inside the bias region, else
  /// falling with the distance from the focus) and its distance from the origin, if any.
  @inline(__always)
  func geoScore(_ point: Coordinate, context: SearchContext) -> (Double, distance: Double?) {
    let distance = context.filter.origin.map { $0.distance(to: point) }
    if let bias = context.filter.coordinateRegionBias, bias.contains(point) {
      return (Ranking.nearness, distance)
    }
    guard let focus = context.focus else { return (0, distance) }
    let d = distance ?? focus.distance(to: point)
    return (Ranking.nearness * exp(-d / Ranking.nearnessScale), distance)
  }

  /// The text score of a place whose name has `nameWordCount` words, from where each
  /// resolved word lies in it (`hits`, one per word), or nil when it misses more than
  /// `missing` of them (exactly `missing`: fewer were scored by a stricter pass).
  @inline(__always)
  func textScore(
    nameWordCount: Int, hits: [WordHits], _ resolved: [ResolvedToken], missing: Int
  ) -> Double? {
    var text = 0.0
    var allInName = true
    var missed = 0
    // The name's words the typed words matched, a typo match counting its share; and the
    // least share of any word, which the whole-name bonus is scaled by.
    var inName = 0.0
    var leastShare = 1.0
    for h in hits {
      // Where the word lies: the primary name, an alternative name only, or the context; as
      // typed, else within typo distance.
      guard let (part, share, exact) = h.match else {
        missed += 1
        if missed > missing { return nil }
        allInName = false
        continue
      }
      if part == .name { inName += share } else { allInName = false }
      leastShare = min(leastShare, share)
      text += share * part.weight(exact: exact)
    }
    guard missed == missing else { return nil }
    if nameWordCount > 0 {
      text += Ranking.coverage * min(inName, Double(nameWordCount)) / Double(nameWordCount)
    }
    // Every word of the name typed: "Restaurant Weinstube" is that place, not
    // "Hotel Restaurant Weinstube".
    // Not after one or two letters: any one-word name (or other-language name) starting with
    // them would get it.
    // A typo earns its share of it: a name typed as it is outranks one reached by a typo.
    if allInName && resolved.count >= nameWordCount && Self.mayEarnWholeName(resolved) {
      text += Ranking.wholeName * leastShare
    }
    return text
  }

}

extension PostingsPart {
  /// The score of a word found in this part, as a whole token or as a prefix.
  @inline(__always)
  func weight(exact: Bool) -> Double {
    typealias W = Ranking
    switch self {
    case .name: return exact ? W.nameExact : W.namePrefix
    case .alternative: return W.alternativeName * (exact ? W.nameExact : W.namePrefix)
    case .context: return exact ? W.contextExact : W.contextPrefix
    }
  }
}
