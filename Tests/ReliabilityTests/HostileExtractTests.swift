import Foundation
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hostile extracts through the whole builder (`IndexBuilder`), not just the XML reader (whose
/// own hostile-input tests are in Tests/OSMReaderTests/HostileInputTests.swift: entities, deep
/// nesting, invalid ids and coordinates at the reader level).
///
/// Each extract is built in a child process (an exit test), with an alarm, so that a crash or a
/// hang fails its own test instead of the whole run. The child uses the fuzz harness's
/// `buildExtract`, which stops the child when a failed build leaves a file under the final name
/// or a finished build wrote an index that does not open, verify and answer.
enum HostileExtract: String, Codable, Sendable, CaseIterable, CustomTestStringConvertible {
  case hugeAttribute
  case manyAttributes
  case manyTags
  case coordinatesOutOfRange
  case duplicateIDs
  case waysReferencingThemselves
  case relationCycles
  case negativeIDs
  case antimeridianWay
  case unsortedNodesBetweenWays
  case unsortedNodesBetweenWaysQuarter
  case manyAlternativeNames
  case longWord
  case manyWords
  case emptyFile
  case binaryGarbage
  case wrongRoot
  case noPlaces

  var testDescription: String { rawValue }

  /// Size of the attribute value of ``hugeAttribute``.
  static let hugeAttributeBytes = 100 << 20

  /// Named nodes ``coordinatesOutOfRange`` holds with invalid positions.
  static let invalidNodes = 9

  /// Writes the extract to `path` (streaming the large ones).
  func write(to path: String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    func put(_ text: String) throws { try handle.write(contentsOf: Data(text.utf8)) }
    let named = #"<node id="1" lat="47.18" lon="9.9"><tag k="name" v="Dorfplatz"/></node>"#
    switch self {
    case .hugeAttribute:
      try put(#"<?xml version="1.0"?><osm version="0.6">"# + named)
      try put(#"<node id="2" lat="47.1" lon="9.9"><tag k="name" v=""#)
      let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
      for _ in 0..<(HostileExtract.hugeAttributeBytes >> 20) { try handle.write(contentsOf: chunk) }
      try put(#""/></node></osm>"#)
    case .manyAttributes:
      // 500,000 attributes on one element (about 6 MB): libxml2's duplicate check took 104 s.
      try put(#"<?xml version="1.0"?>"# + "\n" + #"<osm version="0.6">"# + "\n" + named + "\n")
      try put(#"<node id="2" lat="47.1" lon="9.9""#)
      let chunk = (0..<1000).map { " a\($0)=\"1\"" }.joined()
      for i in 0..<500 { try put(chunk.replacingOccurrences(of: " a", with: " b\(i)_")) }
      try put("/></osm>")
    case .manyTags:
      // One node with a million tags (the issue's 25 M grew the process to 1.1 GB).
      try put(#"<?xml version="1.0"?>"# + "\n" + #"<osm version="0.6">"# + "\n" + named + "\n")
      try put(#"<node id="2" lat="47.1" lon="9.9">"#)
      let chunk = String(repeating: #"<tag k="k" v="v"/>"#, count: 10_000)
      for _ in 0..<100 { try put(chunk) }
      try put("</node></osm>")
    case .coordinatesOutOfRange:
      // Nine named nodes with invalid positions, ways over them, one valid place.
      try put(
        osmDocument(
          """
          \(named)
          <node id="2" lat="91" lon="9.9"><tag k="name" v="Nordpolgipfel"/></node>
          <node id="3" lat="-90.0000001" lon="9.9"><tag k="name" v="Suedpolgipfel"/></node>
          <node id="4" lat="47" lon="180.0000001"><tag k="name" v="Ostrandhaus"/></node>
          <node id="5" lat="47" lon="-181"><tag k="name" v="Westrandhaus"/></node>
          <node id="6" lat="1e308" lon="9"><tag k="name" v="Riesenhaus"/></node>
          <node id="7" lat="NaN" lon="9"><tag k="name" v="Nanhaus"/></node>
          <node id="8" lat="47" lon="Infinity"><tag k="name" v="Unendlichhaus"/></node>
          <node id="9" lat="" lon=""><tag k="name" v="Leerhaus"/></node>
          <node id="10" lat="4 7" lon="9"><tag k="name" v="Lueckenhaus"/></node>
          <way id="20"><nd ref="2"/><nd ref="3"/><nd ref="4"/><tag k="name" v="Geisterweg"/><tag k="highway" v="residential"/></way>
          <way id="21"><nd ref="1"/><nd ref="5"/><tag k="name" v="Halbweg"/><tag k="highway" v="residential"/></way>
          """))
    case .duplicateIDs:
      // The same id for different named elements: adjacent, apart, and across kinds.
      try put(
        osmDocument(
          """
          <node id="1" lat="47.18" lon="9.9"><tag k="name" v="Erstes Haus"/></node>
          <node id="1" lat="47.19" lon="9.91"><tag k="name" v="Zweites Haus"/></node>
          <node id="2" lat="47.18" lon="9.92"><tag k="name" v="Drittes Haus"/></node>
          <node id="3" lat="47.18" lon="9.93"/>
          <node id="2" lat="47.17" lon="9.92"><tag k="name" v="Viertes Haus"/></node>
          <way id="1"><nd ref="1"/><nd ref="2"/><tag k="name" v="Erster Weg"/><tag k="highway" v="footway"/></way>
          <way id="1"><nd ref="2"/><nd ref="3"/><tag k="name" v="Zweiter Weg"/><tag k="highway" v="path"/></way>
          <relation id="1"><member type="node" ref="1" role=""/><tag k="name" v="Erster Verband"/><tag k="type" v="multipolygon"/></relation>
          <relation id="1"><member type="node" ref="2" role=""/><tag k="name" v="Zweiter Verband"/><tag k="place" v="village"/></relation>
          """))
    case .waysReferencingThemselves:
      // A way whose node list names its own id, a way over one node repeated, a zero-area
      // ring, and a long way back and forth between two nodes.
      let repeated = String(repeating: #"<nd ref="1"/>"#, count: 10_000)
      let pingPong = String(repeating: #"<nd ref="1"/><nd ref="2"/>"#, count: 50_000)
      try put(
        osmDocument(
          """
          \(named)
          <node id="2" lat="47.181" lon="9.901"/>
          <way id="2"><nd ref="2"/><nd ref="2"/><tag k="name" v="Selbstweg"/><tag k="highway" v="service"/></way>
          <way id="3">\(repeated)<tag k="name" v="Punktweg"/><tag k="building" v="yes"/></way>
          <way id="4"><nd ref="1"/><nd ref="2"/><nd ref="1"/><nd ref="2"/><nd ref="1"/><tag k="name" v="Flachring"/><tag k="landuse" v="grass"/></way>
          <way id="5">\(pingPong)<tag k="name" v="Pendelweg"/><tag k="highway" v="track"/></way>
          <way id="6"><nd ref="6"/><nd ref="999"/><tag k="name" v="Geisterschleife"/><tag k="highway" v="track"/></way>
          """))
    case .relationCycles:
      // Relations that contain each other, one that contains itself, and area relations
      // whose rings are made of one way used many times.
      let manyMembers = String(
        repeating: #"<member type="way" ref="10" role="outer"/>"#, count: 5000)
      try put(
        osmDocument(
          """
          \(named)
          <node id="2" lat="47.17" lon="9.89"/><node id="3" lat="47.19" lon="9.89"/>
          <node id="4" lat="47.19" lon="9.91"/><node id="5" lat="47.17" lon="9.91"/>
          <way id="10"><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="5"/><nd ref="2"/></way>
          <way id="11"><nd ref="2"/><nd ref="3"/></way>
          <relation id="100"><member type="relation" ref="101" role=""/><member type="way" ref="10" role="outer"/><tag k="type" v="boundary"/><tag k="boundary" v="administrative"/><tag k="admin_level" v="8"/><tag k="name" v="Kreisdorf"/></relation>
          <relation id="101"><member type="relation" ref="102" role=""/><member type="way" ref="10" role="outer"/><tag k="type" v="boundary"/><tag k="boundary" v="administrative"/><tag k="admin_level" v="6"/><tag k="name" v="Kreisbezirk"/></relation>
          <relation id="102"><member type="relation" ref="100" role=""/><member type="way" ref="11" role="outer"/><tag k="type" v="multipolygon"/><tag k="place" v="village"/><tag k="name" v="Kreisweiler"/></relation>
          <relation id="103"><member type="relation" ref="103" role="subarea"/><member type="way" ref="10" role="outer"/><tag k="type" v="boundary"/><tag k="boundary" v="administrative"/><tag k="admin_level" v="4"/><tag k="name" v="Selbstland"/></relation>
          <relation id="104">\(manyMembers)<tag k="type" v="multipolygon"/><tag k="place" v="suburb"/><tag k="name" v="Vielring"/></relation>
          """))
    case .negativeIDs:
      // Negative ids, as JOSM writes for new objects.
      try put(
        osmDocument(
          """
          \(named)
          <node id="-1" lat="47.181" lon="9.901"><tag k="name" v="Neues Haus"/><tag k="shop" v="bakery"/></node>
          <node id="-2" lat="47.182" lon="9.902"/>
          <way id="-3"><nd ref="-1"/><nd ref="-2"/><tag k="name" v="Neuer Weg"/><tag k="highway" v="residential"/></way>
          <relation id="-4"><member type="way" ref="-3" role="outer"/><tag k="type" v="multipolygon"/><tag k="name" v="Neues Gebiet"/><tag k="place" v="neighbourhood"/></relation>
          """))
    case .antimeridianWay:
      // A named way across the antimeridian (longitudes 179.9 and -179.9), and one from the
      // south-west to the north-east corner of the map.
      try put(
        osmDocument(
          """
          <node id="1" lat="-17.0" lon="179.9"/>
          <node id="2" lat="-17.0" lon="-179.9"/>
          <node id="3" lat="-90" lon="-180"/>
          <node id="4" lat="90" lon="180"/>
          <way id="10"><nd ref="1"/><nd ref="2"/><tag k="name" v="Datumsgrenzweg"/><tag k="highway" v="residential"/></way>
          <way id="11"><nd ref="3"/><nd ref="4"/><tag k="name" v="Diagonale"/><tag k="highway" v="residential"/></way>
          <way id="12"><nd ref="2"/><nd ref="1"/><nd ref="4"/><nd ref="2"/><tag k="name" v="Grenzring"/><tag k="landuse" v="grass"/></way>
          """))
    case .unsortedNodesBetweenWays, .unsortedNodesBetweenWaysQuarter:
      // Node ids falling, each followed by a way that looks it up: a store that re-sorts on
      // every lookup after an out-of-order append takes quadratic time here.
      try put(#"<?xml version="1.0"?><osm version="0.6">"# + named)
      let n = self == .unsortedNodesBetweenWays ? 32_000 : 8_000
      var text = ""
      for i in 0..<n {
        let id = 1_000_000 - i
        text += #"<node id="\#(id)" lat="47.1\#(i % 10)" lon="9.9\#(i % 7)"/>"#
        text += #"<way id="\#(id)"><nd ref="\#(id)"/><nd ref="\#(id + 1)"/></way>"#
        if text.utf8.count > 1 << 20 {
          try put(text)
          text = ""
        }
      }
      try put(text + "</osm>")
    case .manyAlternativeNames:
      // 2,000 alternative names in one tag, and 1,500 name:xx tags.
      let alt = (0..<2000).map { "Name\($0)" }.joined(separator: ";")
      var languages = ""
      for i in 0..<1500 {
        let code =
          String(UnicodeScalar(UInt8(97 + i % 26)))
          + String(UnicodeScalar(UInt8(97 + (i / 26) % 26)))
          + String(UnicodeScalar(UInt8(97 + (i / 676) % 26)))
        languages += #"<tag k="name:\#(code)" v="Ort \#(i)"/>"#
      }
      try put(
        osmDocument(
          """
          \(named)
          <node id="2" lat="47.181" lon="9.901"><tag k="name" v="Vielnamig"/><tag k="alt_name" v="\(alt)"/><tag k="amenity" v="cafe"/></node>
          <node id="3" lat="47.182" lon="9.902"><tag k="name" v="Vielsprachig"/>\(languages)<tag k="amenity" v="bar"/></node>
          """))
    case .longWord:
      // One word of 70,000 letters: longer than a token of the index may be.
      let word = String(repeating: "ab", count: 35_000)
      try put(
        osmDocument(
          """
          \(named)
          <node id="2" lat="47.181" lon="9.901"><tag k="name" v="\(word)"/><tag k="amenity" v="cafe"/></node>
          """))
    case .manyWords:
      // A name of 70,000 words.
      let words = (0..<70_000).map { "w\($0 % 50)" }.joined(separator: " ")
      try put(
        osmDocument(
          """
          \(named)
          <node id="2" lat="47.181" lon="9.901"><tag k="name" v="\(words)"/><tag k="amenity" v="cafe"/></node>
          """))
    case .emptyFile:
      break
    case .binaryGarbage:
      var rng = SeededGenerator(seed: 7)
      try handle.write(
        contentsOf: Data((0..<65_536).map { _ in UInt8(rng.below(256)) }))
    case .wrongRoot:
      try put(#"<?xml version="1.0"?><html><node id="1" lat="1" lon="1"/></html>"#)
    case .noPlaces:
      try put(osmDocument(#"<node id="1" lat="47" lon="9"/><way id="2"><nd ref="1"/></way>"#))
    }
  }
}

@Suite("Hostile extracts through the whole builder")
struct HostileExtractTests {
  /// What a child process reports after building a hostile extract.
  struct ChildReport {
    var failure: String?
    var reportLines: [String] = []
    var peakBytes = 0
    /// CPU seconds of the build (not wall time, which other tests running at once inflate).
    var seconds = 0.0
    var passed = false

    init(_ lines: [String]) {
      for line in lines {
        if line.hasPrefix("FAILED ") {
          failure = String(line.dropFirst(7))
        } else if line.hasPrefix("REPORT ") {
          reportLines.append(String(line.dropFirst(7)))
        } else if line.hasPrefix("PEAK ") {
          peakBytes = Int(line.dropFirst(5)) ?? 0
        } else if line.hasPrefix("SECONDS ") {
          seconds = Double(line.dropFirst(8)) ?? 0
        } else if line == "DONE" {
          passed = true
        }
      }
    }

    /// The number of skipped elements in the report's "elements" line.
    var skipped: Int? {
      guard let line = reportLines.first(where: { $0.hasPrefix("elements") }),
        let r = line.range(of: #"\d+ skipped"#, options: .regularExpression)
      else { return nil }
      return Int(line[r].split(separator: " ")[0])
    }
  }

  /// Builds `hostile` in a child process; nil when the child crashed, hung or broke a rule of
  /// the harness (the exit test, or the child's FAIL lines, have then recorded the failure).
  func buildInChild(_ hostile: HostileExtract) async -> ChildReport? {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent],
      "building \(hostile.rawValue)"
    ) { [hostile] in
      failIfStillRunning(after: 120)
      let dir = FuzzHarness.scratchDirectory()
      defer { try? FileManager.default.removeItem(atPath: dir) }
      let extract = dir + "/extract.osm"
      try hostile.write(to: extract)
      _ = FuzzHarness.tables
      let before = peakResidentBytes()
      let start = processCPUSeconds()
      let outcome = FuzzHarness.buildExtract(at: extract, output: dir + "/out.placeidx")
      print("SECONDS \(processCPUSeconds() - start)")
      print("PEAK \(peakResidentBytes() - before)")
      switch outcome {
      case .failed(let message): print("FAILED \(message)")
      case .built(let lines): for l in lines { print("REPORT \(l)") }
      }
      print("DONE")
    }
    guard let result else { return nil }
    let report = ChildReport(checkChildOutput(result))
    return report.passed ? report : nil
  }

  @Test("a 100 MB attribute value: a clear error, in bounded memory", .timeLimit(.minutes(8)))
  func hugeAttribute() async throws {
    guard let r = await buildInChild(.hugeAttribute) else { return }
    // The reader refuses a start tag over 1 MiB (docs/LIMITS.md) before libxml2 sees it.
    let failure = try #require(r.failure, "a 100 MB attribute was accepted")
    #expect(
      failure.contains(":1: <tag> is over a limit: its start tag is over 1048576 bytes"),
      "\(failure)")
    #expect(r.peakBytes < 400 << 20, "the build grew the process by \(r.peakBytes >> 20) MB")
  }

  @Test("500,000 attributes on one element: refused at the 65th, in seconds")
  func manyAttributes() async throws {
    guard let r = await buildInChild(.manyAttributes) else { return }
    let failure = try #require(r.failure, "500,000 attributes were accepted")
    #expect(
      failure.contains(":4: <node> is over a limit: more than 64 attributes"), "\(failure)")
    #expect(r.seconds < 90, "took \(r.seconds) s")
  }

  @Test("a million tags on one node: refused at the 10,001st, in bounded memory")
  func manyTags() async throws {
    guard let r = await buildInChild(.manyTags) else { return }
    let failure = try #require(r.failure, "a million tags were accepted")
    #expect(
      failure.contains(":4: <node> is over a limit: more than 10000 tags"), "\(failure)")
    #expect(r.peakBytes < 400 << 20, "the build grew the process by \(r.peakBytes >> 20) MB")
  }

  @Test("coordinates out of range are skipped and counted")
  func coordinatesOutOfRange() async throws {
    guard let r = await buildInChild(.coordinatesOutOfRange) else { return }
    #expect(r.failure == nil, "\(r.failure ?? "")")
    #expect(r.skipped == HostileExtract.invalidNodes, "\(r.reportLines)")
    // The way over invalid nodes has no geometry, and the report says so.
    let missing = r.reportLines.first { $0.hasPrefix("missing") } ?? ""
    #expect(missing.contains("1 ways without geometry"), "\(missing)")
  }

  @Test("duplicate ids give an index that verifies, each place ID once")
  func duplicateIDs() async throws {
    guard let r = await buildInChild(.duplicateIDs) else { return }
    #expect(r.failure == nil, "\(r.failure ?? "")")
  }

  @Test("ways that reference themselves or one node many times")
  func waysReferencingThemselves() async throws {
    guard let r = await buildInChild(.waysReferencingThemselves) else { return }
    #expect(r.failure == nil, "\(r.failure ?? "")")
    #expect(r.seconds < 90)
  }

  @Test("relations that contain each other in a cycle, or themselves")
  func relationCycles() async throws {
    guard let r = await buildInChild(.relationCycles) else { return }
    #expect(r.failure == nil, "\(r.failure ?? "")")
    #expect(r.seconds < 90)
  }

  @Test("negative ids (new objects in JOSM files): an index or a clear error, never a crash")
  func negativeIDs() async throws {
    guard let r = await buildInChild(.negativeIDs) else { return }
    if let failure = r.failure { #expect(failure.contains("negative"), "\(failure)") }
  }

  @Test("a way across the antimeridian")
  func antimeridianWay() async throws {
    guard let r = await buildInChild(.antimeridianWay) else { return }
    #expect(r.failure == nil, "\(r.failure ?? "")")
  }

  @Test("node ids falling between ways: 4 times the input takes about 4 times as long")
  func unsortedNodesBetweenWays() async throws {
    guard let small = await buildInChild(.unsortedNodesBetweenWaysQuarter),
      let large = await buildInChild(.unsortedNodesBetweenWays)
    else { return }
    #expect(small.failure == nil && large.failure == nil)
    // Linear time gives a ratio near 4 (less, with the fixed costs); quadratic near 16.
    let ratio = large.seconds / max(small.seconds, 0.05)
    #expect(
      ratio < 8, "8,000 nodes took \(small.seconds) s, 32,000 took \(large.seconds) s: ×\(ratio)")
  }

  @Test(
    "places with huge names: an index that verifies (names cut, counted) or a clear error",
    arguments: [HostileExtract.manyAlternativeNames, .longWord, .manyWords])
  func hugeNames(_ hostile: HostileExtract) async throws {
    guard let r = await buildInChild(hostile) else { return }
    #expect(r.seconds < 90, "took \(r.seconds) s")
  }

  @Test(
    "extracts that are not OSM give a clear error",
    arguments: [HostileExtract.emptyFile, .binaryGarbage, .wrongRoot, .noPlaces])
  func notOSM(_ hostile: HostileExtract) async throws {
    guard let r = await buildInChild(hostile) else { return }
    let failure = try #require(r.failure, "\(hostile) built an index")
    #expect(!failure.isEmpty)
  }

  @Test("truncated extracts (plain, gzip, bzip2) at seeded random points give a clear error")
  func truncatedExtracts() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      failIfStillRunning(after: 240)
      let sample = fileBytes(FuzzHarness.sampleExtractPath) ?? []
      let dir = FuzzHarness.scratchDirectory()
      var inputs: [(String, [UInt8])] = [("osm", sample)]
      for (tool, ext) in [("gzip", "gz"), ("bzip2", "bz2")] {
        let path = dir + "/sample.osm"
        _ = FileManager.default.createFile(atPath: path, contents: Data(sample))
        for bin in ["/usr/bin/" + tool, "/bin/" + tool]
        where FileManager.default.isExecutableFile(atPath: bin) {
          if (try? runProcess(URL(fileURLWithPath: bin), ["-f", path]))?.status == 0,
            let packed = fileBytes(path + "." + ext)
          {
            inputs.append((ext, packed))
          }
          break
        }
      }
      var rng = SeededGenerator(seed: 20_260_101)
      var failures: [String] = []
      var cuts = 0
      for (kind, bytes) in inputs {
        // Cut before the closing </osm> (or inside the compressed stream), so that no cut can
        // be a complete document.
        let end = kind == "osm" ? bytes.count - 8 : bytes.count - 1
        var points = [0, 1, 10, end - 1]
        for _ in 0..<(kind == "osm" ? 24 : 10) {
          points.append(rng.below(end))
        }
        for cut in points {
          cuts += 1
          let outcome = FuzzHarness.buildExtract(
            Array(bytes.prefix(cut)), fileName: "cut.osm" + (kind == "osm" ? "" : "." + kind))
          if case .built = outcome { failures.append("\(kind) cut at \(cut) built an index") }
        }
      }
      print("CUTS \(cuts) KINDS \(inputs.map(\.0))")
      reportFailures(failures)
    }
    let lines = checkChildOutput(result)
    #expect(lines.contains { $0.hasPrefix("CUTS") }, "\(lines)")
  }

  @Test("a failed build leaves the previous index and manifest untouched, and no temporaries")
  func failedBuildKeepsPreviousArtifact() throws {
    let dir = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let output = dir.appendingPathComponent("out.placeidx").path
    let builder = IndexBuilder(tables: FuzzHarness.tables)
    _ = try builder.build(
      IndexBuilder.Options(extract: FuzzHarness.sampleExtractPath, output: output))
    let index = try #require(fileBytes(output))
    let manifest = try #require(fileBytes(output + ".json"))
    for hostile in [HostileExtract.emptyFile, .binaryGarbage, .wrongRoot, .noPlaces] {
      let extract = dir.appendingPathComponent("\(hostile.rawValue).osm").path
      try hostile.write(to: extract)
      #expect(throws: (any Error).self) {
        _ = try builder.build(IndexBuilder.Options(extract: extract, output: output))
      }
      try FileManager.default.removeItem(atPath: extract)
    }
    // A truncated copy of the sample.
    let sample = try #require(fileBytes(FuzzHarness.sampleExtractPath))
    let cut = dir.appendingPathComponent("cut.osm").path
    _ = FileManager.default.createFile(atPath: cut, contents: Data(sample.prefix(sample.count / 2)))
    #expect(throws: (any Error).self) {
      _ = try builder.build(IndexBuilder.Options(extract: cut, output: output))
    }
    try FileManager.default.removeItem(atPath: cut)
    #expect(fileBytes(output) == index)
    #expect(fileBytes(output + ".json") == manifest)
    #expect(folderListing(dir.path) == ["out.placeidx", "out.placeidx.json"])

    // An output that cannot be replaced (a folder in its place): an error, the folder intact.
    let blocked = dir.appendingPathComponent("blocked.placeidx")
    try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: blocked.appendingPathComponent("keep").path, contents: Data("x".utf8))
    #expect(throws: (any Error).self) {
      _ = try builder.build(
        IndexBuilder.Options(extract: FuzzHarness.sampleExtractPath, output: blocked.path))
    }
    #expect(folderListing(blocked.path) == ["keep"])
    #expect(
      folderListing(dir.path) == ["blocked.placeidx", "out.placeidx", "out.placeidx.json"])
  }
}
