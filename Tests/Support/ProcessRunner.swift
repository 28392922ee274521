import Foundation

/// Runs a command in `directory` (the test process's own when nil) with `environment` (likewise),
/// feeding `input` on stdin; returns exit status, stdout and stderr.
public func runProcess(
  _ executable: URL, _ arguments: [String], input: String = "", directory: URL? = nil,
  environment: [String: String]? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
  let p = Process()
  p.executableURL = executable
  p.arguments = arguments
  if let directory { p.currentDirectoryURL = directory }
  if let environment { p.environment = environment }
  let out = Pipe()
  let err = Pipe()
  let inp = Pipe()
  p.standardOutput = out
  p.standardError = err
  p.standardInput = inp
  try p.run()
  inp.fileHandleForWriting.write(Data(input.utf8))
  try inp.fileHandleForWriting.close()
  // Both pipes are drained at once, so that a child filling one of them cannot stall.
  let group = DispatchGroup()
  nonisolated(unsafe) var e = Data()
  group.enter()
  DispatchQueue.global().async {
    e = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let o = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  p.waitUntilExit()
  return (
    p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self)
  )
}

extension TestPaths {
  /// The test process's environment without the variables that point placeidx at a data folder.
  public static var environmentWithoutDataOverride: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["PLACEINDEX_DATA"] = nil
    return env
  }

  /// The self-contained placeidx that `make static` / `make install` build, if it was built.
  public static var staticPlaceidx: URL? {
    let url = repoRoot.appendingPathComponent(".build/install/release/placeidx")
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
  }
}
