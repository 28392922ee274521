import Foundation

/// results.md: the figures of one run, PlaceIndex and the SQLite peer side by side.
enum Report {
  static func bytes(_ n: Int) -> String {
    let d = Double(n)
    if d >= 10_000_000 { return String(format: "%.1f MB", d / 1e6) }
    if d >= 10_000 { return String(format: "%.0f kB", d / 1e3) }
    return "\(n) B"
  }

  static func mb(_ n: Int) -> String { String(format: "%.1f MB", Double(n) / 1e6) }
  static func kib(_ n: Int) -> String { String(format: "%.1f MiB", Double(n) / 1024) }
  static func sec(_ s: Double) -> String { String(format: "%.2f s", s) }
  static func ms(_ s: Double) -> String { String(format: s < 10 ? "%.2f ms" : "%.0f ms", s) }
  static func us(_ v: Double) -> String {
    v >= 10_000 ? String(format: "%.1f ms", v / 1_000) : String(format: "%.0f µs", v)
  }
  static func pct(_ v: Double) -> String { String(format: "%.0f%%", v * 100) }
  static func x(_ v: Double) -> String { String(format: "%.2f×", v) }
  /// Characters typed, to two decimals: extracts often differ from the peer by a few hundredths.
  static func num(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
  static func rate(_ v: Double) -> String {
    v >= 1e6 ? String(format: "%.1f M/s", v / 1e6) : String(format: "%.0f/s", v)
  }

  static func table(_ header: [String], _ rows: [[String]]) -> String {
    var out = "| " + header.joined(separator: " | ") + " |\n"
    out += "|" + header.map { _ in " --- |" }.joined() + "\n"
    for r in rows { out += "| " + r.joined(separator: " | ") + " |\n" }
    return out
  }

  /// The row of all targets of an extract.
  static func all(_ e: ExtractResult) -> QualityRow? { e.quality.first { $0.category == "all" } }

  /// "ours / SQLite peer" or, when the Tantivy peer ran, "ours / SQLite peer / Tantivy peer".
  static func trio<T>(_ a: T, _ b: T, _ c: T?, _ f: (T) -> String) -> String {
    [f(a), f(b)].joined(separator: " / ") + (c.map { " / " + f($0) } ?? "")
  }

  /// The same for a quality row's three systems.
  static func q3(_ q: QualityRow, _ f: (SystemQuality) -> String) -> String {
    trio(q.ours, q.peer, q.tantivy, f)
  }

  /// Keystrokes saved, in percent to one decimal.
  static func saved(_ s: SystemQuality) -> String {
    String(format: "%.1f", s.keystrokesSaved * 100)
  }

  /// Whether any extract ran the Tantivy peer (then headers name three systems).
  static func hasTantivy(_ r: BenchResults) -> Bool { r.extracts.contains { $0.tantivy != nil } }

  static func systems(_ r: BenchResults) -> String {
    hasTantivy(r) ? "ours / SQLite / Tantivy" : "ours / peer"
  }

  /// One row per extract with the headline figures; "ours / peer" in each pair.
  static func mainTable(_ r: BenchResults) -> String {
    var rows: [[String]] = []
    for e in r.extracts {
      let q = all(e)
      rows.append([
        e.name, mb(e.xmlBytes), "\(e.places)",
        "\(sec(e.build.ours.wall)) (xmllint \(sec(e.build.xmllint.wall)), \(x(e.build.wallRatio)))",
        kib(e.build.ours.peakRSSKiB),
        "\(trio(e.size.indexBytes, e.size.peerBytes, e.tantivy?.indexBytes, bytes)) (\(x(e.size.ratio)))",
        "\(ms(e.open.ours.openMs)) / \(ms(e.open.peer.openMs))",
        trio(e.query.ours1.p50, e.query.peer1.p50, e.tantivy?.one.p50, us),
        trio(e.query.ours1.p99, e.query.peer1.p99, e.tantivy?.one.p99, us),
        trio(
          e.query.ours2.requestsPerSecond, e.query.peer2.requestsPerSecond,
          e.tantivy?.two.requestsPerSecond, rate),
        q.map { q3($0) { pct($0.top5) } } ?? "–",
        q.map { q3($0) { pct($0.top1) } } ?? "–",
        q.map { pairedChars($0) } ?? "–",
        q.map { q3($0, saved) } ?? "–",
      ])
    }
    if let total = totalQuality(r).first(where: { $0.category == "all" }) {
      rows.append([
        "**all extracts**", "", "", "", "", "", "", "", "", "",
        q3(total) { pct($0.top5) }, q3(total) { pct($0.top1) }, pairedChars(total),
        q3(total, saved),
      ])
    }
    let sys = systems(r)
    return table(
      [
        "extract", "XML", "places", "build wall (libxml2 floor, ratio)", "build peak RSS",
        "size \(sys) (ours / SQLite)", "open ours / SQLite", "p50 \(sys)", "p99 \(sys)",
        "2 threads req/s \(sys)", "top-5 \(sys)", "top-1 \(sys)", "chars to top-5 \(sys)",
        "keystrokes saved % \(sys)",
      ], rows)
  }

  /// Chars to top-5 over the targets every system got there, with their count.
  static func pairedChars(_ q: QualityRow) -> String {
    let t: Double?? = q.tantivy == nil ? nil : .some(q.tantivyPairedChars)
    return "\(trio(q.oursPairedChars, q.peerPairedChars, t, num)) (n=\(q.pairedTargets))"
  }

  /// The least "chars to top-5" any system reading only the text can reach, per category, and
  /// what the systems needed on the targets without an origin (`EntryFloor`).
  static func floorSection(_ r: BenchResults) -> String {
    var s = "\n## Chars to top-5: the floor\n\n"
    s += "At each typed prefix an answer holds 5 places, so at most 5 of the places whose text "
    s += "starts with that prefix can be in the top 5 there. Over every place of a category's "
    s += "pool (its distinct typed texts), for a system that sees only the typed text, "
    s += "\"any order\" is the least mean number of characters before a place enters the top 5 "
    s += "(solved exactly; a system reaches it only by showing other places at each keystroke), "
    s += "and \"stable order\" the same for a system whose order of places stays put as the "
    s += "text grows, which is the same for every such order but where a place ends at a "
    s += "prefix more than 5 texts pass through (`EntryFloor.swift`). Both leave "
    s += "out the competition of other categories, so real systems need more. An origin tells "
    s += "places apart that the text cannot, so the systems are shown on the targets without "
    s += "one. Typo variants have no pool. \"Mix\" weighs the categories by their targets, "
    s += "with typo variants counted at 1 character in the floors and at their own characters "
    s += "for the systems (a category a system has no figure for is left out of its mix).\n\n"
    var rows: [[String]] = []
    let tantivy = hasTantivy(r)
    // Sums of floor × targets over all extracts.
    var mix = (any: 0.0, stable: 0.0, targets: 0)
    var mixSystems = SystemsMix()
    for e in r.extracts {
      var extract = (any: 0.0, stable: 0.0, targets: 0)
      var systems = SystemsMix()
      for f in e.floors {
        let drawn = Double(e.quality.first { $0.category == f.category }?.targets ?? 0)
        extract.any += (f.floorChars ?? 1) * drawn
        extract.stable += (f.stableFloorChars ?? 1) * drawn
        extract.targets += Int(drawn)
        systems.add(f, weight: drawn)
        mixSystems.add(f, weight: drawn)
        rows.append([
          e.name, Category(rawValue: f.category)?.title ?? f.category, "\(f.pool)",
          num(f.floorChars), num(f.stableFloorChars),
          "\(trio(f.oursChars, f.peerChars, hasTantivy(r) ? .some(f.tantivyChars) : nil, num)) (\(f.pairedTargets))",
        ])
      }
      let n = Double(max(1, extract.targets))
      rows.append([
        e.name, "**mix**", "", num(extract.any / n), num(extract.stable / n),
        systems.text(tantivy: tantivy),
      ])
      mix = (mix.any + extract.any, mix.stable + extract.stable, mix.targets + extract.targets)
    }
    let n = Double(max(1, mix.targets))
    rows.append([
      "**all extracts**", "**mix**", "", num(mix.any / n), num(mix.stable / n),
      mixSystems.text(tantivy: tantivy),
    ])
    s += table(
      [
        "extract", "targets", "pool", "floor, any order", "floor, stable order",
        "chars to top-5 without origin, \(systems(r)) (n)",
      ], rows)
    return s
  }

  /// Each system's chars to top-5 without origin over categories, weighted by their targets.
  struct SystemsMix {
    var sums = [0.0, 0.0, 0.0]
    var weights = [0.0, 0.0, 0.0]

    mutating func add(_ f: FloorRow, weight: Double) {
      for (i, chars) in [f.oursChars, f.peerChars, f.tantivyChars].enumerated() {
        guard let chars, weight > 0 else { continue }
        sums[i] += chars * weight
        weights[i] += weight
      }
    }

    func text(tantivy: Bool) -> String {
      let means = (0..<3).map { weights[$0] > 0 ? sums[$0] / weights[$0] : nil as Double? }
      return trio(means[0], means[1], tantivy ? .some(means[2]) : nil, num)
    }
  }

  /// Quality rows summed over all extracts (weighted by targets).
  static func totalQuality(_ r: BenchResults, half: TargetHalf? = nil) -> [QualityRow] {
    (Category.allCases.map(\.rawValue) + ["all"])
      .compactMap { name in
        combined(r.extracts.compactMap { e in rowsOf(e, half).first { $0.category == name } })
      }
  }

  /// The typo variants per script, summed over all extracts (weighted by targets).
  static func totalTypoByScript(_ r: BenchResults) -> [QualityRow] {
    let names = ["Latin", "non-Latin"] + Script.allCases.filter { $0 != .latin }.map(\.rawValue)
    return names.map(QualityScorer.typoRowName).compactMap { name in
      combined(r.extracts.compactMap { e in e.typoByScript.first { $0.category == name } })
    }
  }

  /// Rows of one category from several extracts as one (weighted by targets); nil for none.
  static func combined(_ rows: [QualityRow]) -> QualityRow? {
    guard let name = rows.first?.category else { return nil }
    let n = rows.reduce(0) { $0 + $1.targets }
    guard n > 0 else { return nil }
    func w(_ f: (QualityRow) -> Double) -> Double {
      rows.reduce(0) { $0 + f($1) * Double($1.targets) } / Double(n)
    }
    func own(_ f: (QualityRow) -> SystemQuality) -> SystemQuality {
      let entered = rows.reduce(0.0) { $0 + f($1).entered * Double($1.targets) }
      let chars = rows.reduce(0.0) {
        $0 + (f($1).meanCharsToTop5 ?? 0) * f($1).entered * Double($1.targets)
      }
      return SystemQuality(
        top5: w { f($0).top5 }, top1: w { f($0).top1 }, entered: entered / Double(n),
        meanCharsToTop5: entered > 0 ? chars / entered : nil,
        keystrokesSaved: w { f($0).keystrokesSaved })
    }
    let withTantivy = rows.allSatisfy { $0.tantivy != nil }
    let paired = rows.reduce(0) { $0 + $1.pairedTargets }
    func pairedMean(_ f: (QualityRow) -> Double?) -> Double? {
      paired == 0
        ? nil : rows.reduce(0.0) { $0 + (f($1) ?? 0) * Double($1.pairedTargets) } / Double(paired)
    }
    return QualityRow(
      category: name, targets: n, meanTextLength: w(\.meanTextLength), ours: own(\.ours),
      peer: own(\.peer), tantivy: withTantivy ? own { $0.tantivy! } : nil,
      pairedTargets: paired, oursPairedChars: pairedMean(\.oursPairedChars),
      peerPairedChars: pairedMean(\.peerPairedChars),
      tantivyPairedChars: withTantivy ? pairedMean(\.tantivyPairedChars) : nil)
  }

  /// An extract's quality rows over all targets or one half.
  static func rowsOf(_ e: ExtractResult, _ half: TargetHalf?) -> [QualityRow] {
    switch half {
    case nil: e.quality
    case .tuning: e.qualityTuning
    case .heldOut: e.qualityHeldOut
    }
  }

  static func qualityTable(_ rows: [QualityRow]) -> String {
    let sys = rows.contains { $0.tantivy != nil } ? "ours / SQLite / Tantivy" : "ours / peer"
    return table(
      [
        "targets", "n", "mean length", "top-5 \(sys)", "top-1 \(sys)", "ever top-5 \(sys)",
        "chars to top-5, own hits: \(sys)", "chars to top-5, all hit: \(sys) (n)",
        "keystrokes saved %: \(sys)",
      ],
      rows.map { q in
        [
          q.category == "all"
            ? "**all**" : (Category(rawValue: q.category)?.title ?? q.category),
          "\(q.targets)", num(q.meanTextLength),
          q3(q) { pct($0.top5) }, q3(q) { pct($0.top1) }, q3(q) { pct($0.entered) },
          q3(q) { num($0.meanCharsToTop5) },
          pairedChars(q).replacingOccurrences(of: "(n=", with: "("), q3(q, saved),
        ]
      })
  }

  static func markdown(_ r: BenchResults) -> String {
    let m = r.machine
    var s = """
      # Benchmark results

      Written by `make \(r.mode == "quick" ? "bench-quick" : "bench")` (`placeidx-bench run`) on \
      \(r.generated); do not edit by hand. What each figure means: `Benchmarks/README.md`.

      **Machine:** \(m.cpu), \(m.cores) cores, \(m.memoryGiB) GiB; \(m.os), Linux \(m.kernel); \
      \(m.swift); SQLite \(m.sqlite); \(m.libxml2). Load average (1, 5, 15 min) at start \
      \(m.loadAtStart), at end \(m.loadAtEnd): the machine is shared, figures move with it.

      **Run:** mode \(r.mode), seed \(r.seed), \(r.targetsPerCategory) targets per category per \
      extract, builds timed \(r.buildRuns)× (median), each request timed \(r.passes)× (fastest kept), harness \(String(format: "%.0f", r.harnessSeconds)) s.

      **Peer:** \(r.peer).\(r.tantivyPeer.map { "\n\n**Tantivy peer:** \($0)." } ?? "")

      ## Main table

      Pairs read "PlaceIndex / SQLite peer", triples "PlaceIndex / SQLite peer / Tantivy peer". \
      Build is `placeidx build` on the extract as shipped \
      beside `xmllint --stream --noout` on the same XML uncompressed. Latencies are per request, \
      in process (the Tantivy peer: a pipe round trip to its Python child), one thread, over \
      every keystroke prefix of every target. Quality is over all \
      targets of the extract, at full text; "chars to top-5" is the mean number of characters \
      typed before the target entered the top 5, over the targets every system got there; \
      "keystrokes saved" the mean share of a target's text not typed before it entered the \
      top 5. Both halves of the targets: "Quality, all extracts together" and per extract.


      """
    s += mainTable(r)

    s += "\n## Quality, all extracts together\n\n"
    s += "Every target, then the tuning half (the peers' weights were set on it) and the "
    s += "held-out half (never looked at while tuning); a target's half comes from a hash of "
    s += "the seed and the target (`TargetHalf`). Keystrokes saved: the mean share of a "
    s += "target's text not typed before it entered the top 5 (0 for one that never did).\n\n"
    s += qualityTable(totalQuality(r))
    for half in TargetHalf.allCases {
      s += "\n### \(half == .tuning ? "Tuning half" : "Held-out half"), all extracts\n\n"
      s += qualityTable(totalQuality(r, half: half))
    }
    s += typoScriptSection(r)
    s += floorSection(r)

    s += serveSection(r)

    s += "\n## Build\n\n"
    s += table(
      [
        "extract", "file", "XML", "ours wall", "ours CPU", "ours peak RSS", "ours XML rate",
        "xmllint wall", "xmllint CPU", "xmllint peak RSS", "xmllint rate", "wall ratio",
        "decompress alone", "peer DB from places",
      ],
      r.extracts.map { e in
        let b = e.build
        return [
          e.name, bytes(e.fileBytes), mb(e.xmlBytes), sec(b.ours.wall), sec(b.ours.cpu),
          kib(b.ours.peakRSSKiB), String(format: "%.1f MB/s", b.xmlBytesPerSecond / 1e6),
          sec(b.xmllint.wall), sec(b.xmllint.cpu), kib(b.xmllint.peakRSSKiB),
          String(format: "%.1f MB/s", b.xmllintBytesPerSecond / 1e6), x(b.wallRatio),
          b.decompress.map { sec($0.wall) } ?? "–", sec(b.peerSeconds),
        ]
      })

    let withPBF = r.extracts.filter { $0.build.pbf != nil }
    if !withPBF.isEmpty {
      s += "\n## Build from PBF\n\n"
      s += """
        The same data as OSM PBF (`osmium cat EXTRACT -o FILE.osm.pbf`): the build from it \
        beside the XML build above, the reader alone (`placeidx-bench read-extract`), and \
        `osmium cat -f opl FILE.osm.pbf > /dev/null` (osmium's own full read) as the floor. \
        Targets: CPU ratio ≤ 0.5×, wall/CPU ≤ 0.7× with two cores, read ≤ 2× osmium.


        """
      s += table(
        [
          "extract", "PBF", "PBF build wall", "PBF build CPU", "XML build CPU", "CPU ratio",
          "wall/CPU", "PBF peak RSS", "read alone wall", "osmium read wall", "read ratio",
        ],
        withPBF.map { e in
          let p = e.build.pbf!
          return [
            e.name, bytes(p.pbfBytes), sec(p.build.wall), sec(p.build.cpu), sec(e.build.ours.cpu),
            x(p.cpuRatio), x(p.wallPerCPU), kib(p.build.peakRSSKiB), sec(p.read.wall),
            sec(p.osmium.wall), x(p.readRatio),
          ]
        })
    }

    s += tantivySection(r)

    s += "\n## Size\n\n"
    s += table(
      ["extract", "places", "index", "bytes/place", "peer DB", "peer bytes/place", "ratio"],
      r.extracts.map { e in
        [
          e.name, "\(e.places)", bytes(e.size.indexBytes),
          String(format: "%.1f", e.size.bytesPerPlace),
          bytes(e.size.peerBytes), String(format: "%.0f", e.size.peerBytesPerPlace),
          x(e.size.ratio),
        ]
      })
    s += "\nIndex sections (bytes, share of the file):\n\n"
    let sectionNames = Array(
      Set(r.extracts.flatMap { $0.size.sections.map(\.name) })
    ).sorted { a, b in
      let ta = r.extracts.reduce(0) { $0 + ($1.size.sections.first { $0.name == a }?.bytes ?? 0) }
      let tb = r.extracts.reduce(0) { $0 + ($1.size.sections.first { $0.name == b }?.bytes ?? 0) }
      return ta > tb
    }
    s += table(
      ["section"] + r.extracts.map(\.name),
      sectionNames.map { n in
        [n]
          + r.extracts.map { e in
            let b = e.size.sections.first { $0.name == n }?.bytes ?? 0
            return "\(bytes(b)) (\(pct(Double(b) / Double(max(1, e.size.indexBytes)))))"
          }
      })
    s += "\nPeer database parts (from SQLite's dbstat):\n\n"
    let partNames = Array(Set(r.extracts.flatMap { $0.size.peerParts.map(\.name) })).sorted()
    s += table(
      ["part"] + r.extracts.map(\.name),
      partNames.map { n in
        [n]
          + r.extracts.map { e in
            let b = e.size.peerParts.first { $0.name == n }?.bytes ?? 0
            return "\(bytes(b)) (\(pct(Double(b) / Double(max(1, e.size.peerBytes)))))"
          }
      })

    s += "\n## Open\n\n"
    s += "Each in a fresh child process, the fastest of \(r.extracts.first?.open.runs ?? 0) runs. "
    s += "RSS is the whole process's (Swift runtime and Foundation included) before and after. "
    s += "\"ours open\" checks every section's checksum, as every reader does by default; "
    s += "\"unchecked\" is the same open with `verification: .skip` (header and table only), "
    s += "in the same child after the first query.\n\n"
    s += table(
      [
        "extract", "ours open", "unchecked", "ours RSS before → after", "ours first query",
        "peer open", "peer RSS before → after", "peer first query",
      ],
      r.extracts.map { e in
        let o = e.open.ours
        let p = e.open.peer
        return [
          e.name, ms(o.openMs), o.uncheckedOpenMs.map(ms) ?? "–",
          "\(kib(o.rssBeforeKiB)) → \(kib(o.rssAfterKiB))",
          ms(o.firstQueryMs), ms(p.openMs), "\(kib(p.rssBeforeKiB)) → \(kib(p.rssAfterKiB))",
          ms(p.firstQueryMs),
        ]
      })

    s += "\n## Query latency\n\n"
    s += "Every keystroke prefix of every target (half with an origin near the target), in "
    s += "process, after one untimed warm-up pass; each request's fastest of \(r.passes) passes "
    s += "(and the shortest wall time for req/s). Two threads: at the same time, each takes "
    s += "the targets' keystroke sequences one at a time from a shared queue (ours share one "
    s += "client, the peer has a connection per thread); req/s is requests over wall time, "
    s += "\"cores used\" the "
    s += "process's CPU time over wall time (near 1 with two threads means other work on the "
    s += "shared machine held the second core).\n\n"
    var latencyRows: [[String]] = []
    for e in r.extracts {
      var systems = [
        ("PlaceIndex", e.query.ours1), ("SQLite peer", e.query.peer1),
        ("PlaceIndex", e.query.ours2), ("SQLite peer", e.query.peer2),
      ]
      if let t = e.tantivy {
        systems.insert(("Tantivy peer", t.one), at: 2)
        systems.append(("Tantivy peer", t.two))
      }
      for (system, f) in systems {
        latencyRows.append([
          e.name, system, "\(f.threads)", "\(f.requests)", us(f.p50), us(f.p90), us(f.p99),
          us(f.max), us(f.mean), rate(f.requestsPerSecond), String(format: "%.2f", f.coresUsed),
          "\(f.errors)",
        ])
      }
      let q = e.query
      latencyRows.append([
        e.name, "*ratio ours/peer*", "1", "", x(q.ours1.p50 / max(q.peer1.p50, 1e-9)),
        x(q.ours1.p90 / max(q.peer1.p90, 1e-9)), x(q.ours1.p99 / max(q.peer1.p99, 1e-9)),
        x(q.ours1.max / max(q.peer1.max, 1e-9)), x(q.ours1.mean / max(q.peer1.mean, 1e-9)),
        x(q.ours1.requestsPerSecond / max(q.peer1.requestsPerSecond, 1e-9)), "", "",
      ])
    }
    s += table(
      [
        "extract", "system", "threads", "requests", "p50", "p90", "p99", "max", "mean", "req/s",
        "cores used", "errors",
      ], latencyRows)

    s += "\n## Quality per extract\n\n"
    s += "Targets drawn with the seed from the places of each index: named POIs (typed by name), "
    s += "addresses (the formatted address without the country), place nodes and areas, "
    s += "streets, and typo variants (one edit, not on the first letter, of names with at least "
    s += "6 letters). A hit is the target or another piece of the same thing: the same name "
    s += "within 150 m, or for areas and streets the same name and primary type within 100 km "
    s += "(countries, regions, counties), 10 km (localities), 2 km (neighbourhoods, streets).\n"
    for e in r.extracts {
      s += "\n### \(e.name)\n\n"
      for half in TargetHalf.allCases {
        let rows = rowsOf(e, half)
        guard !rows.isEmpty else { continue }
        s += "\n\(half == .tuning ? "Tuning half" : "Held-out half"):\n\n"
        s += qualityTable(rows)
      }
    }
    return s
  }
}

extension Report {
  /// The typo variants per script of the text typed, all extracts together and per extract.
  static func typoScriptSection(_ r: BenchResults) -> String {
    let total = totalTypoByScript(r)
    guard !total.isEmpty else { return "" }
    var s = "\n## Typo variants by script\n\n"
    s += "The typo variants by the script most of the typed text's letters are in (`Script`): "
    s += "those of the display names, whatever their script, and as many again drawn from the "
    s += "places' names in other scripts than the display name's (`name:zh`, `name:ta`, …; "
    s += "4 letters at least in Han, Kana and Hangul). A letter put in or substituted is one "
    s += "of the same script. The SQLite peer does not index names in other languages; the "
    s += "Tantivy peer gets the names in other scripts as its alternative names. "
    s += "\"Latin\" and \"non-Latin\" are the two sums, then each other script.\n\n"
    var rows: [[String]] = []
    func add(_ name: String, _ q: QualityRow) {
      let script = String(q.category.dropFirst(QualityScorer.typoRowName("").count))
      rows.append([
        name, script == "Latin" || script == "non-Latin" ? "**\(script)**" : script,
        "\(q.targets)", q3(q) { pct($0.top5) }, q3(q) { pct($0.top1) },
        q3(q) { pct($0.entered) }, q3(q, saved),
      ])
    }
    for q in total { add("**all extracts**", q) }
    for e in r.extracts {
      for q in e.typoByScript { add(e.name, q) }
    }
    let sys = systems(r)
    s += table(
      [
        "extract", "script", "n", "top-5 \(sys)", "top-1 \(sys)", "ever top-5 \(sys)",
        "keystrokes saved % \(sys)",
      ], rows)
    return s
  }

  /// `placeidx serve` under load, when the run measured it.
  static func serveSection(_ r: BenchResults) -> String {
    let rows = r.extracts.compactMap { e in e.serve.map { (e.name, $0) } }
    guard !rows.isEmpty else { return "" }
    var s = "\n## Serving over HTTP (`placeidx serve`)\n\n"
    s += """
      wrk, 2 threads, keep-alive connections to `placeidx serve` on 127.0.0.1 over the same \
      keystroke requests (JSON POST bodies), after a 2 s warm-up; in process is one thread, \
      in process, the same requests. Ratio per core: HTTP requests/s ÷ cores ÷ in-process \
      requests/s (wrk shares the cores). CPU per request is the server's CPU time over the \
      requests it answered, beside the in-process run's: it does not move with the load. \
      200 closed-loop clients wait at least clients ÷ requests/s on average (Little's law; the \
      queue column), so their p99 measures the throughput of these two shared cores more than \
      the server's latency; a 5 s run with 8 clients after the timed one shows that. Then 50 \
      slowloris connections and 10 clients sending 200 KB of headers, while 40 probe requests on \
      fresh connections are timed.


      """
    s += table(
      [
        "extract", "clients", "server threads", "requests/s HTTP / in process", "ratio per core",
        "p50", "p99", "max", "queue (clients ÷ rate)", "p50 / p99 at few clients", "errors",
        "CPU µs/request HTTP / in process", "RSS before → after",
        "probes OK", "probe p50 / max",
        "431s sent back",
      ],
      rows.map { name, f in
        [
          name, "\(f.clients) × \(Int(f.seconds)) s", "\(f.serverThreads)",
          "\(rate(f.requestsPerSecond)) / \(rate(f.inProcessRequestsPerSecond))",
          String(format: "%.2f", f.ratioPerCore), us(f.p50), us(f.p99), us(f.max),
          f.requestsPerSecond > 0 ? us(Double(f.clients) / f.requestsPerSecond * 1e6) : "–",
          f.fewClients.map { "\(us(f.fewClientsP50 ?? 0)) / \(us(f.fewClientsP99 ?? 0)) (\($0))" }
            ?? "–",
          "\(f.errors)",
          String(
            format: "%.0f / %.0f", f.serverCPUMicrosPerRequest, f.inProcessCPUMicrosPerRequest),
          "\(kib(f.rssBeforeKiB)) → \(kib(f.rssAfterKiB))",
          "\(f.hostileProbesOK)/\(f.hostileProbes)",
          String(format: "%.1f / %.1f ms", f.hostileProbeP50Ms, f.hostileProbeMaxMs),
          "\(f.oversizedAnswered431)",
        ]
      })
    return s
  }
}

extension Report {
  /// The Tantivy peer's build, size and start, when it ran.
  static func tantivySection(_ r: BenchResults) -> String {
    let rows = r.extracts.compactMap { e in e.tantivy.map { (e, $0) } }
    guard !rows.isEmpty else { return "" }
    var s = "\n## Tantivy peer: build, size, start\n\n"
    s += """
      `tantivy_peer.py build` from the exported places (Python start and the corpus read \
      included) under `/usr/bin/time`; the index directory's bytes; the start of `serve` to \
      its ready line (Python start, corpus read, index open), the child's RSS then, and its \
      first query ("a"). Its query latencies (Query latency, below) are pipe round trips to \
      the child, JSON on both sides.


      """
    s += table(
      [
        "extract", "places", "build wall", "build CPU", "build peak RSS", "index", "bytes/place",
        "ours bytes/place", "ready", "RSS", "first query",
      ],
      rows.map { e, t in
        [
          e.name, "\(e.places)", sec(t.build.wall), sec(t.build.cpu), kib(t.build.peakRSSKiB),
          bytes(t.indexBytes), String(format: "%.0f", t.bytesPerPlace),
          String(format: "%.1f", e.size.bytesPerPlace), ms(t.readyMs), kib(t.rssKiB),
          ms(t.firstQueryMs),
        ]
      })
    return s
  }
}
