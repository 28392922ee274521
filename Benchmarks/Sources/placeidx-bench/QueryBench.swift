import Dispatch
import Foundation
import PlaceCore
import PlaceIndex

/// A search system under test, as one thread uses it: a query and an optional origin in, the
/// corpus ranks of the top 5 out.
protocol SearchSession: AnyObject {
  func search(_ query: String, origin: Coordinate?) -> [Int]
  var errors: Int { get }
}

/// PlaceIndex through its public API; one client serves any number of threads.
final class OursSession: SearchSession, @unchecked Sendable {
  let client: PlacesClient
  let rankOfID: [String: Int]
  /// Whether an ID that `rankOfID` lacks counts as -2 - (its hash), never as a rank, rather
  /// than as -1 (for comparing shards' answers with one index's).
  let marksForeignIDs: Bool
  private(set) var errors = 0

  init(client: PlacesClient, rankOfID: [String: Int], marksForeignIDs: Bool = false) {
    self.client = client
    self.rankOfID = rankOfID
    self.marksForeignIDs = marksForeignIDs
  }

  func search(_ query: String, origin: Coordinate?) -> [Int] {
    let request = AutocompleteRequest(query: query, filter: AutocompleteFilter(origin: origin))
    do {
      return try client.autocompleteSuggestions(for: request).map {
        guard let id = $0.placeSuggestion?.placeID else { return -1 }
        return rankOfID[id] ?? (marksForeignIDs ? -2 - abs(id.hashValue % 1_000_000) : -1)
      }
    } catch {
      errors += 1
      return []
    }
  }
}

/// Latency figures of one run, in microseconds.
struct LatencyFigures: Codable, Sendable {
  var threads: Int
  var requests: Int
  var p50: Double
  var p90: Double
  var p99: Double
  var max: Double
  var mean: Double
  /// Requests answered per second of wall time (all threads together).
  var requestsPerSecond: Double
  /// Process CPU time over wall time: about 2 when two threads really ran at once, about 1
  /// when other work on the shared machine held the other core.
  var coresUsed: Double
  var errors: Int

  init(latenciesNs: [Int64], wallSeconds: Double, cpuSeconds: Double, threads: Int, errors: Int) {
    let sorted = latenciesNs.sorted()
    func pct(_ q: Double) -> Double {
      guard !sorted.isEmpty else { return 0 }
      let i = Swift.min(
        sorted.count - 1, Swift.max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
      return Double(sorted[i]) / 1_000
    }
    self.threads = threads
    requests = sorted.count
    p50 = pct(0.5)
    p90 = pct(0.9)
    p99 = pct(0.99)
    max = Double(sorted.last ?? 0) / 1_000
    mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1_000
    requestsPerSecond = wallSeconds > 0 ? Double(sorted.count) / wallSeconds : 0
    coresUsed = wallSeconds > 0 ? cpuSeconds / wallSeconds : 0
    self.errors = errors
  }
}

/// What one run of a request list gave: per request its latency and its top 5.
struct RunOutcome {
  var latenciesNs: [Int64]
  var results: [[Int]]
  var wallSeconds: Double
  /// CPU time of the whole process during the run with the shortest wall time.
  var cpuSeconds: Double
  var errors: Int

  func figures(threads: Int) -> LatencyFigures {
    LatencyFigures(
      latenciesNs: latenciesNs, wallSeconds: wallSeconds, cpuSeconds: cpuSeconds,
      threads: threads, errors: errors)
  }
}

/// Results written by one thread.
private final class ThreadLog: @unchecked Sendable {
  var indexes: [Int] = []
  var latencies: [Int64] = []
  var results: [[Int]] = []
}

/// The sessions and requests handed to the threads.
private final class Work: @unchecked Sendable {
  // @unchecked: `nextSequence` is read and written only while holding `lock`; each thread
  // writes only its own log.
  let sessions: [any SearchSession]
  let requests: [BenchRequest]
  let logs: [ThreadLog]
  /// The request indexes of each target's keystroke sequence, in typing order.
  let sequences: [[Int]]
  private let lock = NSLock()
  private var nextSequence = 0

  init(sessions: [any SearchSession], requests: [BenchRequest]) {
    self.sessions = sessions
    self.requests = requests
    logs = sessions.map { _ in ThreadLog() }
    var sequences: [[Int]] = []
    for (i, r) in requests.enumerated() {
      if i == 0 || r.target != requests[i - 1].target { sequences.append([]) }
      sequences[sequences.count - 1].append(i)
    }
    self.sequences = sequences
  }

  /// The next target's keystroke sequence no thread has taken, or nil.
  private func takeSequence() -> [Int]? {
    lock.lock()
    defer { lock.unlock() }
    guard nextSequence < sequences.count else { return nil }
    nextSequence += 1
    return sequences[nextSequence - 1]
  }

  /// Thread `t` takes the targets' keystroke sequences one at a time from a shared queue (as
  /// a server's threads take requests), typing each in order, until none is left.
  func run(thread t: Int) {
    let clock = ContinuousClock()
    let session = sessions[t]
    let log = logs[t]
    while let sequence = takeSequence() {
      for i in sequence {
        let r = requests[i]
        let start = clock.now
        let found = session.search(r.query, origin: r.origin)
        let elapsed = clock.now - start
        log.indexes.append(i)
        log.latencies.append(nanoseconds(elapsed))
        log.results.append(found)
      }
    }
  }
}

enum QueryRunner {
  /// Runs `requests` `passes` times, one session per thread (one thread: on the calling
  /// thread). Each request keeps its fastest time over the passes and the run its shortest
  /// wall time: interference from other work on a shared machine only ever adds time. The
  /// results are the first pass's.
  static func run(_ requests: [BenchRequest], sessions: [any SearchSession], passes: Int = 1)
    -> RunOutcome
  {
    var best: RunOutcome?
    for _ in 0..<max(1, passes) {
      let r = once(requests, sessions: sessions)
      guard var b = best else {
        best = r
        continue
      }
      for i in b.latenciesNs.indices { b.latenciesNs[i] = min(b.latenciesNs[i], r.latenciesNs[i]) }
      if r.wallSeconds < b.wallSeconds {
        b.wallSeconds = r.wallSeconds
        b.cpuSeconds = r.cpuSeconds
      }
      b.errors += r.errors
      best = b
    }
    return best!
  }

  private static func once(_ requests: [BenchRequest], sessions: [any SearchSession])
    -> RunOutcome
  {
    let work = Work(sessions: sessions, requests: requests)
    let errorsBefore = sessions.reduce(0) { $0 + $1.errors }
    let clock = ContinuousClock()
    let cpuStart = processCPUSeconds()
    let start = clock.now
    if sessions.count == 1 {
      work.run(thread: 0)
    } else {
      // One thread per session, started together; wait for all.
      let group = DispatchGroup()
      for t in sessions.indices {
        group.enter()
        let thread = Thread {
          work.run(thread: t)
          group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
      }
      group.wait()
    }
    let wall = seconds(clock.now - start)
    let cpu = processCPUSeconds() - cpuStart
    var latencies = [Int64](repeating: 0, count: requests.count)
    var results = [[Int]](repeating: [], count: requests.count)
    for log in work.logs {
      for (k, i) in log.indexes.enumerated() {
        latencies[i] = log.latencies[k]
        results[i] = log.results[k]
      }
    }
    let errors = sessions.reduce(0) { $0 + $1.errors } - errorsBefore
    return RunOutcome(
      latenciesNs: latencies, results: results, wallSeconds: wall, cpuSeconds: cpu,
      errors: errors)
  }
}

/// Quality of one system on one set of targets.
struct SystemQuality: Codable, Sendable {
  /// Share of targets in the top 5 once the full text is typed.
  var top5: Double
  /// Share of targets first once the full text is typed.
  var top1: Double
  /// Share of targets that entered the top 5 at some prefix.
  var entered: Double
  /// Mean characters typed until the target entered the top 5, over the targets that did.
  var meanCharsToTop5: Double?
  /// Keystrokes saved: the mean over all targets of the share of the target's text not typed
  /// before it entered the top 5 ((length - chars) / length; 0 for a target that never did).
  var keystrokesSaved: Double = 0
}

/// Quality of the systems on one category (or all).
struct QualityRow: Codable, Sendable {
  var category: String
  var targets: Int
  var meanTextLength: Double
  var ours: SystemQuality
  var peer: SystemQuality
  /// The Tantivy peer, when it ran.
  var tantivy: SystemQuality? = nil
  /// Targets that entered the top 5 on every system that ran, and the mean characters each
  /// needed for them: the like-for-like keystroke figure.
  var pairedTargets: Int
  var oursPairedChars: Double?
  var peerPairedChars: Double?
  var tantivyPairedChars: Double? = nil
}

/// Per target: the first prefix length with the target in the top 5, and the full-text outcome.
struct TargetOutcome {
  var firstTop5: Int?
  var top5: Bool
  var top1: Bool
  /// Position (1...5) of the target at full text.
  var fullPosition: Int?
}

enum QualityScorer {
  static func outcomes(
    _ targets: [Target], _ requests: [BenchRequest], _ run: RunOutcome, corpus: Corpus
  ) -> [TargetOutcome] {
    var out = targets.map { _ in
      TargetOutcome(firstTop5: nil, top5: false, top1: false, fullPosition: nil)
    }
    let lengths = targets.map { Array($0.text).count }
    for (i, r) in requests.enumerated() {
      let t = targets[r.target]
      let top = run.results[i]
      let hit = top.prefix(5).contains { corpus.isEquivalent($0, to: t.rank) }
      if hit && out[r.target].firstTop5 == nil { out[r.target].firstTop5 = r.length }
      if r.length == lengths[r.target] {
        out[r.target].top5 = hit
        out[r.target].top1 = top.first.map { corpus.isEquivalent($0, to: t.rank) } ?? false
        out[r.target].fullPosition =
          top.prefix(5).firstIndex { corpus.isEquivalent($0, to: t.rank) }.map { $0 + 1 }
      }
    }
    return out
  }

  /// Mean characters to the top 5 over `members`, targets that all got there; nil for none.
  static func meanChars(_ o: [TargetOutcome], over members: [Int]) -> Double? {
    members.isEmpty
      ? nil : Double(members.map { o[$0].firstTop5 ?? 0 }.reduce(0, +)) / Double(members.count)
  }

  /// One row per category and one for all, over the targets of `half` (all when nil).
  static func rows(
    _ targets: [Target], ours: [TargetOutcome], peer: [TargetOutcome],
    tantivy: [TargetOutcome]? = nil, half: TargetHalf? = nil
  ) -> [QualityRow] {
    let chosen = targets.indices.filter { half == nil || targets[$0].half == half }
    let groups: [(String, [Int])] =
      Category.allCases.map { c in
        (c.rawValue, chosen.filter { targets[$0].category == c })
      }
      + [("all", chosen)]
    return rows(groups, targets, ours: ours, peer: peer, tantivy: tantivy)
  }

  /// The name of the row of typo variants in `script` (`typoRowsByScript`); "Latin" and
  /// "non-Latin" name the two sums.
  static func typoRowName(_ script: String) -> String { "typo/" + script }

  /// The typo variants per script of the typed text: one row for Latin, one for every other
  /// script together ("non-Latin"), then one per other script that has targets.
  static func typoRowsByScript(
    _ targets: [Target], ours: [TargetOutcome], peer: [TargetOutcome],
    tantivy: [TargetOutcome]? = nil
  ) -> [QualityRow] {
    let typos = targets.indices.filter { targets[$0].category == .typo }
    let nonLatin = typos.filter { targets[$0].script != .latin }
    var groups: [(String, [Int])] = [
      (typoRowName("Latin"), typos.filter { targets[$0].script == .latin }),
      (typoRowName("non-Latin"), nonLatin),
    ]
    for script in Script.allCases where script != .latin {
      groups.append(
        (typoRowName(script.rawValue), nonLatin.filter { targets[$0].script == script }))
    }
    return rows(groups, targets, ours: ours, peer: peer, tantivy: tantivy)
  }

  /// One row per named group of target indexes that has any.
  static func rows(
    _ groups: [(String, [Int])], _ targets: [Target], ours: [TargetOutcome],
    peer: [TargetOutcome], tantivy: [TargetOutcome]?
  ) -> [QualityRow] {
    var rows: [QualityRow] = []
    let lengths = targets.map { max(1, Array($0.text).count) }
    for (name, members) in groups where !members.isEmpty {
      func quality(_ o: [TargetOutcome]) -> SystemQuality {
        let n = Double(members.count)
        let entered = members.compactMap { o[$0].firstTop5 }
        let saved = members.reduce(0.0) { sum, i in
          guard let c = o[i].firstTop5 else { return sum }
          return sum + Double(lengths[i] - c) / Double(lengths[i])
        }
        return SystemQuality(
          top5: Double(members.filter { o[$0].top5 }.count) / n,
          top1: Double(members.filter { o[$0].top1 }.count) / n,
          entered: Double(entered.count) / n,
          meanCharsToTop5: entered.isEmpty
            ? nil : Double(entered.reduce(0, +)) / Double(entered.count),
          keystrokesSaved: saved / n)
      }
      let paired = members.filter { i in
        ours[i].firstTop5 != nil && peer[i].firstTop5 != nil
          && (tantivy.map { $0[i].firstTop5 != nil } ?? true)
      }
      rows.append(
        QualityRow(
          category: name, targets: members.count,
          meanTextLength: Double(members.map { Array(targets[$0].text).count }.reduce(0, +))
            / Double(members.count),
          ours: quality(ours), peer: quality(peer), tantivy: tantivy.map(quality),
          pairedTargets: paired.count,
          oursPairedChars: meanChars(ours, over: paired),
          peerPairedChars: meanChars(peer, over: paired),
          tantivyPairedChars: tantivy.flatMap { meanChars($0, over: paired) }))
    }
    return rows
  }
}
