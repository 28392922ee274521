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
}

struct ScaleResults: Codable, Sendable {
  var generated: String
  var extract: String
  var seed: UInt64
  var targetsPerCategory: Int
  var machine: MachineInfo
  var points: [ScalePoint]
  var plot: String
}

struct ScaleOptions {
  var root: String
  var extract: String
  var factors: [Int]
  var placeidx: String
  var work: String
  var out: String
  var seed: UInt64
  var perCategory: Int
  var keep: Bool
  /// This executable, for the open probes.
  var bench: String
}

/// `make bench-scale`: how build time, peak memory, index size and query p99 grow with input.
enum Scale {
  /// Whether `placeidx build -` reads the extract from standard input: the tiles are then
  /// piped into the build (and into xmllint) instead of going through a temporary file.
  static let buildReadsStdin = false

  static func run(_ o: ScaleOptions) throws {
    let progress = Progress()
    var machine = MachineInfo.current()
    let fm = FileManager.default
    try fm.createDirectory(atPath: o.work, withIntermediateDirectories: true)
    try fm.createDirectory(atPath: o.out, withIntermediateDirectories: true)
    let h = HarnessOptions(
      root: o.root, extracts: "", placeidx: o.placeidx, bench: o.bench, work: o.work,
      out: o.out, quick: false, perCategory: o.perCategory, buildRuns: 1, probeRuns: 7, passes: 1)
    try fm.createDirectory(
      atPath: (o.work as NSString).appendingPathComponent("xml"), withIntermediateDirectories: true)
    let (base, _) = try Harness.uncompressed(o.extract, h)
    progress.say("reading \((base as NSString).lastPathComponent) into the tiler's template")
    let template = try Tiler.template(base)
    var points: [ScalePoint] = []
    for factor in o.factors {
      let index = (o.work as NSString).appendingPathComponent("scale-\(factor)x.placeidx")
      let sampled: SampledRun
      let lint: ProcessRun
      var xmlBytes = 0
      if buildReadsStdin {
        progress.say("\(factor)×: tiling into xmllint --stream")
        lint = try Child.sampled("/usr/bin/xmllint", ["--stream", "--noout", "-"]) {
          _ = try Tiler.tile(template: template, factor: factor, to: $0)
        }.run
        progress.say("\(factor)×: tiling into placeidx build -")
        sampled = try Child.sampled(
          o.placeidx, ["build", "-", "-o", index, "--quiet", "--data", h.data]
        ) { xmlBytes = try Tiler.tile(template: template, factor: factor, to: $0) }
      } else {
        let xml =
          factor == 1 ? base : (o.work as NSString).appendingPathComponent("tiled-\(factor)x.osm")
        if factor != 1 {
          progress.say("\(factor)×: tiling \((o.extract as NSString).lastPathComponent)")
          try Tiler.tile(input: base, factor: factor, output: xml)
        }
        xmlBytes = (try fm.attributesOfItem(atPath: xml)[.size] as? Int) ?? 0
        progress.say("\(factor)×: xmllint --stream over \(Report.mb(xmlBytes)) of XML")
        lint = try Child.timed("/usr/bin/xmllint", ["--stream", "--noout", xml])
        progress.say("\(factor)×: building from \(Report.mb(xmlBytes)) of XML")
        sampled = try Child.sampled(
          o.placeidx, ["build", xml, "-o", index, "--quiet", "--data", h.data])
        if factor != 1 && !o.keep { try? fm.removeItem(atPath: xml) }
      }
      let build = sampled.run
      progress.say(
        "\(factor)×: build \(Report.sec(build.wall)) wall, \(Report.sec(build.cpu)) CPU, peak RSS \(Report.kib(build.peakRSSKiB)), anonymous \(Report.kib(sampled.peakAnonKiB)); xmllint \(Report.sec(lint.cpu)) CPU"
      )

      progress.say("\(factor)×: open ×\(h.probeRuns)")
      let open = try Harness.probe("ours", index, h)
      let loaded = try LoadedIndex(path: index)
      let corpus = try Corpus(index: loaded)
      let peerPath = (o.work as NSString).appendingPathComponent("scale-\(factor)x.sqlite")
      progress.say("\(factor)×: \(corpus.count) places; peer database")
      let peerSeconds = try Peer.build(path: peerPath, corpus: corpus)
      let targets = TargetSampler.sample(corpus, perCategory: o.perCategory, seed: o.seed)
      let requests = TargetSampler.keystrokes(targets)
      progress.say("\(factor)×: \(requests.count) requests")
      let ours = OursSession(
        client: PlacesClient(indexes: [loaded]), rankOfID: corpus.rankOfID)
      let peer = try PeerSession(path: peerPath)
      _ = QueryRunner.run(requests, sessions: [ours])
      _ = QueryRunner.run(requests, sessions: [peer])
      let ours1 = QueryRunner.run(requests, sessions: [ours], passes: 3)
      let peer1 = QueryRunner.run(requests, sessions: [peer], passes: 3)
      points.append(
        ScalePoint(
          factor: factor, xmlBytes: xmlBytes, places: corpus.count, build: build,
          indexBytes: loaded.file.bytes.buffer.count,
          peerBytes: (try fm.attributesOfItem(atPath: peerPath)[.size] as? Int) ?? 0,
          peerBuildSeconds: peerSeconds, requests: requests.count,
          ours: ours1.figures(threads: 1), peer: peer1.figures(threads: 1), open: open,
          sampled: sampled, xmllint: lint, streamed: buildReadsStdin))
    }
    if base != o.extract { try? fm.removeItem(atPath: base) }
    machine.loadAtEnd = MachineInfo.loadAverage()

    let svg = (o.out as NSString).appendingPathComponent("scale.svg")
    let plotter = try plot(points, work: o.work, svg: svg)
    let results = ScaleResults(
      generated: ISO8601DateFormatter().string(from: Date()),
      extract: (o.extract as NSString).lastPathComponent, seed: o.seed,
      targetsPerCategory: o.perCategory, machine: machine, points: points, plot: plotter)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(
      to: URL(fileURLWithPath: (o.out as NSString).appendingPathComponent("scale.json")))
    let md = (o.out as NSString).appendingPathComponent("scale.md")
    try markdown(results).write(toFile: md, atomically: true, encoding: .utf8)
    progress.say("wrote \(md), scale.json and scale.svg (\(plotter))")
    print(buildTable(points))
    print(table(points))
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
        let lint = p.xmllint?.cpu ?? 0
        return [
          "\(p.factor)×", Report.mb(p.xmlBytes), "\(p.places)", Report.sec(p.build.wall),
          Report.sec(p.build.cpu), String(format: "%.3f s", perCopy) + rel,
          p.xmllint.map { Report.sec($0.cpu) } ?? "–",
          lint > 0 ? String(format: "%.2f×", p.build.cpu / lint) : "–",
          Report.kib(p.build.peakRSSKiB), p.sampled.map { Report.kib($0.peakAnonKiB) } ?? "–",
          Report.bytes(p.indexBytes),
          String(format: "%.1f", Double(p.indexBytes) / Double(max(1, p.places))),
        ]
      })
      + "\nRelative to 1×: XML \(points.map { String(format: "%.1f×", Double($0.xmlBytes) / Double(max(1, b.xmlBytes))) }.joined(separator: ", ")).\n"
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
          "\(Report.bytes(p.peerBytes)) (\(g(Double(p.peerBytes), Double(b.peerBytes))))",
          p.open.map { o in
            String(format: "%.2f ms", o.openMs)
              + (o.uncheckedOpenMs.map { String(format: " (unchecked %.2f)", $0) } ?? "")
          } ?? "–",
          "\(Report.us(p.ours.p99)) (\(g(p.ours.p99, b.ours.p99)))",
          "\(Report.us(p.peer.p99)) (\(g(p.peer.p99, b.peer.p99)))",
          "\(Report.us(p.ours.p50)) (\(g(p.ours.p50, b.ours.p50)))",
          "\(Report.us(p.peer.p50)) (\(g(p.peer.p50, b.peer.p50)))",
        ]
      })
  }

  static func markdown(_ r: ScaleResults) -> String {
    let m = r.machine
    return """
      # Growth with input size

      Written by `make bench-scale` (`placeidx-bench scale`) on \(r.generated); do not edit by \
      hand. \(r.extract) tiled by the synthetic-scale generator (copies on a grid of 2° of \
      latitude by 3° of longitude, ids copy × 10^10 + id, all nodes then ways then relations, \
      three copies in four with other proper names); each size built once with `placeidx build` under `/usr/bin/time`; \
      queries: every keystroke prefix of \(r.targetsPerCategory) targets per category drawn with \
      seed \(r.seed) from each index, one thread, in process, after a warm-up pass. "open \
      ours": opening the index in a fresh child process, the fastest of 7. In \
      parentheses: growth relative to 1×. Common words (street types, category words) \
      stay in every copy, as in a real region, while most proper names differ between copies.

      **Machine:** \(m.cpu), \(m.cores) cores, \(m.memoryGiB) GiB; \(m.swift); SQLite \(m.sqlite). \
      Load average at start \(m.loadAtStart), at end \(m.loadAtEnd).


      ## Build

      Peak RSS from `/usr/bin/time` (the kernel's high-water mark, mapped temporary files \
      included); peak anonymous RSS (heap and stacks) sampled from `/proc/PID/status` every \
      20 ms. CPU per copy: build CPU over the factor. Tiles \
      \(r.points.first?.streamed == true ? "piped into the build" : "written to a temporary file, then built").

      """ + buildTable(r.points) + "\n## Growth\n\n" + table(r.points)
        + "\n![growth relative to 1×, log-log](scale.svg)\n\nPlot: \(r.plot).\n"
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
