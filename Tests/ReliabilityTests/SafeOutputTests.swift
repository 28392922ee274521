import Foundation
import PlaceIndexBuilder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `-o` replaces only a regular file or a new path and never the input; a lock next to the
/// output serialises writers; two builds to one output never leave a manifest that does not
/// match the index.
@Suite("Safe outputs")
struct SafeOutputTests {
  func build(_ extract: String, _ output: String) throws {
    _ = try IndexBuilder(tables: FuzzHarness.tables).build(
      IndexBuilder.Options(extract: extract, output: output))
  }

  @Test("-o refuses a character device, a folder and a FIFO, and leaves them as they were")
  func notRegular() throws {
    let dir = try TestPaths.temporaryDirectory()
    let fifo = dir.appendingPathComponent("pipe").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let folder = dir.appendingPathComponent("folder").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let sample = FuzzHarness.sampleExtractPath
    let reason = "; the output must be a regular file or a new path"
    #expect(
      throws: BuildError.unsafeOutput(path: "/dev/null", reason: "is a character device" + reason)
    ) {
      try build(sample, "/dev/null")
    }
    #expect(throws: BuildError.unsafeOutput(path: folder, reason: "is a directory" + reason)) {
      try build(sample, folder)
    }
    #expect(throws: BuildError.unsafeOutput(path: fifo, reason: "is a FIFO" + reason)) {
      try build(sample, fifo)
    }
    // The manifest's path is checked too.
    let index = dir.appendingPathComponent("x.placeidx").path
    try FileManager.default.createDirectory(
      atPath: index + ".json", withIntermediateDirectories: true)
    #expect(
      throws: BuildError.unsafeOutput(path: index + ".json", reason: "is a directory" + reason)
    ) {
      try build(sample, index)
    }
    #expect(!FileManager.default.fileExists(atPath: index))
    var st = stat()
    #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
    #expect(stat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO)
    #expect(folderListing(folder).isEmpty)
  }

  @Test("-o refuses the input itself, also through a symbolic link and a hard link")
  func notTheInput() throws {
    let dir = try TestPaths.temporaryDirectory()
    let input = dir.appendingPathComponent("s.osm").path
    try FileManager.default.copyItem(atPath: FuzzHarness.sampleExtractPath, toPath: input)
    let original = try #require(fileBytes(input))
    let link = dir.appendingPathComponent("link.placeidx").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
    let hard = dir.appendingPathComponent("hard.placeidx").path
    try FileManager.default.linkItem(atPath: input, toPath: hard)
    let reason = "is the input \(input); writing it would destroy the input"
    for output in [input, link, hard] {
      #expect(throws: BuildError.unsafeOutput(path: output, reason: reason)) {
        try build(input, output)
      }
    }
    #expect(fileBytes(input) == original)
    // Through the command line: a clear message and a failing exit status.
    let run = try runProcess(TestPaths.placeidx, ["build", input, "-o", input, "--quiet"])
    #expect(run.status != 0)
    #expect(run.stderr.contains("refusing to write the output: is the input"), "\(run.stderr)")
    #expect(fileBytes(input) == original)
  }

  @Test("dist -o refuses a file where the folder should be")
  func distFolder() throws {
    let dir = try TestPaths.temporaryDirectory()
    let index = dir.appendingPathComponent("s.placeidx").path
    try build(FuzzHarness.sampleExtractPath, index)
    let packed = try PackedArtifact(indexPath: index)
    #expect(
      throws: BuildError.unsafeOutput(
        path: index,
        reason: "is not a folder; a split build writes one index per country into a folder")
    ) { _ = try packed.write(toDirectory: index) }
  }

  @Test("a build waits while another process holds the output's lock", .timeLimit(.minutes(6)))
  func waitsForLock() throws {
    let dir = try TestPaths.temporaryDirectory()
    let output = dir.appendingPathComponent("locked.placeidx").path
    let lock = try OutputLock(for: output, exclusive: true)
    let p = Process()
    p.executableURL = TestPaths.placeidx
    p.arguments = ["build", FuzzHarness.sampleExtractPath, "-o", output, "--quiet"]
    try p.run()
    // Long enough for the build to reach its write (a sample build takes well under this).
    var waited = 0
    while waited < 100 && !folderListing(dir.path).contains(where: { $0.hasSuffix(".lock") }) {
      usleep(50_000)
      waited += 1
    }
    sleep(3)
    #expect(p.isRunning, "the build did not wait for the lock")
    #expect(!FileManager.default.fileExists(atPath: output))
    lock.release()
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    #expect(try PackedArtifact(indexPath: output).manifest.size > 0)
    // The lock file goes with the writer that held it last.
    #expect(folderListing(dir.path) == ["locked.placeidx", "locked.placeidx.json"])
  }

  @Test(
    "two builds to one output at once never leave a mismatched manifest", .timeLimit(.minutes(10)))
  func concurrentBuilds() throws {
    let dir = try TestPaths.temporaryDirectory()
    let other = dir.appendingPathComponent("other.osm").path
    try AtomicityTests.previousExtract.write(toFile: other, atomically: false, encoding: .utf8)
    let output = dir.appendingPathComponent("out.placeidx").path
    var winners: [String: Int] = [:]
    for trial in 0..<12 {
      let builds = [FuzzHarness.sampleExtractPath, other].map { extract -> Process in
        let p = Process()
        p.executableURL = TestPaths.placeidx
        p.arguments = ["build", extract, "-o", output, "--quiet"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        return p
      }
      for p in trial % 2 == 0 ? builds : builds.reversed() { try p.run() }
      for p in builds { p.waitUntilExit() }
      #expect(builds.allSatisfy { $0.terminationStatus == 0 }, "trial \(trial)")
      // PackedArtifact refuses a manifest whose size or sha256 does not match the index.
      do {
        let packed = try PackedArtifact(indexPath: output)
        winners[packed.manifest.dataVersion.source, default: 0] += 1
      } catch {
        Issue.record("trial \(trial): \(error)")
      }
      #expect(
        !folderListing(dir.path).contains {
          $0.hasSuffix(".lock") || $0.hasPrefix(".placeidx-tmp-")
        })
    }
    #expect(winners.values.reduce(0, +) == 12, "\(winners)")
  }
}
