import Foundation
import PlaceIndexBuilder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `placeidx build`: an extract or a pipeline to an index file and its manifest.
enum BuildCommand {
  static func run(_ args: [String]) throws {
    let a = try Arguments(
      args, valued: ["o", "output", "pipeline", "data", "root"],
      flags: ["quiet", "report", "split-by-country"])
    let root = a.value("root") ?? FileManager.default.currentDirectoryPath
    var extract: String
    var output: String
    var options: [String] = []
    if let name = a.value("pipeline") {
      guard a.positional.isEmpty else {
        throw UsageError("build --pipeline takes no extract argument")
      }
      let p = try PipelineDefinition.load(name: name, root: root)
      // `-` is standard input, not a file under the root.
      extract =
        p.extract == "-" || p.extract.hasPrefix("/")
        ? p.extract : (root as NSString).appendingPathComponent(p.extract)
      output =
        a.value("o") ?? a.value("output")
        ?? (p.output.hasPrefix("/")
          ? p.output : (root as NSString).appendingPathComponent(p.output))
      options = p.options
    } else {
      guard a.positional.count == 1 else {
        throw UsageError("build needs one extract (or --pipeline NAME)")
      }
      extract = a.positional[0]
      guard let o = a.value("o") ?? a.value("output") else {
        throw UsageError("build needs -o FILE (the index to write)")
      }
      output = o
    }
    let tables = try BuildTables.load(directory: a.value("data"))
    var buildOptions = IndexBuilder.Options(extract: extract, output: output, options: options)
    buildOptions.splitByCountry = a.flag("split-by-country")
    let showProgress = !a.flag("quiet") && isatty(STDERR_FILENO) != 0
    if showProgress {
      let start = Date()
      let last = ProgressClock()
      buildOptions.progress = { done, total in
        guard last.due() else { return }
        let elapsed = Date().timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let pct = total > 0 ? 100 * Double(done) / Double(total) : 0
        // A pipe's size is not known (total 0): the bytes read so far instead.
        let line =
          total > 0
          ? String(format: "\rreading %5.1f%%  %.1f MB/s  ETA %.0f s   ", pct, rate / 1e6, eta)
          : String(format: "\rreading %.1f MB  %.1f MB/s   ", Double(done) / 1e6, rate / 1e6)
        FileHandle.standardError.write(line.data(using: .utf8)!)
      }
    }
    let report = try IndexBuilder(tables: tables).build(buildOptions)
    if showProgress { FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!) }
    if !a.flag("quiet") || a.flag("report") {
      for line in report.lines(verbose: a.flag("report")) { print(line) }
    }
  }
}

/// Rate-limits progress lines to a few per second; shared with the reader's callback.
final class ProgressClock: @unchecked Sendable {
  private var next = Date.distantPast
  private let lock = NSLock()

  func due() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let now = Date()
    guard now >= next else { return false }
    next = now.addingTimeInterval(0.25)
    return true
  }
}
