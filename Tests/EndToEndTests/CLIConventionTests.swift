import Foundation
import PlaceCore
import PlaceIndexFormat
import TestSupport
import Testing

/// The command line's conventions: `COMMAND --help`, `--version`, exit 2 for every usage
/// error, plus-code clipping, the hint for packed artifacts, and a binary that needs nothing
/// beside it.
@Suite struct CLIConventionTests {
  static let commands = [
    "build", "query", "details", "inspect", "verify", "dist", "serve", "pluscode", "help",
  ]

  /// Builds the sample index with `binary` in `directory` (built-in tables, no Data/ around).
  func buildSample(with binary: URL, in directory: URL) throws -> URL {
    let extract = directory.appendingPathComponent("sample.osm")
    if !FileManager.default.fileExists(atPath: extract.path) {
      try FileManager.default.copyItem(at: TestPaths.sample, to: extract)
    }
    let r = try runProcess(
      binary, ["build", "sample.osm", "-o", "sample.placeidx", "--quiet"], directory: directory,
      environment: TestPaths.environmentWithoutDataOverride)
    try #require(r.status == 0, "build: \(r.stderr)")
    return directory.appendingPathComponent("sample.placeidx")
  }

  @Test func everyCommandPrintsItsHelp() throws {
    for command in Self.commands {
      for flag in ["--help", "-h"] {
        let r = try runProcess(TestPaths.placeidx, [command, flag])
        #expect(r.status == 0, "\(command) \(flag): \(r.stderr)")
        #expect(
          r.stdout.hasPrefix("usage: placeidx \(command)"), "\(command) \(flag): \(r.stdout)")
      }
      // `help COMMAND` prints the same text, and --help wins over missing arguments.
      let viaHelp = try runProcess(TestPaths.placeidx, ["help", command])
      let viaFlag = try runProcess(TestPaths.placeidx, [command, "--help"])
      #expect(viaHelp.status == 0 && viaHelp.stdout == viaFlag.stdout, "help \(command)")
    }
    let withOptions = try runProcess(TestPaths.placeidx, ["query", "--index", "x", "--help"])
    #expect(withOptions.status == 0 && withOptions.stdout.contains("--restrict-circle"))
    // After "--", --help is a query like any other.
    let quoted = try runProcess(TestPaths.placeidx, ["query", "--", "--help"])
    #expect(quoted.status == 2 && quoted.stderr.contains("query needs --index FILE"))
  }

  @Test func versionNamesTheIndexFormat() throws {
    let format = "index format \(IndexLayout.majorVersion).\(IndexLayout.minorVersion)"
    for flag in ["--version", "version"] {
      let r = try runProcess(TestPaths.placeidx, [flag])
      #expect(r.status == 0, "\(flag): \(r.stderr)")
      #expect(r.stdout.hasPrefix("placeidx "), "\(r.stdout)")
      #expect(r.stdout.contains(format), "\(r.stdout)")
    }
  }

  @Test func everyUsageErrorExitsWithTwo() throws {
    let cases: [[String]] = [
      [], ["frobnicate"], ["--frobnicate"], ["help", "frobnicate"], ["--version", "x"],
      ["build"], ["build", "a.osm"], ["build", "a.osm", "-o"],
      ["build", "--pipeline", "x", "a.osm"],
      ["build", "a.osm", "-o", "b", "--bogus"], ["build", "a.osm", "-o", "b", "--quiet=yes"],
      ["query"], ["query", "--index", "x"], ["query", "--index", "x", "a", "b"],
      ["query", "--index", "x", "a", "--max", "many"],
      ["query", "--index", "x", "a", "--origin", "1"],
      ["query", "--index", "x", "a", "--offset", "x"], ["query", "--index", "x", "--jsonl", "a"],
      ["details"], ["details", "--index", "x"],
      ["details", "--index", "x", "N1", "--fields", "bogus"],
      ["inspect"], ["inspect", "a", "b"], ["verify"], ["dist"], ["dist", "--index", "a", "b"],
      ["serve"], ["serve", "--index", "x", "--port", "70000"], ["serve", "--bogus"],
      ["pluscode"], ["pluscode", "frobnicate"], ["pluscode", "encode", "1"],
      ["pluscode", "encode", "1", "2", "3"], ["pluscode", "encode", "north", "2"],
      ["pluscode", "encode", "1", "2", "--length", "x"],
      ["pluscode", "encode", "1", "2", "--length", "3"],
      ["pluscode", "encode", "1", "2", "--bogus", "1"], ["pluscode", "decode"],
      ["pluscode", "shorten", "8FVC9G8F+6X"],
      ["pluscode", "shorten", "8FVC9G8F+6X", "--ref", "47"],
      ["pluscode", "recover", "9G8F+6X", "--ref", "95,8"],
    ]
    for args in cases {
      let r = try runProcess(TestPaths.placeidx, args)
      #expect(r.status == 2, "placeidx \(args.joined(separator: " ")): \(r.status) \(r.stderr)")
      #expect(r.stderr.hasPrefix("placeidx"), "\(args): \(r.stderr)")
      #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
    }
  }

  @Test func badInputExitsWithOne() throws {
    let missing = "/nonexistent/sample.placeidx"
    let cases: [[String]] = [
      ["query", "--index", missing, "apo"], ["details", "--index", missing, "N1"],
      ["inspect", missing], ["verify", missing], ["build", "/nonexistent/a.osm", "-o", "/tmp/x"],
      ["pluscode", "decode", "ZZZZ+ZZ"], ["pluscode", "shorten", "9G8F+6X", "--ref", "1,2"],
    ]
    for args in cases {
      let r = try runProcess(TestPaths.placeidx, args)
      #expect(r.status == 1, "placeidx \(args.joined(separator: " ")): \(r.status) \(r.stderr)")
      #expect(!r.stderr.isEmpty, "\(args)")
    }
  }

  @Test func plusCodeEncodeClipsAndNormalizesWithANote() throws {
    let cases: [(lat: String, lng: String, note: String?)] = [
      ("92", "1", "latitude 92.0 clipped to 90.0"),
      ("-100", "1", "latitude -100.0 clipped to -90.0"),
      ("10", "190", "longitude 190.0 normalized to -170.0"),
      ("10", "-540", "longitude -540.0 normalized to -180.0"),
      ("10", "180", "longitude 180.0 normalized to -180.0"), ("47.1848", "9.9006", nil),
    ]
    for c in cases {
      let r = try runProcess(TestPaths.placeidx, ["pluscode", "encode", c.lat, c.lng])
      let expected = try OpenLocationCode.encode(
        latitude: Double(c.lat)!, longitude: Double(c.lng)!,
        codeLength: OpenLocationCode.defaultCodeLength)
      #expect(r.status == 0, "\(c): \(r.stderr)")
      #expect(r.stdout == expected + "\n", "\(c)")
      if let note = c.note {
        #expect(r.stderr.contains(note), "\(c): \(r.stderr)")
      } else {
        #expect(r.stderr.isEmpty, "\(c): \(r.stderr)")
      }
    }
  }

  @Test func packedArtifactsGetAHint() throws {
    let dir = try TestPaths.temporaryDirectory()
    let index = try buildSample(with: TestPaths.placeidx, in: dir)
    let d = try runProcess(TestPaths.placeidx, ["dist", "--index", index.path, "-o", dir.path])
    try #require(d.status == 0, "dist: \(d.stderr)")
    let tar = String(d.stdout.split(separator: "\n")[0])
    try #require(tar.hasSuffix(".placeidx.tar"))
    let hint =
      "\(tar): this is a packed .placeidx.tar; unpack it with tar -xf or pass the .placeidx inside"
    for args in [
      ["query", "--index", tar, "apo"], ["details", "--index", tar, "N7100074"], ["inspect", tar],
    ] {
      let r = try runProcess(TestPaths.placeidx, args)
      #expect(r.status == 1, "\(args): \(r.stderr)")
      #expect(r.stderr == "placeidx: \(hint)\n", "\(args)")
    }
    // An index named .tar is still an index; verify reads the packed artifact itself.
    let renamed = dir.appendingPathComponent("index.tar")
    try FileManager.default.copyItem(at: index, to: renamed)
    let q = try runProcess(TestPaths.placeidx, ["query", "--index", renamed.path, "apotheke"])
    #expect(q.status == 0 && q.stdout.contains("[N7100074]"), "\(q.stdout) \(q.stderr)")
    let v = try runProcess(TestPaths.placeidx, ["verify", tar])
    #expect(v.status == 0 && v.stdout.contains(": OK"), "\(v.stderr)")
  }

  /// The binary copied alone into an empty folder builds and queries the sample from another
  /// working directory: the data tables are inside it.
  func checkRunsAlone(_ binary: URL) throws {
    let root = try TestPaths.temporaryDirectory()
    let bin = root.appendingPathComponent("bin")
    let work = root.appendingPathComponent("work")
    for d in [bin, work] {
      try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    }
    let copy = bin.appendingPathComponent("placeidx")
    try FileManager.default.copyItem(at: binary, to: copy)
    let index = try buildSample(with: copy, in: work)
    let env = TestPaths.environmentWithoutDataOverride
    let q = try runProcess(
      copy, ["query", "--index", "sample.placeidx", "apotheke", "--origin", "47.185,9.9"],
      directory: work, environment: env)
    #expect(q.status == 0, "\(q.stderr)")
    #expect(q.stdout.contains("[N7100074]"), "\(q.stdout)")
    let details = try runProcess(
      copy, ["details", "--index", index.path, "N7100074", "--fields", "types"], directory: bin,
      environment: env)
    #expect(details.stdout.contains("pharmacy"), "\(details.stdout) \(details.stderr)")
    // --data and PLACEINDEX_DATA still name a folder of tables, and a missing one is an error.
    let missing = root.appendingPathComponent("no-tables").path
    let withOption = try runProcess(
      copy, ["build", "sample.osm", "-o", "other.placeidx", "--data", missing, "--quiet"],
      directory: work, environment: env)
    #expect(withOption.status == 1)
    #expect(withOption.stderr.contains("\(missing)/place_types.tsv: missing data table"))
    var withVariable = env
    withVariable["PLACEINDEX_DATA"] = missing
    let viaEnv = try runProcess(
      copy, ["build", "sample.osm", "-o", "other.placeidx", "--quiet"], directory: work,
      environment: withVariable)
    #expect(viaEnv.status == 1 && viaEnv.stderr.contains("\(missing)/place_types.tsv"))
    #expect(
      !FileManager.default.fileExists(atPath: work.appendingPathComponent("other.placeidx").path))
  }

  @Test func theBinaryAloneBuildsAndQueries() throws {
    try checkRunsAlone(TestPaths.placeidx)
  }

  /// The self-contained build (`make static`, `make install`) links no Swift library from the
  /// toolchain; checked when it was built.
  @Test(.enabled(if: TestPaths.staticPlaceidx != nil, "make static has not built .build/install"))
  func theStaticBinaryNeedsNoToolchain() throws {
    let binary = try #require(TestPaths.staticPlaceidx)
    let ldd = try runProcess(URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path])
    #expect(ldd.status == 0 && ldd.stdout.contains("libc.so"), "\(ldd.stdout) \(ldd.stderr)")
    for library in ldd.stdout.split(separator: "\n") {
      #expect(!library.contains("libswift") && !library.contains("libFoundation"), "\(library)")
      #expect(!library.contains("/opt/swift") && !library.contains("lib_Foundation"), "\(library)")
    }
    try checkRunsAlone(binary)
  }
}

/// Every row of the Open Location Code reference encoding.csv, through `placeidx pluscode
/// encode` (the library's own test reads it too; this one checks the command line's handling).
@Suite(
  .enabled(
    if: FileManager.default.fileExists(
      atPath: TestPaths.olc.appendingPathComponent("encoding.csv").path),
    "needs ../shared/data/olc (set PLACEINDEX_SHARED)"))
struct PlusCodeCommandLineTests {
  @Test func encodingCSVThroughTheCommandLine() throws {
    let text = try String(
      contentsOf: TestPaths.olc.appendingPathComponent("encoding.csv"), encoding: .utf8)
    var checked = 0
    var failures = 0
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      try #require(f.count == 6, "encoding.csv line \(number + 1)")
      let r = try runProcess(
        TestPaths.placeidx, ["pluscode", "encode", f[0], f[1], "--length", f[4]])
      if f[5].isEmpty {
        // A length the specification does not allow: a bad command line.
        #expect(r.status == 2 && r.stderr.contains("length"), "line \(number + 1): \(r)")
        if r.status != 2 { failures += 1 }
      } else {
        #expect(r.status == 0 && r.stdout == f[5] + "\n", "line \(number + 1): \(line): \(r)")
        if r.stdout != f[5] + "\n" { failures += 1 }
      }
      checked += 1
    }
    try #require(checked > 250, "encoding.csv: \(checked) rows")
    #expect(failures == 0)
  }
}
