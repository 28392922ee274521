import Foundation

#if canImport(Glibc)
  import Glibc
#endif

func seconds(_ d: Duration) -> Double {
  Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func nanoseconds(_ d: Duration) -> Int64 {
  d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000
}

/// A bytes figure with a name (a section of the index, a table of the peer's database).
struct NamedSize: Codable, Sendable {
  var name: String
  var bytes: Int
}

/// What `/usr/bin/time` saw of one child process.
struct ProcessRun: Codable, Sendable {
  /// Wall time, seconds.
  var wall: Double
  /// User and system CPU time, seconds.
  var user: Double
  var sys: Double
  /// Peak resident set size, KiB.
  var peakRSSKiB: Int

  var cpu: Double { user + sys }

  /// The run with the median wall time.
  static func median(_ runs: [ProcessRun]) -> ProcessRun {
    let sorted = runs.sorted { $0.wall < $1.wall }
    return sorted[(sorted.count - 1) / 2]
  }
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

enum Child {
  /// Runs `executable` with `arguments` under `/usr/bin/time`; stdout goes to `stdout` (a
  /// path) or nowhere. Throws with the child's stderr when it fails.
  static func timed(_ executable: String, _ arguments: [String], stdout: String? = nil) throws
    -> ProcessRun
  {
    let tmp = FileManager.default.temporaryDirectory
    let timeFile = tmp.appendingPathComponent("placeidx-bench-time-\(getpid()).txt").path
    let errFile = tmp.appendingPathComponent("placeidx-bench-err-\(getpid()).txt").path
    defer {
      try? FileManager.default.removeItem(atPath: timeFile)
      try? FileManager.default.removeItem(atPath: errFile)
    }
    let status = try run(
      "/usr/bin/time", ["-f", "%e %U %S %M", "-o", timeFile, executable] + arguments,
      stdout: stdout, stderr: errFile)
    guard status == 0 else {
      let err = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
      throw HarnessError(
        "\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(err)")
    }
    let text = (try? String(contentsOfFile: timeFile, encoding: .utf8)) ?? ""
    let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
    let f = lastLine.split(separator: " ").map(String.init)
    guard f.count == 4, let e = Double(f[0]), let u = Double(f[1]), let s = Double(f[2]),
      let m = Int(f[3])
    else { throw HarnessError("cannot read /usr/bin/time output '\(text)'") }
    return ProcessRun(wall: e, user: u, sys: s, peakRSSKiB: m)
  }

  /// Runs a process to completion; returns its exit status.
  @discardableResult
  static func run(
    _ executable: String, _ arguments: [String], stdout: String? = nil, stderr: String? = nil
  ) throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    func handle(_ path: String?) throws -> FileHandle {
      guard let path else { return FileHandle.nullDevice }
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      guard let h = FileHandle(forWritingAtPath: path) else {
        throw HarnessError("cannot write \(path)")
      }
      return h
    }
    let out = try handle(stdout)
    let err = try handle(stderr)
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    if stdout != nil { try? out.close() }
    if stderr != nil { try? err.close() }
    return p.terminationStatus
  }

  /// Runs a process and returns what it printed (stdout and stderr), or "" when it cannot run.
  static func output(_ executable: String, _ arguments: [String]) -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    p.standardInput = FileHandle.nullDevice
    do { try p.run() } catch { return "" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

/// User and system CPU seconds of this process so far (all threads).
func processCPUSeconds() -> Double {
  var usage = rusage()
  #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// This process's resident set size, KiB (VmRSS in /proc/self/status; 0 where unknown).
func residentKiB() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
  return 0
}

/// The machine the harness ran on.
struct MachineInfo: Codable, Sendable {
  var cpu: String
  var cores: Int
  var memoryGiB: Double
  var os: String
  var kernel: String
  var swift: String
  var sqlite: String
  var libxml2: String
  /// 1, 5 and 15 minute load averages when the run started and ended: the machine is shared.
  var loadAtStart: String
  var loadAtEnd: String

  static func current() -> MachineInfo {
    func read(_ path: String) -> String {
      (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
    let cpu =
      read("/proc/cpuinfo").split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmed } ?? "unknown"
    let memKiB =
      read("/proc/meminfo").split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
      .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    let os =
      read("/etc/os-release").split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
      .map { String($0.dropFirst("PRETTY_NAME=".count)).replacingOccurrences(of: "\"", with: "") }
      ?? "unknown"
    let swift =
      Child.output("/usr/bin/env", ["swift", "--version"]).split(separator: "\n")
      .first { $0.contains("Swift version") }.map { String($0).trimmed } ?? "unknown"
    let xml =
      Child.output("/usr/bin/xmllint", ["--version"]).split(separator: "\n").first.map {
        String($0).trimmed
      } ?? "unknown"
    return MachineInfo(
      cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount,
      memoryGiB: (memKiB / 1_048_576 * 10).rounded() / 10, os: os,
      kernel: read("/proc/sys/kernel/osrelease").trimmed, swift: swift, sqlite: sqliteVersion,
      libxml2: xml, loadAtStart: loadAverage(), loadAtEnd: "")
  }

  static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

extension String {
  var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Progress lines on stderr, with the time since the harness started.
final class Progress: @unchecked Sendable {
  private let start = ContinuousClock.now

  func say(_ text: String) {
    let t = String(format: "%6.1f", seconds(ContinuousClock.now - start))
    FileHandle.standardError.write(Data("[\(t) s] \(text)\n".utf8))
  }

  var elapsed: Double { seconds(ContinuousClock.now - start) }
}
