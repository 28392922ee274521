import Foundation

#if canImport(Glibc)
  import Glibc
#endif

let usage = """
  placeidx-bench: PlaceIndex beside an SQLite FTS5 + R*Tree peer and a Photon-style Tantivy peer
  (see Benchmarks/README.md).

  USAGE
    placeidx-bench run [--quick] [--root DIR] [--extracts DIR] [--placeidx BIN] [--work DIR]
                       [--out DIR] [--seed N] [--targets N] [--runs N] [--passes N]
                       [--only NAME,…] [--no-tantivy]
    placeidx-bench scale [--extract FILE] [--factors 1,10,50,200] [--root DIR] [--placeidx BIN]
                         [--work DIR] [--out DIR] [--seed N] [--targets N] [--keep]
                         [--shards 5,20] [--shards-up-to FACTOR] [--reuse]
                         [--xmllint-up-to FACTOR] [--peer-up-to FACTOR] [--note TEXT]
    placeidx-bench replay [--extracts DIR] [--only NAME,…] [--half tuning|held-out|both]
                          [--baseline RESULTS.json] [--diff N] [--behind N] [--work DIR] [--seed N]
                          [--targets N]      (run's quality part alone, PlaceIndex only)
    placeidx-bench tile EXTRACT.osm FACTOR OUT.osm [--copies A,B]   (OUT - : standard output)
    placeidx-bench probe-queries INDEX [--shards A,B] [--targets N] [--passes N] [--answers F] [--mix F] [--times F]
                          [--repeat-slowest N]  (CPU per request of the scale mix, slowest named;
                                                the slowest N asked 50 times more, for a profiler)
    placeidx-bench probe-open ours|peer PATH    (used by run: one open, as JSON)
    placeidx-bench read-extract PATH            (used by run: the extract reader alone)
    placeidx-bench serve-load --index FILE [--placeidx BIN] [--seconds 20] [--clients 200]
                              [--targets N] [--seed N] [--work DIR]

  run     builds an index and the peer's database for every extract, measures build, size,
          open, query latency and quality, writes results.md and results.json to --out
          (default Benchmarks). --quick: fewer targets, one build run.
  scale   tiles an extract to larger sizes and reports how build time, peak memory, index
          size and query p99 grow (scale.md, scale.json, scale.svg in --out), and how the
          same data answers as --shards shard indexes (at factors up to --shards-up-to).
          --reuse takes the factors already in --out/scale.json from there.
  serve-load  the load section of run alone, on one built index: placeidx serve under wrk
          (loopback), beside the in-process rate; then probes under slowloris and oversized
          headers. Prints the figures as JSON.
  replay  the quality part of run for PlaceIndex alone, beside the outcomes a results.json
          recorded for the same targets (PlaceIndex then, the Tantivy peer): for tuning the
          ranking on one half (--half tuning, the default) and reporting the other.
  tile    the synthetic-scale generator alone: FACTOR copies of an uncompressed extract,
          shifted side by side, with fresh ids.

  --root is the repository (default: the current folder); --placeidx defaults to
  ROOT/.build/release/placeidx (`make build`), the harness being built in Benchmarks/.build.
  """

/// `--name value` options and flags.
struct Options {
  var values: [String: String] = [:]
  var flags: Set<String> = []
  var positional: [String] = []

  init(_ args: [String], flags known: Set<String>) throws {
    var i = 0
    while i < args.count {
      let a = args[i]
      if a.hasPrefix("--") {
        let name = String(a.dropFirst(2))
        if known.contains(name) {
          flags.insert(name)
        } else {
          guard i + 1 < args.count else { throw HarnessError("\(a) needs a value") }
          values[name] = args[i + 1]
          i += 1
        }
      } else {
        positional.append(a)
      }
      i += 1
    }
  }

  func int(_ name: String) throws -> Int? {
    guard let v = values[name] else { return nil }
    guard let n = Int(v), n > 0 else { throw HarnessError("--\(name) needs a positive number") }
    return n
  }
}

func absolute(_ path: String, root: String) -> String {
  path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path)
}

func selfPath() -> String {
  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
}

func main() throws {
  configureSQLite()
  var args = Array(CommandLine.arguments.dropFirst())
  guard let command = args.first else {
    print(usage)
    exit(2)
  }
  args.removeFirst()
  let o = try Options(args, flags: ["quick", "keep", "no-tantivy", "reuse"])
  let root = o.values["root"] ?? FileManager.default.currentDirectoryPath
  let me = selfPath()
  // The harness is built in its own package (Benchmarks/.build), placeidx in the root's .build.
  let placeidx = absolute(o.values["placeidx"] ?? ".build/release/placeidx", root: root)
  let seed = UInt64(o.values["seed"] ?? "") ?? 20_240_601
  /// The options `run` and `scale` share, with their default work folder and targets.
  func setup(work: String, perCategory: Int) throws -> BenchSetup {
    BenchSetup(
      root: root, placeidx: placeidx, bench: me,
      work: absolute(o.values["work"] ?? work, root: root),
      out: absolute(o.values["out"] ?? "Benchmarks", root: root), seed: seed,
      perCategory: try o.int("targets") ?? perCategory)
  }
  switch command {
  case "run":
    let quick = o.flags.contains("quick")
    var h = HarnessOptions(
      setup: try setup(work: "build/bench", perCategory: quick ? 20 : 60),
      extracts: absolute(o.values["extracts"] ?? "../shared/data/osm", root: root), quick: quick,
      buildRuns: try o.int("runs") ?? (quick ? 1 : 3), probeRuns: quick ? 3 : 7,
      passes: try o.int("passes") ?? (quick ? 1 : 3))
    h.tantivy = !o.flags.contains("no-tantivy")
    if let only = o.values["only"] { h.only = only.split(separator: ",").map(String.init) }
    try Harness.run(h)
  case "scale":
    let factors = try (o.values["factors"] ?? "1,10,50,200").split(separator: ",").map {
      guard let n = Int($0), n >= 1 else { throw HarnessError("--factors needs numbers ≥ 1") }
      return n
    }
    try Scale.run(
      ScaleOptions(
        setup: try setup(work: "build/bench/scale", perCategory: 20),
        extract: absolute(
          o.values["extract"] ?? "../shared/data/osm/liechtenstein-autauga-2021.osm.gz", root: root),
        factors: factors, keep: o.flags.contains("keep"),
        shardCounts: try (o.values["shards"] ?? "5,20").split(separator: ",").map {
          guard let n = Int($0), n >= 2 else { throw HarnessError("--shards needs numbers ≥ 2") }
          return n
        }, shardsUpTo: try o.int("shards-up-to"), reuse: o.flags.contains("reuse"),
        lintUpTo: try o.int("xmllint-up-to"), peerUpTo: try o.int("peer-up-to"),
        note: o.values["note"]))
  case "replay":
    let half = o.values["half"] ?? "tuning"
    guard half == "both" || TargetHalf(rawValue: half) != nil else {
      throw HarnessError("--half needs tuning, held-out or both")
    }
    try Replay.run(
      Replay.Options(
        setup: try setup(work: "build/bench/replay", perCategory: 60),
        extracts: absolute(o.values["extracts"] ?? "../shared/data/osm", root: root),
        only: (o.values["only"] ?? "").split(separator: ",").map(String.init),
        half: TargetHalf(rawValue: half),
        baseline: absolute(o.values["baseline"] ?? "Benchmarks/results.json", root: root),
        diff: try o.int("diff") ?? 0, behind: try o.int("behind") ?? 0))
  case "tile":
    guard o.positional.count == 3, let factor = Int(o.positional[1]), factor >= 1 else {
      throw HarnessError("tile EXTRACT.osm FACTOR OUT.osm (OUT '-': standard output)")
    }
    // --copies A,B: only copies A..<B of the tiling (one shard's share, as bench-scale cuts it).
    var copies: Range<Int>? = nil
    if let text = o.values["copies"] {
      let bounds = text.split(separator: ",").compactMap { Int($0) }
      guard bounds.count == 2, bounds[0] >= 0, bounds[0] < bounds[1], bounds[1] <= factor else {
        throw HarnessError("--copies A,B: copies A..<B of the FACTOR, got '\(text)'")
      }
      copies = bounds[0]..<bounds[1]
    }
    if o.positional[2] == "-" {
      // Standard output, for a pipe into `placeidx build -`; the summary goes to stderr.
      let n = try Tiler.tile(
        template: try Tiler.template(o.positional[0]), factor: factor, copies: copies,
        to: FileHandle.standardOutput)
      FileHandle.standardError.write(Data("-: \(n) bytes (\(factor) copies)\n".utf8))
    } else {
      let n = try Tiler.tile(input: o.positional[0], factor: factor, output: o.positional[2])
      print("\(o.positional[2]): \(n) bytes (\(factor) copies)")
    }
  case "read-extract":
    guard o.positional.count == 1 else { throw HarnessError("read-extract PATH") }
    try Harness.readExtract(path: o.positional[0])
  case "serve-load":
    guard let index = o.values["index"] else { throw HarnessError("serve-load needs --index FILE") }
    guard ServeLoad.available else {
      throw HarnessError("serve-load needs wrk (apt-get install wrk)")
    }
    try ServeLoad.standalone(
      placeidx: placeidx, index: absolute(index, root: root),
      work: absolute(o.values["work"] ?? "build/bench", root: root),
      seconds: try o.int("seconds") ?? 20, clients: try o.int("clients") ?? 200,
      perCategory: try o.int("targets") ?? 60, seed: seed)
  case "probe-queries":
    guard o.positional.count == 1 else { throw HarnessError("probe-queries INDEX [--shards A,B]") }
    try ProbeQueries.run(
      index: o.positional[0],
      shards: (o.values["shards"] ?? "").split(separator: ",").map(String.init),
      perCategory: try o.int("targets") ?? 20, seed: seed, passes: try o.int("passes") ?? 3,
      answers: o.values["answers"], repeatSlowest: try o.int("repeat-slowest") ?? 0,
      mixFile: o.values["mix"], timesFile: o.values["times"])
  case "probe-open":
    guard o.positional.count == 2 else { throw HarnessError("probe-open ours|peer PATH") }
    try Harness.probeOpen(system: o.positional[0], path: o.positional[1])
  default:
    FileHandle.standardError.write(Data("unknown command '\(command)'\n\n\(usage)\n".utf8))
    exit(2)
  }
}

do {
  try main()
} catch {
  FileHandle.standardError.write(Data("placeidx-bench: \(error)\n".utf8))
  exit(1)
}
