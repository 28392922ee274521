import Foundation
import TestSupport
import Testing

/// README.md works when pasted: every command of its ```sh blocks runs against the sample (with
/// the built placeidx first on PATH), and its ```swift blocks are the example package's code.
@Suite struct ReadmeTests {
  static let readme = TestPaths.repoRoot.appendingPathComponent("README.md")
  static let example = TestPaths.repoRoot.appendingPathComponent("Examples/AppExample")

  /// The lines of every fenced block of `language` in README.md, one array per block.
  static func blocks(_ language: String) throws -> [[String]] {
    let text = try String(contentsOf: readme, encoding: .utf8)
    var result: [[String]] = []
    var current: [String]? = nil
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if current == nil, line == "```" + language {
        current = []
      } else if current != nil, line == "```" {
        result.append(current!)
        current = nil
      } else if current != nil {
        current!.append(line)
      }
    }
    return result
  }

  /// The README's shell commands, without comments and without `make` (the Makefile's own
  /// targets are exercised by `make` and `make test` themselves).
  static func commands() throws -> [String] {
    try blocks("sh").joined().compactMap { line in
      var command = line
      if let hash = command.range(of: "  #") { command = String(command[..<hash.lowerBound]) }
      command = command.trimmingCharacters(in: .whitespaces)
      if command.isEmpty || command.hasPrefix("#") || command.hasPrefix("make") { return nil }
      return command
    }
  }

  @Test func everyReadmeCommandRuns() throws {
    let commands = try Self.commands()
    try #require(commands.count >= 10, "README.md: \(commands.count) commands found")
    // The commands run from a checkout: a folder with Data/sample.osm, placeidx on PATH.
    let root = try TestPaths.temporaryDirectory()
    let bin = root.appendingPathComponent("bin")
    let work = root.appendingPathComponent("checkout")
    try FileManager.default.createDirectory(
      at: work.appendingPathComponent("Data"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: TestPaths.sample, to: work.appendingPathComponent("Data/sample.osm"))
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("placeidx"), withDestinationURL: TestPaths.placeidx)
    var env = TestPaths.environmentWithoutDataOverride
    env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    var commandsRun = Set<String>()
    for command in commands {
      var line = command
      var expectedStatus: Int32 = 0
      if command.contains("placeidx serve") {
        // A server runs until stopped: it must be serving when timeout stops it (a free port
        // instead of the README's, which another process may hold).
        line = "timeout 3 " + command.replacingOccurrences(of: "--port 8080", with: "--port 0")
        expectedStatus = 124
      }
      let r = try runProcess(
        URL(fileURLWithPath: "/bin/sh"), ["-c", line], directory: work, environment: env)
      #expect(r.status == expectedStatus, "README: \(command)\n\(r.stderr)")
      #expect(!r.stdout.isEmpty, "README: \(command) printed nothing")
      #expect(!r.stdout.contains("(no suggestions)"), "README: \(command)\n\(r.stdout)")
      #expect(!r.stdout.contains("\"error\""), "README: \(command)\n\(r.stdout)")
      if let word = command.split(separator: " ").drop(while: { $0 != "placeidx" }).dropFirst()
        .first
      {
        commandsRun.insert(String(word))
      }
    }
    // The README shows every command.
    for c in ["build", "query", "details", "inspect", "verify", "dist", "serve", "pluscode"] {
      #expect(commandsRun.contains(c), "README.md has no `placeidx \(c)` example")
    }
  }

  /// The lines of Examples/AppExample's main.swift between "// README: NAME" and
  /// "// README: end", without their common indentation.
  static func exampleRegion(_ name: String) throws -> [String] {
    let source = try String(
      contentsOf: example.appendingPathComponent("Sources/AppExample/main.swift"), encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasSuffix("// README: \(name)") }),
      let end = lines[start...].firstIndex(where: { $0.hasSuffix("// README: end") })
    else { return [] }
    let region = lines[(start + 1)..<end]
    let indent =
      region.filter { !$0.isEmpty }.map { $0.prefix(while: { $0 == " " }).count }.min()
      ?? 0
    return region.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
  }

  @Test func theReadmeSwiftSnippetsAreTheExamplePackagesCode() throws {
    let snippets = try Self.blocks("swift")
    for name in ["sync", "async"] {
      let region = try Self.exampleRegion(name)
      try #require(region.count > 5, "Examples/AppExample: no README: \(name) region")
      #expect(
        snippets.contains {
          $0.filter { $0 != "import PlaceIndex" && !$0.isEmpty } == region.filter { !$0.isEmpty }
        },
        "README.md has no ```swift block equal to Examples/AppExample's \"README: \(name)\" lines")
    }
  }
}

/// The example package (Examples/AppExample, depending on this repository by path) builds and,
/// run on the sample index, prints what the README says. Slow the first time (a debug build of
/// the library in build/example-app); SKIP_EXAMPLE_BUILD=1 skips it.
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["SKIP_EXAMPLE_BUILD"] != "1",
    "SKIP_EXAMPLE_BUILD=1"))
struct ExamplePackageTests {
  @Test(.timeLimit(.minutes(10))) func theExamplePackageBuildsAndRuns() throws {
    let scratch = TestPaths.repoRoot.appendingPathComponent("build/example-app")
    let build = try runProcess(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "swift", "build", "--package-path", ReadmeTests.example.path, "--scratch-path",
        scratch.path,
      ], directory: TestPaths.repoRoot)
    try #require(
      build.status == 0, "swift build of Examples/AppExample:\n\(build.stdout)\n\(build.stderr)")
    #expect(!build.stdout.contains("warning:"), "\(build.stdout)")
    let dir = try TestPaths.temporaryDirectory()
    let index = dir.appendingPathComponent("sample.placeidx").path
    let b = try runProcess(
      TestPaths.placeidx, ["build", TestPaths.sample.path, "-o", index, "--quiet"])
    try #require(b.status == 0, "\(b.stderr)")
    let run = try runProcess(
      scratch.appendingPathComponent("debug/AppExample"), [], directory: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    // Sync: the pharmacy near the origin, then its details; async: the same place.
    #expect(lines.contains { $0.hasPrefix("N7100074 Apotheke zum Löwen") }, "\(run.stdout)")
    #expect(lines.contains { $0.hasPrefix("Apotheke zum Löwen 8FVF5WM2+W6") }, "\(run.stdout)")
    #expect(lines.filter { $0.hasPrefix("N7100074 ") }.count == 2, "\(run.stdout)")
    #expect(lines.last == "Apotheke zum Löwen", "\(run.stdout)")
  }
}
