import Foundation
import PlaceCore

#if canImport(Glibc)
  import Glibc
#endif

/// The second peer: a Photon-style index on Tantivy, in `Benchmarks/peers/tantivy_peer.py`
/// (Python, the `tantivy` package that `make bench-deps` installs into `build/bench/venv`).
/// The harness exports the corpus as JSON lines, has the script build its index from them,
/// and then talks to one `serve` child per thread over pipes: one JSON request a line in, one
/// JSON line of corpus ranks out. Its timings therefore include a pipe round trip and JSON on
/// both sides, about what a server process next to the app would cost.
enum TantivyPeer {
  /// The interpreter to use: `$PLACEIDX_BENCH_PYTHON`, else `build/bench/venv/bin/python3`
  /// under `root`; nil (with the reason) when there is none or it cannot import tantivy.
  static func python(root: String) -> (path: String?, reason: String) {
    let env = ProcessInfo.processInfo.environment["PLACEIDX_BENCH_PYTHON"]
    let path =
      env ?? (root as NSString).appendingPathComponent("build/bench/venv/bin/python3")
    guard FileManager.default.isExecutableFile(atPath: path) else {
      return (nil, "\(path) not found (make bench-deps installs it)")
    }
    let status = (try? Child.run(path, ["-c", "import tantivy"])) ?? -1
    guard status == 0 else { return (nil, "\(path) cannot import tantivy (make bench-deps)") }
    return (path, "")
  }

  static func script(root: String) -> String {
    (root as NSString).appendingPathComponent("Benchmarks/peers/tantivy_peer.py")
  }

  /// The installed tantivy package's version, e.g. "0.27.0".
  static func version(python: String) -> String {
    let tmp = FileManager.default.temporaryDirectory
      .appendingPathComponent("placeidx-bench-tantivy-\(getpid()).txt").path
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let code = "from importlib.metadata import version; print(version('tantivy'))"
    guard (try? Child.run(python, ["-c", code], stdout: tmp)) == 0,
      let text = try? String(contentsOfFile: tmp, encoding: .utf8)
    else { return "?" }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Bytes of the files in `dir` (the index).
  static func directoryBytes(_ dir: String) -> Int {
    let fm = FileManager.default
    let names = (try? fm.contentsOfDirectory(atPath: dir)) ?? []
    return names.reduce(0) { sum, n in
      let p = (dir as NSString).appendingPathComponent(n)
      return sum + ((try? fm.attributesOfItem(atPath: p)[.size] as? Int) ?? 0)
    }
  }

  /// The ranks in an answer line such as `[12,5,7]`; nil for anything else (an error answer).
  static func parseRanks(_ line: [UInt8]) -> [Int]? {
    guard line.first == UInt8(ascii: "["), line.last == UInt8(ascii: "]") else { return nil }
    var ranks: [Int] = []
    var value = 0
    var digits = 0
    for b in line.dropFirst() {
      if b >= 48 && b <= 57 {
        value = value * 10 + Int(b - 48)
        digits += 1
      } else if b == UInt8(ascii: ",") || b == UInt8(ascii: "]") {
        if digits > 0 { ranks.append(value) }
        value = 0
        digits = 0
      } else if b != UInt8(ascii: " ") {
        return nil
      }
    }
    return ranks
  }
}

/// One `tantivy_peer.py serve` child, used by one thread at a time.
final class TantivySession: SearchSession, @unchecked Sendable {
  private let process = Process()
  private let toChild: Int32
  private let fromChild: Int32
  private let toHandle: FileHandle
  private var buffer: [UInt8] = []
  private var closed = false
  private(set) var errors = 0
  /// Milliseconds from starting the child to its `ready` line (Python start, the corpus read,
  /// the index opened).
  private(set) var readyMs = 0.0

  init(python: String, script: String, corpus: String, index: String) throws {
    signal(SIGPIPE, SIG_IGN)
    let input = Pipe()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, "serve", corpus, index]
    process.standardInput = input
    process.standardOutput = output
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    toHandle = input.fileHandleForWriting
    toChild = toHandle.fileDescriptor
    fromChild = output.fileHandleForReading.fileDescriptor
    guard let first = readLine(), first == Array("ready".utf8) else {
      process.terminate()
      throw HarnessError("\(script) serve \(index): no ready line (see its error above)")
    }
    readyMs = seconds(clock.now - start) * 1_000
  }

  deinit { close() }

  /// Ends the child: closes its input (it exits at end of input) and waits.
  func close() {
    guard !closed else { return }
    closed = true
    try? toHandle.close()
    process.waitUntilExit()
  }

  /// The child's resident set, KiB (VmRSS), or 0.
  var residentKiB: Int {
    guard
      let text = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  private func readLine() -> [UInt8]? {
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        let line = Array(buffer[..<nl])
        buffer.removeSubrange(...nl)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let n = chunk.withUnsafeMutableBytes { read(fromChild, $0.baseAddress, 4096) }
      if n <= 0 { return nil }
      buffer.append(contentsOf: chunk[0..<n])
    }
  }

  private func writeAll(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes {
        write(toChild, $0.baseAddress! + offset, bytes.count - offset)
      }
      if n <= 0 { return false }
      offset += n
    }
    return true
  }

  func search(_ query: String, origin: Coordinate?) -> [Int] {
    var line = "{\"q\":" + jsonStringLiteral(query)
    if let o = origin { line += ",\"lat\":\(o.latitude),\"lon\":\(o.longitude)" }
    line += ",\"n\":5}\n"
    guard !closed, writeAll(Array(line.utf8)), let answer = readLine(),
      let ranks = TantivyPeer.parseRanks(answer)
    else {
      errors += 1
      return []
    }
    return ranks
  }
}
