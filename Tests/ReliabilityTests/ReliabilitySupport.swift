import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

typealias SeededGenerator = SplitMix64

/// An OSM XML 0.6 document around `body`.
func osmDocument(_ body: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <osm version="0.6" generator="ReliabilityTests">
  \(body)
  </osm>

  """
}

/// The peak resident set size of this process so far, in bytes.
func peakResidentBytes() -> Int {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Int(usage.ru_maxrss) * 1024
}

/// The CPU time (user and system) this process has used, in seconds.
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Stops this process with SIGALRM after `seconds`: a child process that hangs fails its exit
/// test instead of stalling the suite.
func failIfStillRunning(after seconds: UInt32) {
  alarm(seconds)
}

/// The bytes of the file at `path`, or nil when it does not exist.
func fileBytes(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

/// The names in a folder, sorted.
func folderListing(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// The lines a child process printed, split at newlines.
func printedLines(_ bytes: [UInt8]?) -> [String] {
  String(decoding: bytes ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
}

/// Prints a line per failure and the end marker, for a child process (an exit test) whose parent
/// checks the output with ``checkChildOutput(_:)``.
func reportFailures(_ failures: [String], limit: Int = 40) {
  for f in failures.prefix(limit) { print("FAIL \(f)") }
  if failures.count > limit { print("FAIL … and \(failures.count - limit) more") }
  print("DONE")
  fflush(nil)
}

/// The lines a child process printed; records an issue for each "FAIL" line, and one when the
/// child did not print "DONE" (it crashed or hung: the exit test has recorded that too).
@discardableResult
func checkChildOutput(
  _ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation
) -> [String] {
  guard let result else { return [] }
  let lines = printedLines(result.standardOutputContent)
  for line in lines where line.hasPrefix("FAIL ") {
    Issue.record(Comment(rawValue: String(line.dropFirst(5))), sourceLocation: sourceLocation)
  }
  if !lines.contains("DONE") {
    Issue.record(
      "the child process did not finish: \(lines.suffix(5))", sourceLocation: sourceLocation)
  }
  return lines
}
