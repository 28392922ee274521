import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder

/// One stage of a build as `placeidx build --report` printed it.
struct StageFigure: Codable, Sendable {
  var name: String
  var seconds: Double
  var cpuSeconds: Double
  /// Anonymous resident memory at the stage's end, MiB.
  var rssAnonMiB: Int
  /// The process's peak resident set so far, MiB.
  var peakRSSMiB: Int
}

/// What the scale run reads from a build's `--report` output.
struct BuildReportFigures: Codable, Sendable {
  var nodes: Int
  var ways: Int
  var relations: Int
  var places: Int
  var tokens: Int
  var stages: [StageFigure]

  /// Parses the lines `elements …`, `places …`, `index …` and `stage …` of a report.
  init(report text: String) throws {
    func numbers(_ line: Substring) -> [Double] {
      var out: [Double] = []
      var current = ""
      for c in line {
        if c.isNumber || (c == "." && !current.isEmpty) {
          current.append(c)
        } else {
          if let v = Double(current) { out.append(v) }
          current = ""
        }
      }
      if let v = Double(current) { out.append(v) }
      return out
    }
    nodes = 0
    ways = 0
    relations = 0
    places = 0
    tokens = 0
    stages = []
    for line in text.split(separator: "\n") {
      if line.hasPrefix("elements ") {
        let n = numbers(line)
        if n.count >= 3 { (nodes, ways, relations) = (Int(n[0]), Int(n[1]), Int(n[2])) }
      } else if line.hasPrefix("places ") {
        places = Int(numbers(line).first ?? 0)
      } else if line.hasPrefix("index "), let tokensAt = line.range(of: " tokens") {
        tokens = Int(numbers(line[..<tokensAt.lowerBound]).last ?? 0)
      } else if line.hasPrefix("stage "), let colon = line.firstIndex(of: ":") {
        let name = line[line.index(line.startIndex, offsetBy: 6)..<colon].trimmingCharacters(
          in: .whitespaces)
        let n = numbers(line[line.index(after: colon)...])
        guard n.count == 4 else {
          throw HarnessError("cannot read the build's stage line '\(line)'")
        }
        stages.append(
          StageFigure(
            name: name, seconds: n[0], cpuSeconds: n[1], rssAnonMiB: Int(n[2]),
            peakRSSMiB: Int(n[3])))
      }
    }
    guard !stages.isEmpty, places > 0 else {
      throw HarnessError("the build's report has no stage lines or no places:\n\(text)")
    }
  }

  /// Builds `extract` into `output` in this process and returns the report's lines as
  /// `placeidx build --report` prints them, with the places and stage names the report holds
  /// (to check the parser against the report's real format).
  static func inProcessReport(extract: String, output: String) throws -> (
    text: String, places: Int, stages: [String]
  ) {
    let report = try IndexBuilder(tables: try BuildTables.load(directory: nil)).build(
      IndexBuilder.Options(extract: extract, output: output))
    return (
      report.lines(verbose: true).joined(separator: "\n"), report.places,
      report.stages.map(\.name)
    )
  }

  /// The largest anonymous memory at the end of a stage after reading, MiB.
  var afterReadMiB: Int { stages.dropFirst().map(\.rssAnonMiB).max() ?? 0 }
}

/// The kinds of request of the scale mix.
enum MixKind: String, Codable, CaseIterable, Sendable {
  /// Every keystroke prefix of each target's text (as the main benchmark types).
  case keystroke
  /// Two or three words of the target's text, each cut to one or two letters ("E B Ha").
  case multiWord = "multi-word"
  /// One letter with an origin near the target.
  case letterOrigin = "letter+origin"
}

/// Latency percentiles of the requests of one kind, microseconds.
struct KindFigures: Codable, Sendable {
  var kind: String
  var requests: Int
  var p50: Double
  var p90: Double
  var p99: Double
}

enum ScaleMix {
  /// The keystroke prefixes of `targets`, then per target with two or more words a short
  /// multi-word prefix (and with three or more, a second one of three words), then per target
  /// one letter with an origin. Each added request is a sequence of its own.
  static func requests(
    _ targets: [Target], coordinateOf: (_ rank: Int) -> Coordinate, seed: UInt64
  ) -> ([BenchRequest], [MixKind]) {
    var requests = TargetSampler.keystrokes(targets)
    var kinds = [MixKind](repeating: .keystroke, count: requests.count)
    var rng = SeededRandom(seed: seed ^ 0x5CA1E)
    var sequence = targets.count
    func add(_ query: String, _ origin: Coordinate?, _ kind: MixKind) {
      requests.append(
        BenchRequest(target: sequence, length: query.count, query: query, origin: origin))
      kinds.append(kind)
      sequence += 1
    }
    for t in targets {
      let words = t.text.split { !$0.isLetter && !$0.isNumber }.filter {
        $0.first?.isLetter ?? false
      }
      for n in [2, 3] where words.count >= n {
        add(
          words.prefix(n).map { String($0.prefix(1 + rng.below(2))) }.joined(separator: " "),
          t.origin, .multiWord)
      }
    }
    for t in targets {
      guard let first = t.text.first(where: \.isLetter) else { continue }
      let origin = t.origin ?? TargetSampler.near(coordinateOf(t.rank), &rng)
      add(String(first).lowercased(), origin, .letterOrigin)
    }
    return (requests, kinds)
  }

  /// The percentiles of each kind's requests in `run`.
  static func byKind(_ run: RunOutcome, kinds: [MixKind]) -> [KindFigures] {
    MixKind.allCases.compactMap { kind in
      let l = run.latenciesNs.indices.filter { kinds[$0] == kind }.map { run.latenciesNs[$0] }
      guard !l.isEmpty else { return nil }
      let f = LatencyFigures(latenciesNs: l, wallSeconds: 0, cpuSeconds: 0, threads: 1, errors: 0)
      return KindFigures(kind: kind.rawValue, requests: l.count, p50: f.p50, p90: f.p90, p99: f.p99)
    }
  }
}

/// One shard's build.
struct ShardBuild: Codable, Sendable {
  /// The copies of the tiling in the shard: `firstCopy..<endCopy`.
  var firstCopy: Int
  var endCopy: Int
  var xmlBytes: Int
  var run: SampledRun
  var report: BuildReportFigures
  var indexBytes: Int
}

/// The tiled data of one factor as N shard indexes loaded together.
struct ShardPoint: Codable, Sendable {
  var shards: Int
  var builds: [ShardBuild]
  var ours: LatencyFigures
  var byKind: [KindFigures]
  /// Requests whose top 5 (place IDs, in order) differ from the single index's.
  var differing: Int
  /// Of those, the requests whose shard answer holds a place the single index does not have
  /// (the data differ, not the ranking: e.g. streets the single index merged across copies).
  var differingWithForeignIDs: Int?
  /// Up to five of them: the query and both answers.
  var examples: [String]

  var indexBytes: Int { builds.reduce(0) { $0 + $1.indexBytes } }
  var places: Int { builds.reduce(0) { $0 + $1.report.places } }
  var buildCPU: Double { builds.reduce(0) { $0 + $1.run.run.cpu } }
  var buildWall: Double { builds.reduce(0) { $0 + $1.run.run.wall } }
  var maxPeakRSSKiB: Int { builds.map(\.run.run.peakRSSKiB).max() ?? 0 }
  var maxPeakAnonKiB: Int { builds.map(\.run.peakAnonKiB).max() ?? 0 }
  var maxWall: Double { builds.map(\.run.run.wall).max() ?? 0 }
}

enum ScaleShards {
  /// The copies of shard `s` of `n` for `factor` copies: consecutive runs of the tiler's ring
  /// order (near copies together), as even as they divide.
  static func copies(_ s: Int, of n: Int, factor: Int) -> Range<Int> {
    (s * factor / n)..<((s + 1) * factor / n)
  }
}
