import Foundation
import PlaceIndex

/// One input size of the growth run.
struct ScalePoint: Codable, Sendable {
  var factor: Int
  var xmlBytes: Int
  var places: Int
  var build: ProcessRun
  var indexBytes: Int
  var peerBytes: Int
  var peerBuildSeconds: Double
  var requests: Int
  var ours: LatencyFigures
  var peer: LatencyFigures
  /// Opening the index in a fresh child process, the fastest of 7 (absent in older results).
  var open: OpenProbe?
  /// The build's memory sampled from /proc (absent in older results).
  var sampled: SampledRun?
  /// `xmllint --stream --noout` over the same XML (absent in older results).
  var xmllint: ProcessRun?
  /// Whether the tiles were streamed into the build through a pipe (else a temporary file).
  var streamed: Bool?
  /// The build's own report: elements, tokens, per-stage time, CPU and memory (absent in
  /// older results).
  var report: BuildReportFigures?
  /// The latency of each kind of request of the mix, single index (absent in older results).
  var oursByKind: [KindFigures]?
  /// The same data as 5 and 20 shard indexes loaded together (absent in older results and
  /// where the factor has fewer copies than shards).
  var shards: [ShardPoint]?
  /// At 1×: whether the index built from the tiler's pipe equals, byte for byte, the one built
  /// from the extract's file (nil where not checked).
  var pipeMatchesFile: Bool?
  /// The peer's timed passes (absent in older results: 3 after a warm-up).
  var peerPasses: Int?
}

struct ScaleResults: Codable, Sendable {
  var generated: String
  var extract: String
  var seed: UInt64
  var targetsPerCategory: Int
  var machine: MachineInfo
  var points: [ScalePoint]
  var plot: String
  /// The shard counts tried beside the single index (absent in older results).
  var shardCounts: [Int]?
  /// How the run was made, when not in one go (`--note`).
  var note: String?
}

/// What `scale` does; the shared fields read as its own (`o.work` is `o.setup.work`).
@dynamicMemberLookup
struct ScaleOptions {
  var setup: BenchSetup
  var extract: String
  var factors: [Int]
  var keep: Bool
  /// Shard counts to build beside the single index (each at the factors with that many copies).
  var shardCounts: [Int] = [5, 20]
  /// The largest factor at which shards are built (all when nil).
  var shardsUpTo: Int? = nil
  /// Take the points of these factors from a previous run's scale.json in `out` (same
  /// extract, seed and targets) instead of measuring them again.
  var reuse = false
  /// The largest factor at which xmllint runs and the peer is built and asked (all when nil):
  /// the build table then gives xmllint's CPU scaled by the XML bytes from the largest factor
  /// that ran it, marked "≈".
  var lintUpTo: Int? = nil
  var peerUpTo: Int? = nil
  /// Printed under the title of scale.md (e.g. which runs the reused factors came from).
  var note: String? = nil

  subscript<T>(dynamicMember field: KeyPath<BenchSetup, T>) -> T { setup[keyPath: field] }
}

/// `make bench-scale`: how build time, peak memory, index size and query p99 grow with input.
enum Scale {
  /// Whether `placeidx build -` reads the extract from standard input: the tiles are then
  /// piped into the build (and into xmllint) instead of going through a temporary file. The
  /// run checks it at 1× (the piped index must equal the one built from the extract's file).
  static let buildReadsStdin = true

  /// Builds `copies` of the tiling (all when nil) into `index` with `placeidx build`, through
  /// a pipe or a temporary file; returns the run, its report and the XML bytes.
  static func build(
    _ template: Tiler.Template, factor: Int, copies: Range<Int>? = nil, index: String,
    _ o: ScaleOptions, data: String
  ) throws -> (SampledRun, BuildReportFigures, Int) {
    let reportPath = index + ".report.txt"
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    var xmlBytes = 0
    let run: SampledRun
    let flags = ["-o", index, "--quiet", "--report", "--data", data]
    if buildReadsStdin {
      run = try Child.sampled(o.placeidx, ["build", "-"] + flags, stdout: reportPath) {
        xmlBytes = try Tiler.tile(template: template, factor: factor, copies: copies, to: $0)
      }
    } else {
      let xml = index + ".osm"
      _ = FileManager.default.createFile(atPath: xml, contents: nil)
      guard let h = FileHandle(forWritingAtPath: xml) else {
        throw HarnessError("cannot write \(xml)")
      }
      xmlBytes = try Tiler.tile(template: template, factor: factor, copies: copies, to: h)
      try h.close()
      defer { try? FileManager.default.removeItem(atPath: xml) }
      run = try Child.sampled(o.placeidx, ["build", xml] + flags, stdout: reportPath)
    }
    let text = (try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? ""
    return (run, try BuildReportFigures(report: text), xmlBytes)
  }

  static func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  static func run(_ o: ScaleOptions) throws {
    let progress = Progress()
    var machine = MachineInfo.current()
    let fm = FileManager.default
    try fm.createDirectory(atPath: o.work, withIntermediateDirectories: true)
    try fm.createDirectory(atPath: o.out, withIntermediateDirectories: true)
    let h = HarnessOptions(
      setup: o.setup, extracts: "", quick: false, buildRuns: 1, probeRuns: 7, passes: 1)
    try fm.createDirectory(
      atPath: (o.work as NSString).appendingPathComponent("xml"), withIntermediateDirectories: true)
    let (base, _) = try Harness.uncompressed(o.extract, h)
    progress.say("reading \((base as NSString).lastPathComponent) into the tiler's template")
    let template = try Tiler.template(base)
    var points: [ScalePoint] = []
    var previous: [Int: ScalePoint] = [:]
    let previousPath = (o.out as NSString).appendingPathComponent("scale.json")
    if o.reuse, let data = fm.contents(atPath: previousPath),
      let old = try? JSONDecoder().decode(ScaleResults.self, from: data),
      old.extract == (o.extract as NSString).lastPathComponent, old.seed == o.seed,
      old.targetsPerCategory == o.perCategory
    {
      for p in old.points where p.report != nil { previous[p.factor] = p }
      machine.loadAtStart = old.machine.loadAtStart
      machine.loadAtEnd = old.machine.loadAtEnd
    }
    for factor in o.factors {
      if let p = previous[factor] {
        progress.say("\(factor)×: taken from the previous run's \(previousPath)")
        points.append(p)
        continue
      }
      let index = (o.work as NSString).appendingPathComponent("scale-\(factor)x.placeidx")
      var lint: ProcessRun? = nil
      if factor <= (o.lintUpTo ?? factor) {
        progress.say("\(factor)×: tiling into xmllint --stream")
        lint = try Child.sampled("/usr/bin/xmllint", ["--stream", "--noout", "-"]) {
          _ = try Tiler.tile(template: template, factor: factor, to: $0)
        }.run
      }
      progress.say(
        "\(factor)×: tiling into placeidx build \(buildReadsStdin ? "- (a pipe)" : "(a file)")")
      let (sampled, report, xmlBytes) = try Scale.build(
        template, factor: factor, index: index, o, data: h.data)
      let build = sampled.run
      progress.say(
        "\(factor)×: \(Report.mb(xmlBytes)) of XML; build \(Report.sec(build.wall)) wall, \(Report.sec(build.cpu)) CPU, peak RSS \(Report.kib(build.peakRSSKiB)), anonymous \(Report.kib(sampled.peakAnonKiB)); xmllint \(lint.map { Report.sec($0.cpu) } ?? "not run") CPU; stages "
          + report.stages.map { "\($0.name) \(String(format: "%.2f", $0.cpuSeconds)) s" }.joined(
            separator: ", "))
      var pipeMatchesFile: Bool? = nil
      if factor == 1 && buildReadsStdin {
        // The same extract from its file, under the name "-" (the header records the source's
        // name): the piped build must give the same bytes.
        let dir = (o.work as NSString).appendingPathComponent("pipe-check")
        try? fm.removeItem(atPath: dir)
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let link = (dir as NSString).appendingPathComponent("-")
        try fm.createSymbolicLink(atPath: link, withDestinationPath: base)
        let fromFile = (dir as NSString).appendingPathComponent("file.placeidx")
        _ = try Child.timed(
          o.placeidx, ["build", link, "-o", fromFile, "--quiet", "--data", h.data])
        pipeMatchesFile = fm.contents(atPath: fromFile) == fm.contents(atPath: index)
        progress.say(
          "1×: the piped build \(pipeMatchesFile == true ? "equals" : "DIFFERS FROM") the build from the file"
        )
        try? fm.removeItem(atPath: dir)
      }

      progress.say("\(factor)×: open ×\(h.probeRuns)")
      let open = try Harness.probe("ours", index, h)
      let loaded = try LoadedIndex(path: index)
      let corpus = try Corpus(index: loaded)
      let peerPath = (o.work as NSString).appendingPathComponent("scale-\(factor)x.sqlite")
      let withPeer = factor <= (o.peerUpTo ?? factor)
      progress.say("\(factor)×: \(corpus.count) places\(withPeer ? "; peer database" : "")")
      let peerSeconds = withPeer ? try Peer.build(path: peerPath, corpus: corpus) : 0
      let targets = TargetSampler.sample(corpus, perCategory: o.perCategory, seed: o.seed)
      let (requests, kinds) = ScaleMix.requests(
        targets, coordinateOf: { corpus.places[$0].coordinate }, seed: o.seed)
      progress.say(
        "\(factor)×: \(requests.count) requests ("
          + MixKind.allCases.map { k in "\(kinds.filter { $0 == k }.count) \(k.rawValue)" }
          .joined(separator: ", ") + ")")
      let ours = OursSession(
        client: PlacesClient(indexes: [loaded]), rankOfID: corpus.rankOfID)
      _ = QueryRunner.run(requests, sessions: [ours])
      let ours1 = QueryRunner.run(requests, sessions: [ours], passes: 3)
      // The peer's requests take milliseconds and grow with the index: above 10× one pass
      // (its own warm-up) instead of a warm-up and 3, so that 200× ends within the hour.
      let peerPasses = withPeer ? (factor <= 10 ? 3 : 1) : 0
      var peerFigures = LatencyFigures(
        latenciesNs: [], wallSeconds: 0, cpuSeconds: 0, threads: 1, errors: 0)
      if withPeer {
        progress.say(
          "\(factor)×: the peer, \(peerPasses == 1 ? "one pass" : "a warm-up and 3 passes")")
        let peer = try PeerSession(path: peerPath)
        if peerPasses > 1 { _ = QueryRunner.run(requests, sessions: [peer]) }
        peerFigures = QueryRunner.run(requests, sessions: [peer], passes: peerPasses).figures(
          threads: 1)
      }
      let single = ours1.figures(threads: 1)
      progress.say(
        "\(factor)×: single index p50 \(Report.us(single.p50)), p90 \(Report.us(single.p90)), p99 \(Report.us(single.p99))"
      )

      var shardPoints: [ShardPoint] = []
      for n in o.shardCounts where n > 1 && n <= factor && factor <= (o.shardsUpTo ?? factor) {
        var builds: [ShardBuild] = []
        var paths: [String] = []
        for s in 0..<n {
          let copies = ScaleShards.copies(s, of: n, factor: factor)
          let path = (o.work as NSString).appendingPathComponent(
            "scale-\(factor)x-\(n)s-\(s).placeidx")
          let (run, rep, bytes) = try Scale.build(
            template, factor: factor, copies: copies, index: path, o, data: h.data)
          builds.append(
            ShardBuild(
              firstCopy: copies.lowerBound, endCopy: copies.upperBound, xmlBytes: bytes,
              run: run, report: rep, indexBytes: fileSize(path)))
          paths.append(path)
        }
        let shardIndexes = try paths.map { try LoadedIndex(path: $0) }
        let session = OursSession(
          client: PlacesClient(indexes: shardIndexes), rankOfID: corpus.rankOfID,
          marksForeignIDs: true)
        _ = QueryRunner.run(requests, sessions: [session])
        let run = QueryRunner.run(requests, sessions: [session], passes: 3)
        var differing = 0
        var foreign = 0
        var examples: [String] = []
        for i in requests.indices where run.results[i] != ours1.results[i] {
          differing += 1
          if run.results[i].contains(where: { $0 < -1 }) { foreign += 1 }
          if examples.count < 5 {
            let r = requests[i]
            let at = r.origin.map { String(format: " near %.4f,%.4f", $0.latitude, $0.longitude) }
            examples.append(
              "\"\(r.query)\"\(at ?? ""): shards \(run.results[i]), single \(ours1.results[i])")
          }
        }
        let point = ShardPoint(
          shards: n, builds: builds, ours: run.figures(threads: 1),
          byKind: ScaleMix.byKind(run, kinds: kinds), differing: differing,
          differingWithForeignIDs: foreign, examples: examples)
        progress.say(
          "\(factor)×: \(n) shards: builds \(Report.sec(point.buildCPU)) CPU, largest peak RSS \(Report.kib(point.maxPeakRSSKiB)); p50 \(Report.us(point.ours.p50)), p99 \(Report.us(point.ours.p99)); \(differing) of \(requests.count) answers differ (\(foreign) with places the single index lacks); \(point.places) places in the shards, \(corpus.count) in the single index"
        )
        shardPoints.append(point)
        if !o.keep { for p in paths { try? fm.removeItem(atPath: p) } }
      }

      points.append(
        ScalePoint(
          factor: factor, xmlBytes: xmlBytes, places: corpus.count, build: build,
          indexBytes: loaded.info.byteSize,
          peerBytes: fileSize(peerPath), peerBuildSeconds: peerSeconds,
          requests: requests.count, ours: single, peer: peerFigures, open: open,
          sampled: sampled, xmllint: lint, streamed: buildReadsStdin, report: report,
          oursByKind: ScaleMix.byKind(ours1, kinds: kinds), shards: shardPoints,
          pipeMatchesFile: pipeMatchesFile, peerPasses: peerPasses))
      if !o.keep { try? fm.removeItem(atPath: peerPath) }
      // The results so far, so that a run stopped at a large factor keeps the smaller ones.
      machine.loadAtEnd = MachineInfo.loadAverage()
      try write(points, machine: machine, o, progress: progress)
    }
    if base != o.extract { try? fm.removeItem(atPath: base) }
    // Every factor reused: write the report from them (with this run's note).
    if !points.isEmpty && points.allSatisfy({ previous[$0.factor] != nil }) {
      try write(points, machine: machine, o, progress: progress)
    }
    print(buildTable(points))
    print(stageTable(points))
    print(queryTable(points))
    print(shardTable(points))
  }

  static func write(
    _ points: [ScalePoint], machine: MachineInfo, _ o: ScaleOptions, progress: Progress
  ) throws {

    let svg = (o.out as NSString).appendingPathComponent("scale.svg")
    let plotter = try plot(points, work: o.work, svg: svg)
    let results = ScaleResults(
      generated: ISO8601DateFormatter().string(from: Date()),
      extract: (o.extract as NSString).lastPathComponent, seed: o.seed,
      targetsPerCategory: o.perCategory, machine: machine, points: points, plot: plotter,
      shardCounts: o.shardCounts, note: o.note)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(
      to: URL(fileURLWithPath: (o.out as NSString).appendingPathComponent("scale.json")))
    let md = (o.out as NSString).appendingPathComponent("scale.md")
    try markdown(results).write(toFile: md, atomically: true, encoding: .utf8)
    progress.say("wrote \(md), scale.json and scale.svg (\(plotter))")
  }

  /// The build figures the memory and time targets of issue 19 are about.
  static func buildTable(_ points: [ScalePoint]) -> String {
    guard let b = points.first else { return "" }
    let perCopy10 = points.first { $0.factor == 10 }.map { $0.build.cpu / 10 }
    return Report.table(
      [
        "input", "XML", "places", "build wall", "build CPU", "CPU per copy", "xmllint CPU",
        "CPU / xmllint", "peak RSS", "peak anon RSS", "index", "B/place",
      ],
      points.map { p in
        let perCopy = p.build.cpu / Double(p.factor)
        let rel = perCopy10.map { String(format: " (%.2f× 10×)", perCopy / $0) } ?? ""
        var lint = p.xmllint?.cpu ?? 0
        var lintText = p.xmllint.map { Report.sec($0.cpu) } ?? "–"
        if p.xmllint == nil,
          let q = points.last(where: { $0.xmllint != nil && $0.factor < p.factor }),
          let qLint = q.xmllint
        {
          lint = qLint.cpu * Double(p.xmlBytes) / Double(max(1, q.xmlBytes))
          lintText = "≈ " + Report.sec(lint) + " (from \(q.factor)×)"
        }
        return [
          "\(p.factor)×", Report.mb(p.xmlBytes), "\(p.places)", Report.sec(p.build.wall),
          Report.sec(p.build.cpu), String(format: "%.3f s", perCopy) + rel, lintText,
          lint > 0 ? String(format: "%.2f×", p.build.cpu / lint) : "–",
          Report.kib(p.build.peakRSSKiB), p.sampled.map { Report.kib($0.peakAnonKiB) } ?? "–",
          Report.bytes(p.indexBytes),
          String(format: "%.1f", Double(p.indexBytes) / Double(max(1, p.places))),
        ]
      })
      + "\nRelative to 1×: XML \(points.map { String(format: "%.1f×", Double($0.xmlBytes) / Double(max(1, b.xmlBytes))) }.joined(separator: ", ")).\n"
  }

  /// CPU seconds of each build stage, with the anonymous memory at its end.
  static func stageTable(_ points: [ScalePoint]) -> String {
    var names: [String] = []
    for p in points {
      for s in p.report?.stages ?? [] where !names.contains(s.name) { names.append(s.name) }
    }
    guard !names.isEmpty else { return "" }
    return Report.table(
      ["input", "nodes", "ways", "tokens"] + names.map { "\($0) CPU (anon at end)" }
        + ["after read B/place", "later stages CPU per copy"],
      points.map { p in
        let stages = p.report?.stages ?? []
        let later = stages.dropFirst().reduce(0) { $0 + $1.cpuSeconds }
        var row = ["\(p.factor)×"]
        if let r = p.report {
          row += ["\(r.nodes)", "\(r.ways)", "\(r.tokens)"]
        } else {
          row += ["–", "–", "–"]
        }
        for n in names {
          if let s = stages.first(where: { $0.name == n }) {
            row.append(String(format: "%.2f s (%d MiB)", s.cpuSeconds, s.rssAnonMiB))
          } else {
            row.append("–")
          }
        }
        let afterRead = Double(p.report?.afterReadMiB ?? 0) * 1_048_576 / Double(max(1, p.places))
        row.append(p.report == nil ? "–" : String(format: "%.0f", afterRead))
        row.append(String(format: "%.3f s", later / Double(p.factor)))
        return row
      })
  }

  /// Latency over the mix and per kind of request, single index, with the open time.
  static func queryTable(_ points: [ScalePoint]) -> String {
    guard let b = points.first else { return "" }
    let kinds = MixKind.allCases.map(\.rawValue)
    return Report.table(
      ["input", "requests", "open", "p50", "p90", "p99", "p99 / p99 at 1×"]
        + kinds.map { "\($0) p50 / p99" },
      points.map { p in
        [
          "\(p.factor)×", "\(p.requests)",
          p.open.map { String(format: "%.2f ms", $0.openMs) } ?? "–", Report.us(p.ours.p50),
          Report.us(p.ours.p90), Report.us(p.ours.p99),
          b.ours.p99 > 0 ? String(format: "%.2f×", p.ours.p99 / b.ours.p99) : "–",
        ]
          + kinds.map { k in
            (p.oursByKind ?? []).first { $0.kind == k }.map {
              "\(Report.us($0.p50)) / \(Report.us($0.p99)) (\($0.requests))"
            } ?? "–"
          }
      })
  }

  /// The same data as 1, 5 and 20 shards: latency, answers that differ, the shards' builds.
  static func shardTable(_ points: [ScalePoint]) -> String {
    var rows: [[String]] = []
    for p in points {
      rows.append([
        "\(p.factor)×", "1", Report.us(p.ours.p50), Report.us(p.ours.p90), Report.us(p.ours.p99),
        "1.00×", "–", "\(p.places)", Report.sec(p.build.cpu), Report.sec(p.build.wall),
        Report.kib(p.build.peakRSSKiB), p.sampled.map { Report.kib($0.peakAnonKiB) } ?? "–",
        Report.bytes(p.indexBytes),
      ])
      for s in p.shards ?? [] {
        rows.append([
          "\(p.factor)×", "\(s.shards)", Report.us(s.ours.p50), Report.us(s.ours.p90),
          Report.us(s.ours.p99),
          p.ours.p99 > 0 ? String(format: "%.2f×", s.ours.p99 / p.ours.p99) : "–",
          "\(s.differing) of \(s.ours.requests)"
            + (s.differingWithForeignIDs.map { " (\($0))" } ?? ""), "\(s.places)",
          Report.sec(s.buildCPU),
          Report.sec(s.maxWall), Report.kib(s.maxPeakRSSKiB), Report.kib(s.maxPeakAnonKiB),
          Report.bytes(s.indexBytes),
        ])
      }
    }
    return Report.table(
      [
        "input", "shards", "p50", "p90", "p99", "p99 / single",
        "answers differing (with places the single index lacks)", "places",
        "build CPU (all shards)", "build wall (largest shard)", "peak RSS (largest shard)",
        "peak anon (largest shard)", "index bytes (all shards)",
      ], rows)
  }

  static func table(_ points: [ScalePoint]) -> String {
    guard let b = points.first else { return "" }
    func g(_ v: Double, _ base: Double) -> String {
      base > 0 ? String(format: "%.1f×", v / base) : "–"
    }
    return Report.table(
      [
        "input", "XML", "places", "build wall", "build CPU", "peak RSS", "index", "peer DB",
        "open ours", "p99 ours", "p99 peer", "p50 ours", "p50 peer",
      ],
      points.map { p in
        [
          "\(p.factor)×", "\(Report.mb(p.xmlBytes)) (\(g(Double(p.xmlBytes), Double(b.xmlBytes))))",
          "\(p.places) (\(g(Double(p.places), Double(b.places))))",
          "\(Report.sec(p.build.wall)) (\(g(p.build.wall, b.build.wall)))",
          "\(Report.sec(p.build.cpu)) (\(g(p.build.cpu, b.build.cpu)))",
          "\(Report.kib(p.build.peakRSSKiB)) (\(g(Double(p.build.peakRSSKiB), Double(b.build.peakRSSKiB))))",
          "\(Report.bytes(p.indexBytes)) (\(g(Double(p.indexBytes), Double(b.indexBytes))))",
          p.peerPasses == 0
            ? "–" : "\(Report.bytes(p.peerBytes)) (\(g(Double(p.peerBytes), Double(b.peerBytes))))",
          p.open.map { o in
            String(format: "%.2f ms", o.openMs)
              + (o.uncheckedOpenMs.map { String(format: " (unchecked %.2f)", $0) } ?? "")
          } ?? "–",
          "\(Report.us(p.ours.p99)) (\(g(p.ours.p99, b.ours.p99)))",
          p.peerPasses == 0 ? "–" : "\(Report.us(p.peer.p99)) (\(g(p.peer.p99, b.peer.p99)))",
          "\(Report.us(p.ours.p50)) (\(g(p.ours.p50, b.ours.p50)))",
          p.peerPasses == 0 ? "–" : "\(Report.us(p.peer.p50)) (\(g(p.peer.p50, b.peer.p50)))",
        ]
      })
  }

  static func markdown(_ r: ScaleResults) -> String {
    let m = r.machine
    let examples = r.points.flatMap { p in
      (p.shards ?? []).flatMap { s in s.examples.map { "- \(p.factor)×, \(s.shards) shards: \($0)" }
      }
    }
    let pipe = r.points.compactMap(\.pipeMatchesFile).first
    return """
      # Growth with input size

      Written by `make bench-scale` (`placeidx-bench scale`) on \(r.generated); do not edit by \
      hand. \(r.extract) tiled by the synthetic-scale generator (copies on a grid of 2° of \
      latitude by 3° of longitude, ids copy × 10^10 + id, all nodes then ways then relations, \
      three copies in four with other proper names: common words such as street types and \
      category words stay, so the token dictionary grows as a real region's does); each size \
      built once with `placeidx build --report` under `/usr/bin/time`, the tiles \
      \(r.points.first?.streamed == true ? "piped into `placeidx build -` (and into `xmllint --stream --noout -`): nothing is written to disk" : "written to a temporary file, then built")\
      \(pipe.map { $0 ? "; at 1× the piped build is byte-identical to the build from the extract's file" : "; at 1× the piped build DIFFERS from the build from the extract's file" } ?? "").

      \(r.note.map { "**Note:** \($0)\n\n" } ?? "")**The machine is shared** (2 cores, other sessions building Swift at the same time): \
      wall times and latencies are noisy, CPU times less so. Load average at start \
      \(m.loadAtStart), at end \(m.loadAtEnd).

      **Machine:** \(m.cpu), \(m.cores) cores, \(m.memoryGiB) GiB; \(m.swift); SQLite \(m.sqlite).

      **Requests:** every keystroke prefix of \(r.targetsPerCategory) targets per category drawn \
      with seed \(r.seed) from each index (half with an origin near the target), plus per \
      target with two or more words a short multi-word prefix of two words and, with three or \
      more, one of three words, each word cut to one or two letters ("E B Ha", "Co Li"), plus \
      per target its first letter with an origin near it; one thread, in process, after a \
      warm-up pass, each request's fastest of 3 passes (the peer, above 10×: one pass, its \
      requests taking milliseconds; "–" where the peer was not run, to save time). "open": opening the index in a fresh \
      child process (checksums checked), the fastest of 7.

      ## Build

      Peak RSS from `/usr/bin/time` (the kernel's high-water mark, mapped files included); peak \
      anonymous RSS (heap and stacks) sampled from `/proc/PID/status` every 20 ms. CPU per \
      copy: build CPU over the factor, relative to 10× (linearity). CPU / xmllint: build CPU \
      over `xmllint --stream` CPU on the same bytes.

      """ + "\n" + buildTable(r.points)
        + """

        ### Stages

        From the build's own report (`placeidx build --report`): CPU seconds of each stage and \
        the anonymous memory at its end. "after read B/place": the largest anonymous memory at \
        the end of a stage after reading, per place (the peak inside a stage can be higher).

        """ + "\n" + stageTable(r.points)
          + """

          ## Queries

          PlaceIndex, single index, over the whole mix and per kind of request (count in \
          parentheses).

          """ + "\n" + queryTable(r.points)
          + """

          ## Shards

          The same tiled data split into 5 and 20 shard indexes (consecutive runs of the tiler's \
          copies, nearest copies together; only at factors with at least as many copies as \
          shards), each built with `placeidx build -` from its own tiles, loaded together with \
          `PlacesClient(indexes:)` and asked the same mix. "answers differing": requests whose \
          top 5 (place IDs in order) differ from the single index's; in parentheses, those whose \
          shard answer holds a place the single index does not have (the indexes hold different \
          data, not only a different ranking: the builder merges streets of the same name and \
          locality name into one route however far apart, and copies 0, 4, 8, … keep the \
          extract's names, so the single index merges streets across copies that the shards \
          keep apart). The copies of this extract \
          overlap in space (it spans Alabama to Liechtenstein, the grid steps are 3°), so every \
          shard's bounds cover most of the others': a harder case for skipping shards than \
          regions of a country.

          """ + "\n" + shardTable(r.points)
        + (examples.isEmpty
          ? ""
          : "\nDiffering answers, the first few:\n\n" + examples.joined(separator: "\n") + "\n")
        + "\n## Growth\n\nIn parentheses: growth relative to 1×; the peer is the SQLite FTS5 + R*Tree database built from the same places, asked the same mix.\n\n"
        + table(r.points)
        + (r.points.count > 1
          ? "\n![growth relative to 1×, log-log](scale.svg)\n\nPlot: \(r.plot).\n" : "")
  }

  /// Writes the plot with gnuplot when it is installed, else with the harness's own SVG writer.
  static func plot(_ points: [ScalePoint], work: String, svg: String) throws -> String {
    guard let b = points.first, points.count > 1 else { return "none (one point)" }
    let series: [(String, (ScalePoint) -> Double)] = [
      ("build wall time", { $0.build.wall }),
      ("build peak RSS", { Double($0.build.peakRSSKiB) }),
      ("index bytes", { Double($0.indexBytes) }),
      ("query p99 (PlaceIndex)", { $0.ours.p99 }),
      ("query p99 (SQLite peer)", { $0.peer.p99 }),
      ("input XML bytes (linear)", { Double($0.xmlBytes) }),
    ]
    let x: (ScalePoint) -> Double = { Double($0.xmlBytes) / 1e6 }
    var dat = "# xml_mb " + series.map { "\"\($0.0)\"" }.joined(separator: " ") + "\n"
    for p in points {
      dat += String(format: "%.3f", x(p))
      for (_, f) in series {
        let base = f(b)
        dat += String(format: " %.4f", base > 0 ? f(p) / base : 0)
      }
      dat += "\n"
    }
    let datPath = (work as NSString).appendingPathComponent("scale.dat")
    try dat.write(toFile: datPath, atomically: true, encoding: .utf8)
    let gnuplot = ["/usr/bin/gnuplot", "/usr/local/bin/gnuplot"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    if let gnuplot {
      var script = """
        set terminal svg size 820,520 font "sans,12" background "white"
        set output '\(svg)'
        set logscale xy
        set grid
        set key left top
        set xlabel 'input XML (MB)'
        set ylabel 'growth relative to the smallest input'
        set title 'Growth with input size (\(points.map { "\($0.factor)×" }.joined(separator: ", ")))'
        plot 
        """
      script += series.indices.map { i in
        let style = i == series.count - 1 ? "lines dashtype 2 lc rgb 'gray'" : "linespoints lw 2"
        return "'\(datPath)' using 1:\(i + 2) with \(style) title '\(series[i].0)'"
      }.joined(separator: ", ")
      script += "\n"
      let gp = (work as NSString).appendingPathComponent("scale.gp")
      try script.write(toFile: gp, atomically: true, encoding: .utf8)
      if try Child.run(gnuplot, [gp]) == 0 { return "gnuplot (\(gp))" }
    }
    try ownSVG(points, series: series, x: x).write(toFile: svg, atomically: true, encoding: .utf8)
    return "the harness's own SVG writer (gnuplot not installed)"
  }

  /// A log-log line chart, for machines without gnuplot.
  static func ownSVG(
    _ points: [ScalePoint], series: [(String, (ScalePoint) -> Double)], x: (ScalePoint) -> Double
  ) -> String {
    let w = 820.0
    let h = 520.0
    let left = 70.0
    let right = 250.0
    let top = 40.0
    let bottom = 60.0
    let b = points[0]
    let xs = points.map { log10(x($0)) }
    let ys = series.flatMap { s in points.map { log10(max(1e-6, s.1($0) / max(1e-12, s.1(b)))) } }
    let (x0, x1) = (xs.min() ?? 0, max((xs.max() ?? 1), (xs.min() ?? 0) + 1e-6))
    let (y0, y1) = (min(0, ys.min() ?? 0), max(ys.max() ?? 1, 1e-6))
    func px(_ v: Double) -> Double { left + (v - x0) / (x1 - x0) * (w - left - right) }
    func py(_ v: Double) -> Double { h - bottom - (v - y0) / (y1 - y0) * (h - top - bottom) }
    let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#888888"]
    var s = "<svg xmlns='http://www.w3.org/2000/svg' width='\(Int(w))' height='\(Int(h))' "
    s +=
      "font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n"
    s +=
      "<text x='\(Int(left))' y='24' font-size='14'>Growth with input size (log-log, relative to 1×)</text>\n"
    s += "<line x1='\(px(x0))' y1='\(py(y0))' x2='\(px(x1))' y2='\(py(y0))' stroke='black'/>\n"
    s += "<line x1='\(px(x0))' y1='\(py(y0))' x2='\(px(x0))' y2='\(py(y1))' stroke='black'/>\n"
    for p in points {
      let v = log10(x(p))
      s += "<text x='\(px(v))' y='\(h - bottom + 18)' text-anchor='middle'>"
      s += String(format: "%.0f MB", x(p)) + "</text>\n"
    }
    var e = floor(y0)
    while e <= y1 {
      s += "<text x='\(left - 8)' y='\(py(e) + 4)' text-anchor='end'>"
      s += String(format: "%g×", pow(10, e)) + "</text>\n"
      s += "<line x1='\(px(x0))' y1='\(py(e))' x2='\(px(x1))' y2='\(py(e))' stroke='#ddd'/>\n"
      e += 1
    }
    s += "<text x='\((left + w - right) / 2)' y='\(h - 16)' text-anchor='middle'>input XML</text>\n"
    for (i, (name, f)) in series.enumerated() {
      let c = colors[i % colors.count]
      let pts = points.map { p in
        "\(px(log10(x(p)))),\(py(log10(max(1e-6, f(p) / max(1e-12, f(b))))))"
      }
      let dash = i == series.count - 1 ? " stroke-dasharray='6,4'" : ""
      s += "<polyline fill='none' stroke='\(c)' stroke-width='2'\(dash) points='"
      s += pts.joined(separator: " ") + "'/>\n"
      let ly = top + 20 + Double(i) * 20
      s += "<line x1='\(w - right + 15)' y1='\(ly - 4)' x2='\(w - right + 40)' y2='\(ly - 4)' "
      s += "stroke='\(c)' stroke-width='2'\(dash)/>\n"
      s += "<text x='\(w - right + 46)' y='\(ly)'>\(name)</text>\n"
    }
    return s + "</svg>\n"
  }
}
