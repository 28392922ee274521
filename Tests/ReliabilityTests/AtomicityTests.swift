import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `placeidx build` killed with SIGKILL at random (seeded) moments leaves the previous index and
/// manifest untouched, never a partial file under the final name, and the next build leaves no
/// temporary files behind.
@Suite("Atomic writes under SIGKILL")
struct AtomicityTests {
  /// A small extract whose index differs from the sample's: the "previous" artifact.
  static let previousExtract = osmDocument(
    """
    <node id="1" lat="47.18" lon="9.9"><tag k="name" v="Altes Rathaus"/><tag k="amenity" v="townhall"/></node>
    <node id="2" lat="47.19" lon="9.91"><tag k="name" v="Alte Post"/><tag k="amenity" v="post_office"/></node>
    """)

  /// The prefix of the builder's temporary files (ArtifactWriter.temporaryPrefix).
  static let temporaryPrefix = ".placeidx-tmp-"

  /// When a round kills the build.
  enum Moment: CustomStringConvertible {
    /// After this fraction of a build's duration.
    case fraction(Double)
    /// As soon as the temporary file of the index (or of the manifest) appears.
    case temporary(manifest: Bool)

    var description: String {
      switch self {
      case .fraction(let f): "at \(Int(f * 100))%"
      case .temporary(let manifest): "writing the \(manifest ? "manifest" : "index")"
      }
    }
  }

  /// Runs `placeidx build EXTRACT -o OUTPUT --quiet`; returns the process, started.
  func startBuild(_ extract: String, _ output: String) throws -> Process {
    let p = Process()
    p.executableURL = TestPaths.placeidx
    p.arguments = ["build", extract, "-o", output, "--quiet"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
  }

  @Test(
    "SIGKILL at 12 moments of a build, 6 of them while a file is written", .timeLimit(.minutes(8)))
  func killedBuilds() throws {
    let dir = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let output = dir.appendingPathComponent("out.placeidx").path
    let old = dir.appendingPathComponent("old.osm").path
    try Self.previousExtract.write(toFile: old, atomically: false, encoding: .utf8)
    let sample = FuzzHarness.sampleExtractPath

    // The previous artifact, and the new one (built elsewhere) with the time a build takes.
    let first = try startBuild(old, output)
    first.waitUntilExit()
    try #require(first.terminationStatus == 0, "placeidx build failed: \(TestPaths.placeidx.path)")
    let oldIndex = try #require(fileBytes(output))
    let oldManifest = try #require(fileBytes(output + ".json"))
    let reference = dir.appendingPathComponent("reference")
    try FileManager.default.createDirectory(at: reference, withIntermediateDirectories: true)
    let referenceOutput = reference.appendingPathComponent("out.placeidx").path
    let start = Date()
    let full = try startBuild(sample, referenceOutput)
    full.waitUntilExit()
    let duration = Date().timeIntervalSince(start)
    try #require(full.terminationStatus == 0)
    let newIndex = try #require(fileBytes(referenceOutput))
    let newManifest = try #require(fileBytes(referenceOutput + ".json"))
    try #require(newIndex != oldIndex && newManifest != oldManifest)

    var rng = SeededGenerator(seed: 0xA70_111C)
    var outcomes: [String] = []
    // 6 moments spread over the whole build; 3 the moment the index's temporary file appears
    // (killed while writing it); 3 the moment the manifest's temporary file appears (the index
    // already renamed into place).
    let moments: [Moment] =
      (0..<6).map { _ in .fraction(rng.double(in: 0...1)) }
      + Array(repeating: .temporary(manifest: false), count: 3)
      + Array(repeating: .temporary(manifest: true), count: 3)
    for (round, moment) in moments.enumerated() {
      let build = try startBuild(sample, output)
      switch moment {
      case .fraction(let f): usleep(UInt32(duration * f * 1_000_000))
      case .temporary(let manifest):
        let name =
          "\(Self.temporaryPrefix)\(build.processIdentifier)-out.placeidx\(manifest ? ".json" : "")"
        let deadline = Date().addingTimeInterval(30)
        while build.isRunning && Date() < deadline && !folderListing(dir.path).contains(name) {}
      }
      kill(build.processIdentifier, SIGKILL)
      build.waitUntilExit()
      let killed = build.terminationReason == .uncaughtSignal
      let index = fileBytes(output)
      let manifest = fileBytes(output + ".json")
      let indexState = index == oldIndex ? "old" : index == newIndex ? "new" : "PARTIAL"
      let manifestState =
        manifest == oldManifest ? "old" : manifest == newManifest ? "new" : "PARTIAL"
      outcomes.append(
        "\(moment): \(killed ? "killed" : "finished"), \(indexState)/\(manifestState)")
      #expect(indexState != "PARTIAL", "round \(round): the index under the final name is partial")
      #expect(manifestState != "PARTIAL", "round \(round): the manifest is partial")
      if killed {
        // Killed: both files are the previous ones, or both new when the kill came after the
        // last rename. Both temporaries are written and flushed before either rename, so the
        // only other state is the instant between the two renames (index first): a new index
        // with the old manifest. POSIX has no rename of two files at once; docs/LIMITS.md
        // says so. A manifest never describes an index that is not there (old index, new
        // manifest) and no file is ever partial.
        #expect(
          indexState == manifestState || (indexState == "new" && manifestState == "old"),
          "round \(round) (\(moment)): index \(indexState), manifest \(manifestState)")
      } else {
        #expect(indexState == "new" && manifestState == "new")
      }
      // Back to the previous artifact for the next round; stray temporaries stay.
      try Data(oldIndex).write(to: URL(fileURLWithPath: output))
      try Data(oldManifest).write(to: URL(fileURLWithPath: output + ".json"))
    }
    let strays = folderListing(dir.path).filter { $0.hasPrefix(Self.temporaryPrefix) }
    // Whether a kill landed mid-write depends on the machine's speed; say so rather than fail.
    print("atomicity: \(strays.count) temporaries left by killed builds; \(outcomes)")
    // The next complete build replaces both and removes every temporary a killed build left.
    let last = try startBuild(sample, output)
    last.waitUntilExit()
    #expect(last.terminationStatus == 0)
    #expect(fileBytes(output) == newIndex)
    #expect(fileBytes(output + ".json") == newManifest)
    #expect(
      folderListing(dir.path) == ["old.osm", "out.placeidx", "out.placeidx.json", "reference"],
      "\(outcomes)")
  }
}
