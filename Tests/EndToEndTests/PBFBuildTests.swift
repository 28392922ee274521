import Foundation
import PlaceIndexBuilder
import TestSupport
import Testing

/// The same index from either format: every shared extract built from its XML and from the PBF
/// osmium makes of it gives byte-identical index files (the index header names the extract's
/// file name, so both copies get the same name in different folders). The PBFs are made at test
/// time into temporary folders.
@Suite("PBF builds", .serialized)
struct PBFBuildTests {
  static let extracts = [
    "baltimore-2015.osm.gz", "bayfront-singapore-2019.osm.gz", "campo-grande-2013.osm.gz",
    "helsinki-center-2019.osm", "krems-2013.osm.gz", "liechtenstein-2013-08-03.osm.bz2",
    "liechtenstein-autauga-2021.osm.gz", "manhattan-lower-east-side-2020.osm",
  ]

  static let ready = TestPaths.sharedOSMAvailable && Osmium.available
  static let skipReason = Comment(
    rawValue: Osmium.available
      ? "the shared extracts are not there" : Osmium.skipReason)

  /// Builds `extract` (any path) as a file named `name` in a fresh folder; returns the index bytes.
  static func build(_ extract: String, as name: String) throws -> (Data, BuildReport) {
    let dir = try TestPaths.temporaryDirectory()
    let copy = dir.appendingPathComponent(name).path
    try FileManager.default.createSymbolicLink(atPath: copy, withDestinationPath: extract)
    let out = dir.appendingPathComponent("out.placeidx").path
    let report = try IndexBuilder(tables: try BuildTables(directory: TestPaths.data)).build(
      IndexBuilder.Options(extract: copy, output: out))
    return (try Data(contentsOf: URL(fileURLWithPath: out)), report)
  }

  @Test(
    "every shared extract gives the same index from its PBF as from its XML",
    .enabled(if: ready, skipReason), arguments: extracts)
  func sameIndex(_ name: String) throws {
    let xml = TestPaths.osm(name).path
    let pbf = try Osmium.pbf(of: xml)
    let (fromXML, xmlReport) = try Self.build(xml, as: "extract")
    let (fromPBF, pbfReport) = try Self.build(pbf, as: "extract")
    #expect(xmlReport.read.elements > 1000, "\(name) read \(xmlReport.read.elements) elements")
    #expect(pbfReport.read.nodes == xmlReport.read.nodes)
    #expect(pbfReport.read.ways == xmlReport.read.ways)
    #expect(pbfReport.read.relations == xmlReport.read.relations)
    #expect(pbfReport.read.newestTimestamp == xmlReport.read.newestTimestamp)
    #expect(fromPBF == fromXML, "\(name): the PBF build differs from the XML build")
  }

  @Test(
    "a PBF and the XML osmium writes from it (osmium cat -f osm) build the same index",
    .enabled(if: ready, skipReason))
  func osmiumXMLOfPBF() throws {
    let pbf = try Osmium.pbf(of: TestPaths.osm("krems-2013.osm.gz").path)
    let xml = try TestPaths.temporaryDirectory().appendingPathComponent("krems.osm").path
    try Osmium.convert(pbf, to: xml, format: "osm")
    let (fromXML, report) = try Self.build(xml, as: "krems")
    let (fromPBF, _) = try Self.build(pbf, as: "krems")
    #expect(report.read.elements > 1000)
    #expect(fromPBF == fromXML)
  }

  @Test(
    "plain Nodes instead of DenseNodes give the same index", .enabled(if: ready, skipReason))
  func plainNodes() throws {
    let xml = TestPaths.osm("krems-2013.osm.gz").path
    let dense = try Osmium.pbf(of: xml, dense: true)
    let plain = try Osmium.pbf(of: xml, dense: false)
    let (a, report) = try Self.build(dense, as: "krems")
    let (b, _) = try Self.build(plain, as: "krems")
    #expect(report.read.nodes > 1000)
    #expect(a == b)
  }

  /// Runs `placeidx` with `input` on standard input.
  static func placeidx(_ arguments: [String], stdin input: Data, in dir: URL) throws -> (
    status: Int32, stderr: String
  ) {
    let p = Process()
    p.executableURL = TestPaths.placeidx
    p.arguments = arguments
    p.currentDirectoryURL = dir
    let inp = Pipe()
    let err = Pipe()
    p.standardInput = inp
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let writer = Thread {
      try? inp.fileHandleForWriting.write(contentsOf: input)
      try? inp.fileHandleForWriting.close()
    }
    writer.start()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: e, as: UTF8.self))
  }

  @Test("placeidx build - reads XML, gzip, bzip2 and PBF from standard input, as from a file")
  func standardInput() throws {
    let dir = try TestPaths.temporaryDirectory()
    let sample = try Data(contentsOf: TestPaths.sample)
    // A file named "-" gives the index header the same source name as standard input.
    let named = dir.appendingPathComponent("named")
    try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
    try sample.write(to: named.appendingPathComponent("-"))
    let ref = try Self.placeidx(
      ["build", "named/-", "-o", "ref.placeidx", "--quiet"], stdin: Data(), in: dir)
    #expect(ref.status == 0, "\(ref.stderr)")
    let expected = try Data(contentsOf: dir.appendingPathComponent("ref.placeidx"))
    var inputs: [(String, Data)] = [("plain", sample)]
    for (tool, name) in [("/bin/gzip", "gzip"), ("/bin/bzip2", "bzip2")] {
      let f = dir.appendingPathComponent("s.osm")
      try sample.write(to: f)
      _ = try runProcess(URL(fileURLWithPath: tool), ["-f", f.path])
      let ext = name == "gzip" ? "gz" : "bz2"
      inputs.append((name, try Data(contentsOf: URL(fileURLWithPath: f.path + "." + ext))))
    }
    if Osmium.available {
      inputs.append(
        ("pbf", try Data(contentsOf: URL(fileURLWithPath: Osmium.pbf(of: TestPaths.sample.path)))))
    }
    for (name, bytes) in inputs {
      let r = try Self.placeidx(
        ["build", "-", "-o", "\(name).placeidx", "--quiet"], stdin: bytes, in: dir)
      #expect(r.status == 0, "\(name): \(r.stderr)")
      let built = try? Data(contentsOf: dir.appendingPathComponent("\(name).placeidx"))
      #expect(built == expected, "\(name) from standard input differs from the file build")
    }
    // A pipeline may name "-".
    let pipelines = dir.appendingPathComponent("Pipelines")
    try FileManager.default.createDirectory(at: pipelines, withIntermediateDirectories: true)
    try "extract = -\noutput = piped.placeidx\n".write(
      to: pipelines.appendingPathComponent("piped.pipeline"), atomically: true, encoding: .utf8)
    let piped = try Self.placeidx(
      ["build", "--pipeline", "piped", "--root", dir.path, "--quiet"], stdin: sample, in: dir)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect((try? Data(contentsOf: dir.appendingPathComponent("piped.placeidx"))) == expected)
  }

  @Test("placeidx build - with nothing on standard input: 'no OSM data', exit 1, no file")
  func emptyStandardInput() throws {
    let dir = try TestPaths.temporaryDirectory()
    let r = try Self.placeidx(["build", "-", "-o", "x.placeidx"], stdin: Data(), in: dir)
    #expect(r.status == 1)
    #expect(r.stderr.contains("standard input: no OSM data"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.placeidx").path))
  }
}
