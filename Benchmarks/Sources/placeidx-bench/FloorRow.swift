/// One category's floor for "chars to top-5" beside what the systems needed without an origin.
struct FloorRow: Codable, Sendable {
  var category: String
  /// Distinct typed texts in the category's pool (the places its targets are drawn from).
  var pool: Int
  /// ``EntryFloor/anyOrder`` over the pool: no system reading only the text needs fewer
  /// characters on average. Nil for typo variants, whose texts are drawn, not listed.
  var floorChars: Double?
  /// ``EntryFloor/stableOrder`` over the pool: the same for a system whose order of places
  /// stays put as the text grows.
  var stableFloorChars: Double?
  /// Targets without an origin that entered the top 5 on every system that ran, and the mean characters
  /// each needed for them.
  var pairedTargets: Int
  var oursChars: Double?
  var peerChars: Double?
  var tantivyChars: Double? = nil

  /// A row per category of `targets`, floors from `corpus`.
  static func rows(
    corpus: Corpus, targets: [Target], ours: [TargetOutcome], peer: [TargetOutcome],
    tantivy: [TargetOutcome]? = nil
  ) -> [FloorRow] {
    let pools = TargetSampler.basePools(corpus)
    return Category.allCases.map { c in
      let texts =
        c == .typo
        ? [] : (pools[c] ?? []).map { TargetSampler.text(corpus.places[$0], as: c) }
      let paired = targets.indices.filter { i in
        targets[i].category == c && targets[i].origin == nil && ours[i].firstTop5 != nil
          && peer[i].firstTop5 != nil && (tantivy.map { $0[i].firstTop5 != nil } ?? true)
      }
      let floor = EntryFloor(texts)
      return FloorRow(
        category: c.rawValue, pool: Set(texts).count, floorChars: floor?.anyOrder,
        stableFloorChars: floor?.stableOrder, pairedTargets: paired.count,
        oursChars: QualityScorer.meanChars(ours, over: paired),
        peerChars: QualityScorer.meanChars(peer, over: paired),
        tantivyChars: tantivy.flatMap { QualityScorer.meanChars($0, over: paired) })
    }
  }
}
