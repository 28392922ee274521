import Foundation
import PlaceCore
import PlaceIndex

/// `replay`: the quality part of `run` alone, PlaceIndex only, for work on the ranking.
///
/// Per extract it builds the index (`placeidx build`, into `--work`), takes the targets the
/// baseline recorded (else draws them as `run` does), types each one as `run` does, and scores
/// PlaceIndex's answers with the same rule (`QualityScorer`). Beside them it puts the outcomes that a
/// results.json (`--baseline`, default `Benchmarks/results.json`) recorded for the same targets:
/// PlaceIndex then and the Tantivy peer. A ranking change is tuned on `--half tuning` (the
/// default) and reported on both; `--diff N` lists the N targets whose characters to the top 5
/// moved the most against the baseline's PlaceIndex.
enum Replay {
  struct Options {
    var setup: BenchSetup
    var extracts: String
    var only: [String]
    var half: TargetHalf?
    var baseline: String
    var diff: Int
    /// List this many targets the Tantivy peer (as recorded) put in the top 5 soonest before
    /// PlaceIndex does now.
    var behind: Int = 0
  }

  /// The part of results.json that the replay reads: every extract's targets.
  private struct Recorded: Decodable {
    struct Extract: Decodable {
      var name: String
      var targets: [TargetRecord]
    }
    var extracts: [Extract]
  }

  static func run(_ o: Options) throws {
    let fm = FileManager.default
    let recorded: [String: [TargetRecord]] =
      fm.fileExists(atPath: o.baseline)
      ? Dictionary(
        try JSONDecoder().decode(
          Recorded.self, from: Data(contentsOf: URL(fileURLWithPath: o.baseline))
        )
        .extracts.map { ($0.name, $0.targets) }, uniquingKeysWith: { a, _ in a })
      : [:]
    let files = try fm.contentsOfDirectory(atPath: o.extracts).sorted()
      .filter { $0.contains(".osm") }
      .filter { f in o.only.isEmpty || o.only.contains { f.contains($0) } }
      .map { (o.extracts as NSString).appendingPathComponent($0) }
    guard !files.isEmpty else { throw HarnessError("\(o.extracts): no extract to replay") }
    try fm.createDirectory(
      atPath: (o.setup.work as NSString).appendingPathComponent("indexes"),
      withIntermediateDirectories: true)
    var all: [Target] = []
    var now: [TargetOutcome] = []
    var before: [TargetOutcome] = []
    var tantivy: [TargetOutcome] = []
    var moved: [(delta: Int, line: String)] = []
    var behind: [(delta: Int, line: String)] = []
    for file in files {
      let name = Harness.stem(file)
      let index = (o.setup.work as NSString).appendingPathComponent("indexes/\(name).placeidx")
      _ = try Child.timed(
        o.setup.placeidx, ["build", file, "-o", index, "--quiet", "--data", o.setup.data])
      let loaded = try LoadedIndex(path: index)
      let corpus = try Corpus(index: loaded)
      // The baseline's targets, each with what it recorded: a change of importance reorders the
      // places, and targets drawn again would be others. Drawn as `run` draws them only for an
      // extract the baseline lacks.
      var pairs = (recorded[name] ?? []).compactMap { r -> (Target, TargetRecord?)? in
        guard let category = Category(rawValue: r.category),
          let rank = corpus.rankOfID[r.placeID], let half = TargetHalf(rawValue: r.half)
        else { return nil }
        let target = Target(
          category: category, rank: rank, text: r.text,
          origin: r.origin.map { Coordinate(latitude: $0[0], longitude: $0[1]) }, half: half,
          script: r.script.flatMap(Script.init(rawValue:)) ?? .latin)
        return (target, r)
      }
      if pairs.isEmpty {
        pairs = TargetSampler.draw(
          corpus, extract: file, seed: o.setup.seed, perCategory: o.setup.perCategory
        ).map { ($0, nil) }
      }
      let targets = pairs.map(\.0)
      let requests = TargetSampler.keystrokes(targets)
      let session = OursSession(
        client: PlacesClient(indexes: [loaded]), rankOfID: corpus.rankOfID)
      let outcomes = QualityScorer.outcomes(
        targets, requests, QueryRunner.run(requests, sessions: [session]), corpus: corpus)
      for (i, (t, r)) in pairs.enumerated() {
        let old = TargetOutcome(recordedChars: r?.oursChars, full: r?.oursFull)
        let peer = TargetOutcome(recordedChars: r?.tantivyChars, full: r?.tantivyFull)
        before.append(old)
        tantivy.append(peer)
        guard o.half == nil || t.half == o.half else { continue }
        // Characters to the top 5, a target that never got there counted as 99.
        let (a, b, c) = (old.firstTop5 ?? 99, outcomes[i].firstTop5 ?? 99, peer.firstTop5 ?? 99)
        let what =
          "\(name.prefix(14)) \(t.category.rawValue) \(corpus.places[t.rank].placeID)"
          + " \"\(t.text)\""
          + (t.origin.map { String(format: " near %.6f,%.6f", $0.latitude, $0.longitude) } ?? "")
        func chars(_ n: Int) -> String { n == 99 ? "-" : String(n) }
        if b > c { behind.append((b - c, "\(chars(b)) vs Tantivy \(chars(c))  \(what)")) }
        // Not first at full text where the peer is: listed after every keystroke difference.
        if peer.top1, !outcomes[i].top1 {
          let at = outcomes[i].fullPosition.map { "#\($0)" } ?? "not in the top 5"
          behind.append((0, "full text \(at) vs Tantivy #1  \(what)"))
        }
        if a != b {
          moved.append((b - a, "\(chars(a)) → \(chars(b)) (Tantivy \(chars(c)))  \(what)"))
        }
      }
      all += targets
      now += outcomes
    }
    if recorded.isEmpty { print("no baseline at \(o.baseline): its columns stay empty") }
    let rows = QualityScorer.rows(
      all, ours: now, peer: before, tantivy: tantivy, half: o.half)
    print(
      "\(o.half?.rawValue ?? "both") half(s), \(files.count) extracts; "
        + "keystrokes saved % / chars to top 5 / top-1 / top-5 at full text: now · before"
        + " (\(o.baseline)) · Tantivy")
    func f(_ q: SystemQuality?) -> String {
      guard let q else { return "–" }
      return String(
        format: "%5.1f %5.2f %3.0f%% %5.1f%%", 100 * q.keystrokesSaved, q.meanCharsToTop5 ?? 0,
        100 * q.top1, 100 * q.top5)
    }
    for r in rows {
      print(
        "\(r.category.padding(toLength: 8, withPad: " ", startingAt: 0)) \(String(format: "%4d", r.targets))"
          + "   \(f(r.ours)) · \(f(r.peer)) · \(f(r.tantivy))")
    }
    if o.behind > 0 {
      print(
        "behind the Tantivy peer (characters to the top 5, then top-1 at full text): \(behind.count)"
      )
      for m in behind.sorted(by: { $0.delta > $1.delta }).prefix(o.behind) { print("  \(m.line)") }
    }
    guard o.diff > 0 else { return }
    let better = moved.filter { $0.delta < 0 }.count
    print("moved: \(better) sooner, \(moved.count - better) later")
    for m in moved.sorted(by: { abs($0.delta) > abs($1.delta) }).prefix(o.diff) {
      print("  \(m.line)")
    }
  }
}

extension TargetOutcome {
  /// An outcome as results.json records it: characters to the top 5 and the position at full
  /// text (nil: not in the top 5).
  init(recordedChars chars: Int?, full: Int?) {
    self.init(firstTop5: chars, top5: full != nil, top1: full == 1, fullPosition: full)
  }
}
