import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child run under `/usr/bin/time` (wall, CPU, peak RSS) whose memory is also sampled from
/// `/proc/PID/status` every 20 ms: the peak of `RssAnon` (heap and stacks, without mapped
/// files) and of `VmHWM` (the kernel's high-water mark of the whole resident set).
struct SampledRun: Codable, Sendable {
  var run: ProcessRun
  var peakAnonKiB: Int
  var peakHWMKiB: Int
  var samples: Int
}

/// The samples so far, shared with the sampling thread.
private final class Samples: @unchecked Sendable {
  private let lock = NSLock()
  private var anon = 0
  private var hwm = 0
  private var count = 0
  private var done = false

  func add(anon a: Int, hwm h: Int) {
    lock.lock()
    anon = max(anon, a)
    hwm = max(hwm, h)
    count += 1
    lock.unlock()
  }
  func finish() {
    lock.lock()
    done = true
    lock.unlock()
  }
  var isDone: Bool {
    lock.lock()
    defer { lock.unlock() }
    return done
  }
  var figures: (Int, Int, Int) {
    lock.lock()
    defer { lock.unlock() }
    return (anon, hwm, count)
  }
}

extension Child {
  /// Runs `executable` with `arguments` under `/usr/bin/time`, sampling the memory of the
  /// timed process; `feed`, when given, writes the child's standard input (then closed);
  /// `stdout`, when given, is a file that receives the child's standard output.
  static func sampled(
    _ executable: String, _ arguments: [String], stdout: String? = nil,
    feed: ((FileHandle) throws -> Void)? = nil
  ) throws -> SampledRun {
    let tmp = FileManager.default.temporaryDirectory
    let timeFile = tmp.appendingPathComponent("placeidx-bench-stime-\(getpid()).txt").path
    let errFile = tmp.appendingPathComponent("placeidx-bench-serr-\(getpid()).txt").path
    defer {
      try? FileManager.default.removeItem(atPath: timeFile)
      try? FileManager.default.removeItem(atPath: errFile)
    }
    _ = FileManager.default.createFile(atPath: errFile, contents: nil)
    guard let err = FileHandle(forWritingAtPath: errFile) else {
      throw HarnessError("cannot write \(errFile)")
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    p.arguments = ["-f", "%e %U %S %M", "-o", timeFile, executable] + arguments
    var out = FileHandle.nullDevice
    if let stdout {
      _ = FileManager.default.createFile(atPath: stdout, contents: nil)
      guard let h = FileHandle(forWritingAtPath: stdout) else {
        throw HarnessError("cannot write \(stdout)")
      }
      out = h
    }
    p.standardOutput = out
    p.standardError = err
    let pipe = feed == nil ? nil : Pipe()
    p.standardInput = pipe ?? FileHandle.nullDevice
    try p.run()
    let timePID = p.processIdentifier
    let samples = Samples()
    let sampler = Thread {
      var child: Int32 = 0
      while !samples.isDone {
        if child == 0,
          let text = try? String(
            contentsOfFile: "/proc/\(timePID)/task/\(timePID)/children", encoding: .utf8),
          let pid = Int32(text.split(separator: " ").first ?? "")
        {
          child = pid
        }
        if child != 0,
          let status = try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8)
        {
          var anon = 0
          var hwm = 0
          for line in status.split(separator: "\n") {
            if line.hasPrefix("RssAnon:") { anon = kib(line) }
            if line.hasPrefix("VmHWM:") { hwm = kib(line) }
          }
          samples.add(anon: anon, hwm: hwm)
        }
        usleep(20_000)
      }
    }
    sampler.start()
    var feedError: Error? = nil
    if let pipe, let feed {
      do { try feed(pipe.fileHandleForWriting) } catch { feedError = error }
      try? pipe.fileHandleForWriting.close()
    }
    p.waitUntilExit()
    samples.finish()
    try? err.close()
    if stdout != nil { try? out.close() }
    if let feedError, p.terminationStatus == 0 { throw feedError }
    guard p.terminationStatus == 0 else {
      let text = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
      throw HarnessError(
        "\(executable) \(arguments.joined(separator: " ")) failed (\(p.terminationStatus)): \(text)"
      )
    }
    let text = (try? String(contentsOfFile: timeFile, encoding: .utf8)) ?? ""
    let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
    let f = lastLine.split(separator: " ").map(String.init)
    guard f.count == 4, let e = Double(f[0]), let u = Double(f[1]), let s = Double(f[2]),
      let m = Int(f[3])
    else { throw HarnessError("cannot read /usr/bin/time output '\(text)'") }
    let (anon, hwm, count) = samples.figures
    return SampledRun(
      run: ProcessRun(wall: e, user: u, sys: s, peakRSSKiB: m), peakAnonKiB: anon,
      peakHWMKiB: max(hwm, 0), samples: count)
  }

  private static func kib(_ line: Substring) -> Int {
    Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
