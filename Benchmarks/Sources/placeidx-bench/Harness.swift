import Foundation
import OSMReader
import PlaceCore
import PlaceIndex

/// What the bench's commands share: where things are, the seed and the targets per category.
struct BenchSetup {
  /// The repository root (Data/ is found there).
  var root: String
  /// The `placeidx` executable.
  var placeidx: String
  /// This executable (for the open probes, run as child processes).
  var bench: String
  /// Scratch folder for indexes, databases and decompressed XML.
  var work: String
  /// Where the results (.md, .json) go.
  var out: String
  var seed: UInt64
  /// Targets drawn per category.
  var perCategory: Int

  var data: String { (root as NSString).appendingPathComponent("Data") }
}

/// Where things are and how much to do (`run`); the shared fields read as its own
/// (`o.work` is `o.setup.work`).
@dynamicMemberLookup
struct HarnessOptions {
  var setup: BenchSetup
  /// The folder of extracts.
  var extracts: String
  var quick: Bool
  var buildRuns: Int
  var probeRuns: Int
  /// Timed passes over the requests (each request keeps its fastest).
  var passes: Int
  /// Only extracts whose file name contains one of these (all when empty).
  var only: [String] = []
  /// Whether to run the Tantivy peer (when its Python and package are installed).
  var tantivy = true

  subscript<T>(dynamicMember field: KeyPath<BenchSetup, T>) -> T { setup[keyPath: field] }
}

/// One target as recorded in results.json, so anyone can check what was asked.
struct TargetRecord: Codable, Sendable {
  var category: String
  var placeID: String
  var text: String
  var origin: [Double]?
  /// Characters typed until the target entered the top 5 (nil: never), per system.
  var oursChars: Int?
  var peerChars: Int?
  /// Position (1...5) at full text (nil: not in the top 5), per system.
  var oursFull: Int?
  var peerFull: Int?
  /// The Tantivy peer's, when it ran.
  var tantivyChars: Int? = nil
  var tantivyFull: Int? = nil
  /// "tuning" or "held-out" (`TargetHalf`).
  var half: String = TargetHalf.tuning.rawValue
  /// The script of the text typed (`Script`); nil in results written before it was kept.
  var script: String? = nil
}

/// The Tantivy peer on one extract (`TantivyPeer.swift`).
struct TantivyFigures: Codable, Sendable {
  /// `tantivy_peer.py build` from the exported corpus (Python start and the corpus read
  /// included).
  var build: ProcessRun
  var indexBytes: Int
  var bytesPerPlace: Double
  /// From starting `tantivy_peer.py serve` to its ready line (Python start, corpus read, index
  /// open), the child's RSS then, and the first query ("a") after it.
  var readyMs: Double
  var rssKiB: Int
  var firstQueryMs: Double
  /// Latencies as for the other systems, each request a pipe round trip to the child.
  var one: LatencyFigures
  /// Two threads, each with a child of its own.
  var two: LatencyFigures
}

struct BuildFigures: Codable, Sendable {
  var runs: Int
  /// `placeidx build` on the extract as shipped (compressed ones include decompression).
  var ours: ProcessRun
  var xmlBytesPerSecond: Double
  /// `xmllint --stream --noout` on the uncompressed XML: libxml2's parse floor.
  var xmllint: ProcessRun
  var xmllintBytesPerSecond: Double
  /// ours.wall / xmllint.wall.
  var wallRatio: Double
  /// Decompressing the extract alone (gzip -dc / bzip2 -dc to a file), when it is compressed.
  var decompress: ProcessRun?
  /// Seconds to build the peer's database from the places enumerated out of the index.
  var peerSeconds: Double
  /// The same data as OSM PBF (made with osmium), when osmium is installed.
  var pbf: PBFFigures? = nil
}

/// The build from a PBF copy of the extract (`osmium cat EXTRACT -o FILE.osm.pbf`), beside
/// osmium's own full read of that file as the floor.
struct PBFFigures: Codable, Sendable {
  var pbfBytes: Int
  /// `placeidx build FILE.osm.pbf`.
  var build: ProcessRun
  /// The reader alone (`placeidx-bench read-extract FILE.osm.pbf`: every element to a handler
  /// that counts them).
  var read: ProcessRun
  /// `osmium cat -f opl FILE.osm.pbf > /dev/null`.
  var osmium: ProcessRun
  /// build.cpu / the XML build's CPU (target at most 0.5).
  var cpuRatio: Double
  /// build.wall / build.cpu (with two cores, target at most 0.7).
  var wallPerCPU: Double
  /// read.wall / osmium.wall (target at most 2).
  var readRatio: Double
}

struct SizeFigures: Codable, Sendable {
  var indexBytes: Int
  var bytesPerPlace: Double
  var sections: [NamedSize]
  var peerBytes: Int
  var peerBytesPerPlace: Double
  var peerParts: [NamedSize]
  /// indexBytes / peerBytes.
  var ratio: Double
}

/// One open, measured in a fresh child process.
struct OpenProbe: Codable, Sendable {
  /// Opening as every reader does by default: header, table and every section's checksum.
  var openMs: Double
  /// Opening with `verification: .skip` (header and table only), measured after the first
  /// query in the same child; nil for the peer and in results written before checksums were
  /// checked on load.
  var uncheckedOpenMs: Double? = nil
  var rssBeforeKiB: Int
  var rssAfterKiB: Int
  /// The first query after opening ("a", the broadest one-letter prefix), in milliseconds.
  var firstQueryMs: Double
}

struct OpenFigures: Codable, Sendable {
  var runs: Int
  var ours: OpenProbe
  var peer: OpenProbe
}

struct QueryFigures: Codable, Sendable {
  var targets: Int
  var requests: Int
  var requestsWithOrigin: Int
  var ours1: LatencyFigures
  var peer1: LatencyFigures
  var ours2: LatencyFigures
  var peer2: LatencyFigures
}

struct ExtractResult: Codable, Sendable {
  var name: String
  var file: String
  var fileBytes: Int
  var xmlBytes: Int
  var places: Int
  var build: BuildFigures
  var size: SizeFigures
  var open: OpenFigures
  var query: QueryFigures
  var quality: [QualityRow]
  /// The same rows over each half of the targets (`TargetHalf`).
  var qualityTuning: [QualityRow] = []
  var qualityHeldOut: [QualityRow] = []
  /// The typo variants per script of the text typed: Latin, non-Latin, then each other
  /// script (`QualityScorer.typoRowsByScript`); empty in results written before.
  var typoByScript: [QualityRow] = []
  var floors: [FloorRow]
  /// The Tantivy peer, when it ran.
  var tantivy: TantivyFigures? = nil
  /// `placeidx serve` under load (full runs with wrk installed; nil otherwise).
  var serve: ServeLoadFigures?
  var targets: [TargetRecord]
}

struct BenchResults: Codable, Sendable {
  var generated: String
  var mode: String
  var seed: UInt64
  var targetsPerCategory: Int
  var buildRuns: Int
  var passes: Int
  var harnessSeconds: Double
  var machine: MachineInfo
  var peer: String
  /// The Tantivy peer's description, when it ran.
  var tantivyPeer: String? = nil
  var extracts: [ExtractResult]
}

enum Harness {
  static let peerDescription =
    "SQLite \(sqliteVersion): FTS5 (unicode61 remove_diacritics 2, prefix='1 2 3', external content) over name / rest of address / locality, R*Tree over positions; words ANDed as prefix terms; ORDER BY bm25/words - \(Peer.importanceWeight)·importance - \(Peer.nearnessWeight)·exp(-d/\(Int(Peer.nearnessScale)) m) within a 30 km R*Tree box of the origin"

  /// The extracts to run: `.osm`, `.osm.gz`, `.osm.bz2` in the folder, by name.
  static func extractFiles(_ o: HarnessOptions) throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: o.extracts)
      .filter { $0.hasSuffix(".osm") || $0.hasSuffix(".osm.gz") || $0.hasSuffix(".osm.bz2") }
      .filter { n in o.only.isEmpty || o.only.contains { n.contains($0) } }
      .sorted()
    return names.map { (o.extracts as NSString).appendingPathComponent($0) }
  }

  static func stem(_ path: String) -> String {
    var n = (path as NSString).lastPathComponent
    for s in [".bz2", ".gz", ".osm"] where n.hasSuffix(s) { n = String(n.dropLast(s.count)) }
    return n
  }

  static let tantivyDescription =
    "Photon-style on Tantivy (Python bindings, `Benchmarks/peers/tantivy_peer.py`): fields for name, alt names, street, postcode, city, house number (folded), per-word edge n-grams, first-letter-keeping fuzzy (1 edit from 4 letters, 2 from 8), whole-name and whole-address exact/prefix fields; every word required (one may be dropped when nothing matches); Nominatim-style prior from the types; top 200 by text plus top 100 within 3 km; score text/best + 1.0·importance + 2.0·2^(-d/2 km); same-name streets within 2 km once"

  static func run(_ o: HarnessOptions) throws {
    let progress = Progress()
    var tantivy: (python: String, version: String)? = nil
    if o.tantivy {
      let found = TantivyPeer.python(root: o.root)
      if let path = found.path {
        tantivy = (path, TantivyPeer.version(python: path))
      } else {
        progress.say("note: no Tantivy peer in this run: \(found.reason)")
      }
    }
    var machine = MachineInfo.current()
    let files = try extractFiles(o)
    guard !files.isEmpty else { throw HarnessError("no extracts in \(o.extracts)") }
    let fm = FileManager.default
    for d in ["indexes", "peer", "xml"] {
      try fm.createDirectory(
        atPath: (o.work as NSString).appendingPathComponent(d), withIntermediateDirectories: true)
    }
    try fm.createDirectory(atPath: o.out, withIntermediateDirectories: true)
    var results: [ExtractResult] = []
    for (i, file) in files.enumerated() {
      progress.say("[\(i + 1)/\(files.count)] \((file as NSString).lastPathComponent)")
      results.append(try runExtract(file, o, progress, tantivyPython: tantivy?.python))
    }
    machine.loadAtEnd = MachineInfo.loadAverage()
    let all = BenchResults(
      generated: ISO8601DateFormatter().string(from: Date()), mode: o.quick ? "quick" : "full",
      seed: o.seed, targetsPerCategory: o.perCategory, buildRuns: o.buildRuns,
      passes: o.passes, harnessSeconds: progress.elapsed, machine: machine, peer: peerDescription,
      tantivyPeer: tantivy.map { "tantivy \($0.version): \(tantivyDescription)" },
      extracts: results)
    let json = (o.out as NSString).appendingPathComponent("results.json")
    let md = (o.out as NSString).appendingPathComponent("results.md")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(all).write(to: URL(fileURLWithPath: json))
    try Report.markdown(all).write(toFile: md, atomically: true, encoding: .utf8)
    progress.say("wrote \(md) and \(json)")
    print(Report.mainTable(all))
  }

  /// The uncompressed XML of `file` (decompressed into the work folder when compressed), and
  /// the decompression run.
  static func uncompressed(_ file: String, _ o: HarnessOptions) throws -> (String, ProcessRun?) {
    guard let h = FileHandle(forReadingAtPath: file) else {
      throw HarnessError("cannot read \(file)")
    }
    let magic = [UInt8](h.readData(ofLength: 3))
    try? h.close()
    let tool: String
    if magic.starts(with: [0x1F, 0x8B]) {
      tool = "gzip"
    } else if magic == Array("BZh".utf8) {
      tool = "bzip2"
    } else {
      return (file, nil)
    }
    let out = (o.work as NSString).appendingPathComponent("xml/\(stem(file)).osm")
    let run = try Child.timed(
      "/bin/sh", ["-c", "exec \(tool) -dc -- \"$0\" > \"$1\"", file, out])
    return (out, run)
  }

  static func runExtract(
    _ file: String, _ o: HarnessOptions, _ progress: Progress, tantivyPython: String? = nil
  ) throws -> ExtractResult {
    let fm = FileManager.default
    let name = stem(file)
    let fileBytes = (try fm.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    let (xml, decompress) = try uncompressed(file, o)
    let xmlBytes = (try fm.attributesOfItem(atPath: xml)[.size] as? Int) ?? 0

    // Build: placeidx on the extract as shipped, xmllint on the same XML uncompressed.
    progress.say("  build ×\(o.buildRuns) and xmllint ×\(o.buildRuns)")
    let index = (o.work as NSString).appendingPathComponent("indexes/\(name).placeidx")
    var ourRuns: [ProcessRun] = []
    var lintRuns: [ProcessRun] = []
    for _ in 0..<o.buildRuns {
      ourRuns.append(
        try Child.timed(o.placeidx, ["build", file, "-o", index, "--quiet", "--data", o.data]))
      lintRuns.append(try Child.timed("/usr/bin/xmllint", ["--stream", "--noout", xml]))
    }
    if xml != file { try? fm.removeItem(atPath: xml) }
    let ours = ProcessRun.median(ourRuns)
    let lint = ProcessRun.median(lintRuns)
    let pbf = try pbfFigures(file, name: name, xmlBuild: ours, o, progress)

    // The places, enumerated through the public API; the peer is built from them.
    let loaded = try LoadedIndex(path: index)
    let corpus = try Corpus(index: loaded)
    progress.say("  \(corpus.count) places; building the peer's database")
    let peerPath = (o.work as NSString).appendingPathComponent("peer/\(name).sqlite")
    let peerSeconds = try Peer.build(path: peerPath, corpus: corpus)

    // The Tantivy peer, from the same places exported as JSON lines.
    var tantivyFiles: (python: String, script: String, corpus: String, index: String)? = nil
    var tantivyBuild: ProcessRun? = nil
    if let python = tantivyPython {
      progress.say("  building the Tantivy peer's index")
      let dir = (o.work as NSString).appendingPathComponent("tantivy")
      try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
      let files = (
        python: python, script: TantivyPeer.script(root: o.root),
        corpus: (dir as NSString).appendingPathComponent("\(name).jsonl"),
        index: (dir as NSString).appendingPathComponent(name)
      )
      try corpus.exportJSONL(path: files.corpus)
      tantivyBuild = try Child.timed(python, [files.script, "build", files.corpus, files.index])
      tantivyFiles = files
    }

    // Size.
    let indexBytes = loaded.info.byteSize
    let peerBytes = (try fm.attributesOfItem(atPath: peerPath)[.size] as? Int) ?? 0
    let sections = loaded.info.sections.map { NamedSize(name: $0.name, bytes: $0.length) }
      .sorted { $0.bytes > $1.bytes }
    let places = max(1, corpus.count)
    let size = SizeFigures(
      indexBytes: indexBytes, bytesPerPlace: Double(indexBytes) / Double(places),
      sections: sections, peerBytes: peerBytes,
      peerBytesPerPlace: Double(peerBytes) / Double(places),
      peerParts: try Peer.parts(path: peerPath),
      ratio: peerBytes > 0 ? Double(indexBytes) / Double(peerBytes) : 0)

    // Open, each in fresh child processes.
    progress.say("  open ×\(o.probeRuns) each")
    let open = OpenFigures(
      runs: o.probeRuns, ours: try probe("ours", index, o), peer: try probe("peer", peerPath, o))

    // Targets and their keystroke sequences.
    let targets = TargetSampler.draw(
      corpus, extract: file, seed: o.seed, perCategory: o.perCategory)
    let requests = TargetSampler.keystrokes(targets)
    progress.say("  \(targets.count) targets, \(requests.count) requests; warm-up")
    let client = PlacesClient(indexes: [loaded])
    let oursSession = OursSession(client: client, rankOfID: corpus.rankOfID)
    let peerSession = try PeerSession(path: peerPath)
    _ = QueryRunner.run(requests, sessions: [oursSession])
    _ = QueryRunner.run(requests, sessions: [peerSession])
    progress.say("  one thread, \(o.passes) passes")
    let ours1 = QueryRunner.run(requests, sessions: [oursSession], passes: o.passes)
    let peer1 = QueryRunner.run(requests, sessions: [peerSession], passes: o.passes)
    progress.say("  two threads, \(o.passes) passes")
    // Two sessions over the same client: one loaded index serves both threads.
    let ours2 = QueryRunner.run(
      requests,
      sessions: [oursSession, OursSession(client: client, rankOfID: corpus.rankOfID)],
      passes: o.passes)
    let peer2 = QueryRunner.run(
      requests, sessions: [peerSession, try PeerSession(path: peerPath)], passes: o.passes)
    var tantivyFigures: TantivyFigures? = nil
    var tantivy1: RunOutcome? = nil
    if let f = tantivyFiles, let build = tantivyBuild {
      progress.say("  Tantivy peer: warm-up, one thread and two threads, \(o.passes) passes")
      let session = try TantivySession(
        python: f.python, script: f.script, corpus: f.corpus, index: f.index)
      let rss = session.residentKiB
      let clock = ContinuousClock()
      let first = clock.now
      _ = session.search("a", origin: nil)
      let firstMs = seconds(clock.now - first) * 1_000
      _ = QueryRunner.run(requests, sessions: [session])
      let one = QueryRunner.run(requests, sessions: [session], passes: o.passes)
      let second = try TantivySession(
        python: f.python, script: f.script, corpus: f.corpus, index: f.index)
      let two = QueryRunner.run(requests, sessions: [session, second], passes: o.passes)
      session.close()
      second.close()
      tantivy1 = one
      let bytes = TantivyPeer.directoryBytes(f.index)
      tantivyFigures = TantivyFigures(
        build: build, indexBytes: bytes, bytesPerPlace: Double(bytes) / Double(places),
        readyMs: session.readyMs, rssKiB: rss, firstQueryMs: firstMs,
        one: one.figures(threads: 1), two: two.figures(threads: 2))
    }
    let query = QueryFigures(
      targets: targets.count, requests: requests.count,
      requestsWithOrigin: requests.filter { $0.origin != nil }.count,
      ours1: ours1.figures(threads: 1), peer1: peer1.figures(threads: 1),
      ours2: ours2.figures(threads: 2), peer2: peer2.figures(threads: 2))

    let oursOutcomes = QualityScorer.outcomes(targets, requests, ours1, corpus: corpus)
    let peerOutcomes = QualityScorer.outcomes(targets, requests, peer1, corpus: corpus)
    let tantivyOutcomes = tantivy1.map {
      QualityScorer.outcomes(targets, requests, $0, corpus: corpus)
    }
    let quality = QualityScorer.rows(
      targets, ours: oursOutcomes, peer: peerOutcomes, tantivy: tantivyOutcomes)
    let halves = TargetHalf.allCases.map { half in
      QualityScorer.rows(
        targets, ours: oursOutcomes, peer: peerOutcomes, tantivy: tantivyOutcomes, half: half)
    }
    let typoByScript = QualityScorer.typoRowsByScript(
      targets, ours: oursOutcomes, peer: peerOutcomes, tantivy: tantivyOutcomes)
    let records = targets.indices.map { i in
      let t = targets[i]
      return TargetRecord(
        category: t.category.rawValue, placeID: corpus.places[t.rank].placeID, text: t.text,
        origin: t.origin.map { [rounded($0.latitude), rounded($0.longitude)] },
        oursChars: oursOutcomes[i].firstTop5, peerChars: peerOutcomes[i].firstTop5,
        oursFull: oursOutcomes[i].fullPosition, peerFull: peerOutcomes[i].fullPosition,
        tantivyChars: tantivyOutcomes?[i].firstTop5, tantivyFull: tantivyOutcomes?[i].fullPosition,
        half: t.half.rawValue, script: t.script.rawValue)
    }
    let floors = FloorRow.rows(
      corpus: corpus, targets: targets, ours: oursOutcomes, peer: peerOutcomes,
      tantivy: tantivyOutcomes)
    var serve: ServeLoadFigures? = nil
    if !o.quick && ServeLoad.available {
      serve = try ServeLoad.run(
        placeidx: o.placeidx, index: index, requests: requests, work: o.work,
        inProcessRequestsPerSecond: ours1.figures(threads: 1).requestsPerSecond,
        inProcessCPUMicrosPerRequest: cpuMicros(ours1.figures(threads: 1)),
        progress: progress)
    }
    return ExtractResult(
      name: name, file: (file as NSString).lastPathComponent, fileBytes: fileBytes,
      xmlBytes: xmlBytes, places: corpus.count,
      build: BuildFigures(
        runs: o.buildRuns, ours: ours, xmlBytesPerSecond: Double(xmlBytes) / max(ours.wall, 1e-3),
        xmllint: lint, xmllintBytesPerSecond: Double(xmlBytes) / max(lint.wall, 1e-3),
        wallRatio: ours.wall / max(lint.wall, 1e-3), decompress: decompress,
        peerSeconds: peerSeconds, pbf: pbf),
      size: size, open: open, query: query, quality: quality, qualityTuning: halves[0],
      qualityHeldOut: halves[1], typoByScript: typoByScript, floors: floors,
      tantivy: tantivyFigures, serve: serve,
      targets: records)
  }

  static func rounded(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

  /// osmium on `PATH`, if installed.
  static let osmium: String? = ["/usr/bin/osmium", "/usr/local/bin/osmium"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Builds from a PBF copy of `file` (made with osmium) and times the reader alone and
  /// osmium's full read of it; nil when osmium is not installed.
  static func pbfFigures(
    _ file: String, name: String, xmlBuild: ProcessRun, _ o: HarnessOptions, _ progress: Progress
  ) throws -> PBFFigures? {
    guard let osmium else {
      progress.say("  osmium is not installed: no PBF row")
      return nil
    }
    let fm = FileManager.default
    let dir = (o.work as NSString).appendingPathComponent("pbf")
    try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let pbf = (dir as NSString).appendingPathComponent("\(name).osm.pbf")
    _ = try Child.timed(osmium, ["cat", file, "-o", pbf, "-O"])
    let index = (dir as NSString).appendingPathComponent("\(name).placeidx")
    progress.say("  PBF: build, read and osmium's read ×\(o.buildRuns)")
    var builds: [ProcessRun] = []
    var reads: [ProcessRun] = []
    var floors: [ProcessRun] = []
    for _ in 0..<o.buildRuns {
      builds.append(
        try Child.timed(o.placeidx, ["build", pbf, "-o", index, "--quiet", "--data", o.data]))
      reads.append(try Child.timed(o.bench, ["read-extract", pbf]))
      floors.append(
        try Child.timed(
          "/bin/sh", ["-c", "exec \"$0\" cat -f opl \"$1\" > /dev/null", osmium, pbf]))
    }
    let build = ProcessRun.median(builds)
    let read = ProcessRun.median(reads)
    let floor = ProcessRun.median(floors)
    let pbfBytes = (try fm.attributesOfItem(atPath: pbf)[.size] as? Int) ?? 0
    try? fm.removeItem(atPath: pbf)
    try? fm.removeItem(atPath: index)
    try? fm.removeItem(atPath: index + ".json")
    return PBFFigures(
      pbfBytes: pbfBytes, build: build, read: read, osmium: floor,
      cpuRatio: build.cpu / max(xmlBuild.cpu, 1e-3), wallPerCPU: build.wall / max(build.cpu, 1e-3),
      readRatio: read.wall / max(floor.wall, 1e-3))
  }

  /// `read-extract PATH`: reads the extract with the pipeline's reader into a handler that only
  /// counts, and prints the counts (the bench's "reader alone" figure).
  static func readExtract(path: String) throws {
    final class Counter: OSMElementHandler {
      var tags = 0
      func handle(node: OSMNode) throws { tags += node.tags.count }
      func handle(way: OSMWay) throws { tags += way.tags.count + way.nodeRefs.count }
      func handle(relation: OSMRelation) throws { tags += relation.tags.count }
    }
    let counter = Counter()
    let stats = try OSMExtractReader(path: path).read(into: counter)
    print(
      "\(stats.nodes) nodes, \(stats.ways) ways, \(stats.relations) relations, \(counter.tags) tags and refs"
    )
  }

  /// Opens `path` in `runs` fresh child processes; the run with the shortest open time (on a
  /// shared machine a child can lose its core for a time slice, which only ever adds time).
  static func probe(_ system: String, _ path: String, _ o: HarnessOptions) throws -> OpenProbe {
    var probes: [OpenProbe] = []
    let tmp = (o.work as NSString).appendingPathComponent("probe.json")
    for _ in 0..<o.probeRuns {
      let status = try Child.run(o.bench, ["probe-open", system, path], stdout: tmp)
      guard status == 0, let data = FileManager.default.contents(atPath: tmp) else {
        throw HarnessError("probe-open \(system) \(path) failed (\(status))")
      }
      probes.append(try JSONDecoder().decode(OpenProbe.self, from: data))
    }
    try? FileManager.default.removeItem(atPath: tmp)
    return probes.min { $0.openMs < $1.openMs }!
  }

  /// The child side of `probe`: opens the index or database, prints an OpenProbe as JSON.
  static func probeOpen(system: String, path: String) throws {
    let clock = ContinuousClock()
    let before = residentKiB()
    let start = clock.now
    let session: any SearchSession
    if system == "ours" {
      let index = try LoadedIndex(path: path)
      session = OursSession(client: PlacesClient(indexes: [index]), rankOfID: [:])
    } else {
      session = try PeerSession(path: path)
    }
    let opened = clock.now
    let after = residentKiB()
    _ = session.search("a", origin: nil)
    let queried = clock.now
    // Ours again with the checksum check opted out, in a mapping of its own, after the rest (so
    // the process is warm: the difference to "open" overstates what the check costs, if
    // anything).
    var unchecked: Double? = nil
    if system == "ours" {
      let skipStart = clock.now
      _ = try LoadedIndex(path: path, verification: .skip)
      unchecked = seconds(clock.now - skipStart) * 1_000
    }
    let probe = OpenProbe(
      openMs: seconds(opened - start) * 1_000, uncheckedOpenMs: unchecked.map(rounded),
      rssBeforeKiB: before, rssAfterKiB: after, firstQueryMs: seconds(queried - opened) * 1_000)
    print(String(decoding: try JSONEncoder().encode(probe), as: UTF8.self))
  }
}
