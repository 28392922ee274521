import Foundation
import PlaceCore
import PlaceIndex

/// `probe-queries`: the cost of each request of the scale bench's mix over one index (or a set
/// of shards), with the slowest requests named: a tool for work on the query path, not a
/// benchmark report. It times the thread's CPU, not the wall clock, so that a busy machine
/// (other builds) changes the figures less.
enum ProbeQueries {
  /// The mix: every keystroke prefix of `perCategory` targets per category, plus short
  /// multi-word prefixes (each word cut to one or two letters, half with an origin) and one
  /// letter with an origin.
  static func mix(_ corpus: Corpus, perCategory: Int, seed: UInt64) -> [BenchRequest] {
    var requests = TargetSampler.keystrokes(
      TargetSampler.sample(corpus, perCategory: perCategory, seed: seed))
    var rng = SeededRandom(seed: seed ^ 0x5ca1e)
    let multi = corpus.places.indices.filter {
      corpus.places[$0].name.split(separator: " ").count >= 2
    }
    for i in 0..<(multi.isEmpty ? 0 : 4 * perCategory) {
      let p = corpus.places[rng.element(of: multi)]
      let words = p.name.split(separator: " ").prefix(3)
      let query = words.map { String($0.prefix(1 + rng.below(2))) }.joined(separator: " ")
      let origin = i % 2 == 0 ? TargetSampler.near(p.coordinate, &rng) : nil
      requests.append(BenchRequest(target: -1, length: query.count, query: query, origin: origin))
    }
    let letters = Array("abcdefghiklmnoprstuvw")
    for _ in 0..<(corpus.places.isEmpty ? 0 : 2 * perCategory) {
      let p = corpus.places[rng.below(corpus.places.count)]
      requests.append(
        BenchRequest(
          target: -1, length: 1, query: String(rng.element(of: letters)),
          origin: TargetSampler.near(p.coordinate, &rng)))
    }
    return requests
  }

  /// Times the mix drawn from `index` against `index`, or against `shards` when given (the
  /// same data split: the requests stay the same whatever the split).
  static func run(
    index: String, shards: [String], perCategory: Int, seed: UInt64, passes: Int, answers: String?,
    repeatSlowest: Int = 0, mixFile: String? = nil, timesFile: String? = nil
  ) throws {
    let whole = try LoadedIndex(path: index)
    let searched = shards.isEmpty ? [whole] : try shards.map { try LoadedIndex(path: $0) }
    let client = PlacesClient(indexes: searched)
    // Drawing the mix reads every place back (minutes at 200x): `--mix FILE` keeps it.
    let requests: [BenchRequest]
    if let mixFile, let saved = try? String(contentsOfFile: mixFile, encoding: .utf8) {
      requests = try saved.split(separator: "\n").map { try MixLine.parse(String($0)) }
    } else {
      requests = mix(try Corpus(index: whole), perCategory: perCategory, seed: seed)
      if let mixFile {
        try requests.map(MixLine.format).joined(separator: "\n")
          .write(toFile: mixFile, atomically: true, encoding: .utf8)
      }
    }
    var best = [Double](repeating: .infinity, count: requests.count)
    var lines: [String] = []
    for pass in 0..<max(1, passes) {
      for (i, r) in requests.enumerated() {
        let request = AutocompleteRequest(
          query: r.query, filter: AutocompleteFilter(origin: r.origin))
        let start = threadCPUNanoseconds()
        let found = (try? client.autocompleteSuggestions(for: request)) ?? []
        let micros = Double(threadCPUNanoseconds() - start) / 1000
        best[i] = min(best[i], micros)
        if pass == 0 {
          let ids = found.compactMap { $0.placeSuggestion?.placeID }.joined(separator: ",")
          let at = r.origin.map { "\($0.latitude),\($0.longitude)" } ?? "-"
          lines.append("\(r.query)\t\(at)\t\(ids)")
        }
      }
    }
    if let timesFile {
      // One line per request: CPU µs, kind, origin or "-", the query.
      try requests.indices.map { i in
        let r = requests[i]
        let kind = r.target >= 0 ? "keystroke" : r.length > 1 ? "multi-word" : "letter+origin"
        return "\(Int(best[i]))\t\(kind)\t\(r.origin == nil ? "-" : "origin")\t\(r.query)"
      }.joined(separator: "\n").write(toFile: timesFile, atomically: true, encoding: .utf8)
    }
    if let answers {
      try lines.joined(separator: "\n").write(toFile: answers, atomically: true, encoding: .utf8)
    }
    let sorted = best.sorted()
    func pct(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] }
    print(
      "\(requests.count) requests over \(searched.count) index(es): CPU per request p50 \(Int(pct(0.5))) µs, p90 \(Int(pct(0.9))) µs, p99 \(Int(pct(0.99))) µs, max \(Int(sorted.last ?? 0)) µs"
    )
    // The scale bench's kinds of request: keystrokes of a target, short multi-word prefixes,
    // one letter with an origin.
    let kinds: [(String, (BenchRequest) -> Bool)] = [
      ("keystroke", { $0.target >= 0 }),
      ("multi-word", { $0.target < 0 && $0.length > 1 }),
      ("letter+origin", { $0.target < 0 && $0.length == 1 }),
    ]
    for (name, isKind) in kinds {
      let times = best.indices.filter { isKind(requests[$0]) }.map { best[$0] }.sorted()
      guard !times.isEmpty else { continue }
      func at(_ q: Double) -> Int { Int(times[min(times.count - 1, Int(q * Double(times.count)))]) }
      print("  \(name) (\(times.count)): p50 \(at(0.5)) µs, p90 \(at(0.9)) µs, p99 \(at(0.99)) µs")
    }
    for i in best.indices.sorted(by: { best[$0] > best[$1] }).prefix(12) {
      let r = requests[i]
      print("  \(Int(best[i])) µs  \"\(r.query)\"\(r.origin == nil ? "" : " with origin")")
    }
    // For a profiler: the slowest requests alone, 50 times each, so that a profile of the run
    // shows where they spend their time rather than the mix's.
    let slowest = best.indices.sorted(by: { best[$0] > best[$1] }).prefix(repeatSlowest)
    for _ in 0..<(repeatSlowest > 0 ? 50 : 0) {
      for i in slowest {
        let r = requests[i]
        _ = try? client.autocompleteSuggestions(
          for: AutocompleteRequest(query: r.query, filter: AutocompleteFilter(origin: r.origin)))
      }
    }
  }
}

/// The calling thread's CPU time, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// One request of a saved mix: target, length, latitude, longitude (or "-"), then the query
/// (which may hold tabs no more than it holds new lines: the last field takes the rest).
enum MixLine {
  static func format(_ r: BenchRequest) -> String {
    let at = r.origin.map { "\($0.latitude)\t\($0.longitude)" } ?? "-\t-"
    return "\(r.target)\t\(r.length)\t\(at)\t\(r.query)"
  }

  static func parse(_ line: String) throws -> BenchRequest {
    let f = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
    guard f.count == 5, let target = Int(f[0]), let length = Int(f[1]) else {
      throw HarnessError(
        "a saved mix line is not target, length, latitude, longitude, query: \(line)")
    }
    var origin: Coordinate? = nil
    if f[2] != "-" {
      guard let lat = Double(f[2]), let lng = Double(f[3]) else {
        throw HarnessError("a saved mix line has no coordinate: \(line)")
      }
      origin = Coordinate(latitude: lat, longitude: lng)
    }
    return BenchRequest(target: target, length: length, query: String(f[4]), origin: origin)
  }
}
