import Foundation
import Testing

/// Replays the checked-in fuzz inputs through the fuzz targets' bodies (FuzzHarness.swift is the
/// same file the Fuzz package compiles): the crashing inputs the fuzzers found, kept in
/// Fuzz/Corpus/regressions/<target>/, and the hand-written seeds in Fuzz/Corpus/<target>/.
/// Each input runs in a child process, so that a crash fails its own test.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  /// One checked-in input: its target ("index", "osm", "request" or "pbf") and its path.
  struct Input: Codable, Sendable, CustomTestStringConvertible {
    var target: String
    var path: String

    var testDescription: String {
      target + "/" + (path as NSString).lastPathComponent
    }
  }

  /// The inputs under Fuzz/Corpus/`folder`/<target>/.
  static func inputs(in folder: String) -> [Input] {
    let root = FuzzHarness.repositoryRoot + "/Fuzz/Corpus/" + folder
    var out: [Input] = []
    for target in ["index", "osm", "request", "pbf"] {
      let dir = root + "/" + target
      for name in folderListing(dir) where !name.hasPrefix(".") && name != "README.md" {
        out.append(Input(target: target, path: dir + "/" + name))
      }
    }
    return out
  }

  static let regressions = inputs(in: "regressions")
  static let seeds = inputs(in: "")

  /// Runs `input` through its target's body.
  static func replay(_ input: Input) {
    let bytes = fileBytes(input.path) ?? []
    switch input.target {
    case "index": FuzzHarness.indexReader(bytes)
    case "osm": FuzzHarness.osmExtract(bytes)
    case "pbf": FuzzHarness.pbf(bytes)
    default: FuzzHarness.request(bytes)
    }
  }

  @Test("crashing inputs the fuzzers found", arguments: regressions)
  func regression(_ input: Input) async {
    await #expect(processExitsWith: .success, "\(input.testDescription)") { [input] in
      failIfStillRunning(after: 60)
      FuzzRegressionTests.replay(input)
    }
  }

  @Test("hand-written seeds of the fuzz corpora")
  func seeds() async {
    #expect(!Self.seeds.isEmpty)
    await #expect(processExitsWith: .success) {
      failIfStillRunning(after: 120)
      for input in FuzzRegressionTests.seeds { FuzzRegressionTests.replay(input) }
    }
  }
}
