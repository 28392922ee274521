import Foundation

/// Where the tests find the repository, the shared data and the built tools.
public enum TestPaths {
  /// The package root (two folders above this file).
  public static let repoRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The shared folder: `PLACEINDEX_SHARED`, else `../shared` beside the checkout.
  public static let shared: URL = {
    if let env = ProcessInfo.processInfo.environment["PLACEINDEX_SHARED"], !env.isEmpty {
      return URL(fileURLWithPath: env)
    }
    return repoRoot.deletingLastPathComponent().appendingPathComponent("shared")
  }()

  /// Whether the shared OSM extracts are present.
  public static var sharedOSMAvailable: Bool {
    FileManager.default.fileExists(atPath: osm("helsinki-center-2019.osm").path)
  }

  /// A shared OSM extract.
  public static func osm(_ name: String) -> URL {
    shared.appendingPathComponent("data/osm").appendingPathComponent(name)
  }

  /// The project's Data/ folder.
  public static var data: String { repoRoot.appendingPathComponent("Data").path }

  /// The `placeidx` executable built beside the test bundle.
  public static var placeidx: URL {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = bundle.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("placeidx")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir.deleteLastPathComponent()
    }
    return repoRoot.appendingPathComponent(".build/release/placeidx")
  }

  /// A fresh temporary folder.
  public static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "placeindex-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// Runs a command, feeding `input` on stdin; returns exit status, stdout and stderr.
public func runProcess(_ executable: URL, _ arguments: [String], input: String = "") throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let p = Process()
  p.executableURL = executable
  p.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  let inp = Pipe()
  p.standardOutput = out
  p.standardError = err
  p.standardInput = inp
  try p.run()
  inp.fileHandleForWriting.write(Data(input.utf8))
  try inp.fileHandleForWriting.close()
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (
    p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self)
  )
}
