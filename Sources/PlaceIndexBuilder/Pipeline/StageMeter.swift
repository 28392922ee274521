import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One stage of a build: its wall and CPU seconds and the process's memory at its end.
public struct BuildStage: Sendable {
  /// read, admin, assemble, compile, write.
  public var name: String
  public var seconds: Double
  /// User and system CPU seconds of the whole process (all threads) in the stage.
  public var cpuSeconds: Double
  /// Anonymous resident memory (heap, stacks) at the stage's end, KiB (Linux; else 0).
  public var rssAnonKiB: Int
  /// Peak resident memory of the process so far (`VmHWM`), KiB (Linux; else 0).
  public var peakRSSKiB: Int
}

/// Measures stages one after another.
struct StageMeter {
  private var wall = ContinuousClock.now
  private var cpu = StageMeter.cpuSeconds()
  private(set) var stages: [BuildStage] = []

  /// Ends the current stage under `name` and starts the next.
  mutating func end(_ name: String) {
    let now = ContinuousClock.now
    let c = StageMeter.cpuSeconds()
    let d = now - wall
    let (anon, hwm) = StageMeter.memory()
    stages.append(
      BuildStage(
        name: name,
        seconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18,
        cpuSeconds: c - cpu, rssAnonKiB: anon, peakRSSKiB: hwm))
    wall = now
    cpu = c
  }

  static func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
      getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }

  /// RssAnon and VmHWM of this process, KiB (zeros where /proc is missing).
  static func memory() -> (Int, Int) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return (0, 0)
    }
    var anon = 0
    var hwm = 0
    for line in text.split(separator: "\n") {
      let value = { Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0 }
      if line.hasPrefix("RssAnon:") { anon = value() }
      if line.hasPrefix("VmHWM:") { hwm = value() }
    }
    return (anon, hwm)
  }
}
