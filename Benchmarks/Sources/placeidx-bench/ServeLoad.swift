import Foundation
import PlaceCore
import PlaceIndex

#if canImport(Glibc)
  import Glibc
#endif

/// `placeidx serve` under load, on loopback only, bounded in count and time: `wrk` with
/// `clients` keep-alive connections for `seconds` over the bench's keystroke requests (as
/// JSON POST bodies), the server's RSS before and after; then, while 50 slowloris connections
/// (a header byte a second) and 10 clients sending oversized headers run, probe requests on
/// fresh connections and their latency.
struct ServeLoadFigures: Codable, Sendable {
  var clients: Int
  var seconds: Double
  var serverThreads: Int
  var requests: Int
  var requestsPerSecond: Double
  /// wrk's latency percentiles, microseconds.
  var p50: Double
  var p90: Double
  var p99: Double
  var max: Double
  /// Socket errors (connect, read, write, timeout) and non-2xx answers.
  var errors: Int
  /// In process, one thread, the same requests (LatencyFigures.requestsPerSecond).
  var inProcessRequestsPerSecond: Double
  /// requestsPerSecond / cores / inProcessRequestsPerSecond (target ≥ 0.6).
  var ratioPerCore: Double
  var rssBeforeKiB: Int
  var rssAfterKiB: Int
  /// The server's CPU time (user and system, all threads) per answered request during the
  /// timed run, microseconds: what a request costs it, whatever else holds the cores.
  var serverCPUMicrosPerRequest: Double
  /// The same for the in-process run (its CPU time over its requests).
  var inProcessCPUMicrosPerRequest: Double
  /// Under 50 slowloris connections and 10 oversized-header clients: probes answered 200,
  /// probes sent, and the slowest probe in milliseconds (target < 100).
  var hostileProbesOK: Int
  var hostileProbes: Int
  var hostileProbeMaxMs: Double
  var hostileProbeP50Ms: Double
  /// Oversized-header requests answered 431 during the probe window.
  var oversizedAnswered431: Int
  /// A short run with few clients after the timed one (wrk's p50 and p99, microseconds): the
  /// server's own latency, where 200 closed-loop clients measure mostly their queue (each
  /// waits at least clients ÷ requests/s on average, Little's law). Nil in older results.
  var fewClients: Int? = nil
  var fewClientsP50: Double? = nil
  var fewClientsP99: Double? = nil
}

enum ServeLoad {
  static let wrk = "/usr/bin/wrk"
  static var available: Bool { FileManager.default.isExecutableFile(atPath: wrk) }

  /// Runs the whole load section against a fresh `placeidx serve` on `index`.
  static func run(
    placeidx: String, index: String, requests: [BenchRequest], work: String,
    inProcessRequestsPerSecond: Double, inProcessCPUMicrosPerRequest: Double,
    clients: Int = 200, seconds: Int = 20,
    progress: Progress
  ) throws -> ServeLoadFigures {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let server = Process()
    server.executableURL = URL(fileURLWithPath: placeidx)
    server.arguments = ["serve", "--index", index, "--port", "0", "--host", "127.0.0.1"]
    let out = Pipe()
    server.standardOutput = out
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer {
      if server.isRunning {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
      }
    }
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let startup = String(decoding: line, as: UTF8.self)
    guard let m = startup.firstMatch(of: /127\.0\.0\.1:(\d+)/), let port = Int(m.1) else {
      throw HarnessError("placeidx serve did not start: \(startup)")
    }
    let threads = Int(startup.firstMatch(of: /(\d+) threads/)?.1 ?? "") ?? 0

    // The request bodies, one JSON line each, for wrk's script.
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let bodies = (work as NSString).appendingPathComponent("serve-bodies.jsonl")
    let script = (work as NSString).appendingPathComponent("serve-load.lua")
    try requests.map { body($0) }.joined(separator: "\n").appending("\n")
      .write(toFile: bodies, atomically: true, encoding: .utf8)
    try luaScript(bodies: bodies).write(toFile: script, atomically: true, encoding: .utf8)

    // Warm-up (a short run), then RSS before, the timed run, RSS after.
    progress.say("  serve: warm-up, then \(clients) keep-alive clients for \(seconds) s (wrk)")
    _ = try wrkRun(port: port, script: script, clients: 20, seconds: 2)
    let before = residentKiB(pid: server.processIdentifier)
    let cpuBefore = cpuSeconds(pid: server.processIdentifier)
    let load = try wrkRun(port: port, script: script, clients: clients, seconds: seconds)
    let cpuAfter = cpuSeconds(pid: server.processIdentifier)
    let after = residentKiB(pid: server.processIdentifier)
    let few = 8
    progress.say("  serve: \(few) keep-alive clients for 5 s (the latency without the queue)")
    let light = try wrkRun(port: port, script: script, clients: few, seconds: 5)

    progress.say("  serve: probes under 50 slowloris and 10 oversized-header clients")
    let hostile = try hostileProbes(port: port)
    let rps = load.requestsPerSecond
    return ServeLoadFigures(
      clients: clients, seconds: Double(seconds), serverThreads: threads,
      requests: load.requests, requestsPerSecond: rps, p50: load.p50, p90: load.p90,
      p99: load.p99, max: load.max, errors: load.errors,
      inProcessRequestsPerSecond: inProcessRequestsPerSecond,
      ratioPerCore: inProcessRequestsPerSecond > 0
        ? rps / Double(cores) / inProcessRequestsPerSecond : 0,
      rssBeforeKiB: before, rssAfterKiB: after,
      serverCPUMicrosPerRequest: load.requests > 0
        ? (cpuAfter - cpuBefore) * 1e6 / Double(load.requests) : 0,
      inProcessCPUMicrosPerRequest: inProcessCPUMicrosPerRequest, hostileProbesOK: hostile.ok,
      hostileProbes: hostile.sent, hostileProbeMaxMs: hostile.maxMs,
      hostileProbeP50Ms: hostile.p50Ms, oversizedAnswered431: hostile.answered431,
      fewClients: few, fewClientsP50: light.p50, fewClientsP99: light.p99)
  }

  /// A keystroke request as the JSON body of POST /v1/places:autocomplete.
  static func body(_ r: BenchRequest) -> String {
    var fields = [("input", jsonStringLiteral(r.query))]
    if let o = r.origin {
      fields.append(("origin", "{\"latitude\":\(o.latitude),\"longitude\":\(o.longitude)}"))
    }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// wrk's script: each thread formats every request once (in `init`), then cycles through
  /// them from its own starting point. No `response` function: wrk then hands no response to
  /// Lua. Formatting each request anew and parsing each response's headers into a Lua table
  /// cost wrk 48 µs of CPU a request against 30 µs this way (liechtenstein-autauga, 200
  /// clients), CPU the server shares. The answers other than 2xx and 3xx are wrk's own count
  /// (the autocomplete endpoint answers 200 or an error status, nothing else).
  static func luaScript(bodies: String) -> String {
    """
    local bodies = {}
    for line in io.lines("\(bodies)") do bodies[#bodies + 1] = line end
    local counter = 0
    function setup(thread)
      thread:set("id", counter)
      counter = counter + 1
    end
    function init(args)
      requests = {}
      for k, b in ipairs(bodies) do
        requests[k] = wrk.format("POST", "/v1/places:autocomplete",
          {["Content-Type"] = "application/json"}, b)
      end
      i = (id * 7919) % #requests
    end
    function request()
      i = i % #requests + 1
      return requests[i]
    end
    function done(summary, latency, requests)
      io.write(string.format("LAT %f %f %f %f\\n", latency:percentile(50), latency:percentile(90),
        latency:percentile(99), latency.max))
    end

    """
  }

  struct WrkResult {
    var requests: Int
    var requestsPerSecond: Double
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double
    var errors: Int
  }

  static func wrkRun(port: Int, script: String, clients: Int, seconds: Int) throws -> WrkResult {
    let text = Child.output(
      wrk,
      [
        "-t", "2", "-c", String(clients), "-d", "\(seconds)s", "--timeout", "5s", "-s", script,
        "http://127.0.0.1:\(port)/v1/places:autocomplete",
      ])
    guard let total = text.firstMatch(of: /(\d+) requests in/),
      let rate = text.firstMatch(of: /Requests\/sec:\s+([0-9.]+)/),
      let lat = text.firstMatch(of: /LAT ([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9.]+)/)
    else { throw HarnessError("wrk gave no figures:\n\(text)") }
    var errors = Int(text.firstMatch(of: /Non-2xx or 3xx responses: (\d+)/)?.1 ?? "0") ?? 0
    if let e = text.firstMatch(
      of: /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)
    {
      errors += [e.1, e.2, e.3, e.4].compactMap { Int($0) }.reduce(0, +)
    }
    return WrkResult(
      requests: Int(total.1) ?? 0, requestsPerSecond: Double(rate.1) ?? 0,
      p50: Double(lat.1) ?? 0, p90: Double(lat.2) ?? 0, p99: Double(lat.3) ?? 0,
      max: Double(lat.4) ?? 0, errors: errors)
  }

  /// User and system CPU seconds of process `pid` so far (/proc/PID/stat).
  static func cpuSeconds(pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    // Fields after the command name: state is field 3, utime 14, stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// VmRSS of process `pid`, KiB.
  static func residentKiB(pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return 0
    }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
  }

  // MARK: Hostile clients

  static func connectLoopback(_ port: Int, timeout: Int = 5) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var t = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = UInt16(port).bigEndian
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let r = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if r != 0 {
      close(fd)
      return nil
    }
    return fd
  }

  static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }

  /// The status of the first response read from `fd` (0 when none came).
  static func readStatus(_ fd: Int32) -> Int {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    let separator: [UInt8] = [13, 10, 13, 10]
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      data.append(contentsOf: buffer[0..<n])
      if let end = data.firstRange(of: separator) {
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        let length = Int(head.firstMatch(of: /(?i)content-length:\s*(\d+)/)?.1 ?? "0") ?? 0
        if end.upperBound + length <= data.count { break }
      }
    }
    let text = String(decoding: data.prefix(16), as: UTF8.self)
    return Int(text.firstMatch(of: /HTTP\/1\.1 (\d{3})/)?.1 ?? "") ?? 0
  }

  final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private var count = 0
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
    func add() { lock.withLock { count += 1 } }
    var total: Int { lock.withLock { count } }
  }

  static func hostileProbes(port: Int) throws -> (
    ok: Int, sent: Int, maxMs: Double, p50Ms: Double, answered431: Int
  ) {
    let stop = Flag()
    let answered431 = Flag()
    // 50 slowloris connections: a request line, then a header byte a second; reconnected when
    // the server cuts them (its per-request deadline).
    let slow = Thread {
      var fds: [Int32] = []
      while !stop.isSet {
        while fds.count < 50, let fd = connectLoopback(port) {
          _ = sendAll(fd, Array("GET /healthz HTTP/1.1\r\nHost: bench\r\nX-Slow: ".utf8))
          fds.append(fd)
        }
        fds = fds.filter { fd in
          if sendAll(fd, [UInt8(ascii: "a")]) { return true }
          close(fd)
          return false
        }
        usleep(1_000_000)
      }
      for fd in fds { close(fd) }
    }
    slow.start()
    // 10 clients sending 200 KB of headers, one request after another.
    let big = Array(
      ("GET /healthz HTTP/1.1\r\nHost: bench\r\nX-Big: " + String(repeating: "b", count: 200_000)
        + "\r\n\r\n").utf8)
    var oversized: [Thread] = []
    for _ in 0..<10 {
      let t = Thread {
        while !stop.isSet {
          guard let fd = connectLoopback(port) else {
            usleep(50_000)
            continue
          }
          _ = sendAll(fd, big)
          if readStatus(fd) == 431 { answered431.add() }
          close(fd)
        }
      }
      oversized.append(t)
      t.start()
    }
    usleep(1_500_000)  // let them all get going
    var latencies: [Double] = []
    var ok = 0
    let body = #"{"input":"a"}"#
    let request = Array(
      ("POST /v1/places:autocomplete HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
    let clock = ContinuousClock()
    for _ in 0..<40 {
      let start = clock.now
      var status = 0
      if let fd = connectLoopback(port) {
        if sendAll(fd, request) { status = readStatus(fd) }
        close(fd)
      }
      latencies.append(seconds(clock.now - start) * 1000)
      if status == 200 { ok += 1 }
      usleep(150_000)
    }
    stop.set()
    usleep(1_200_000)
    let sorted = latencies.sorted()
    return (
      ok, latencies.count, sorted.last ?? 0, sorted.isEmpty ? 0 : sorted[sorted.count / 2],
      answered431.total
    )
  }
}

extension ServeLoad {
  /// `placeidx-bench serve-load`: the targets and keystrokes of `run` on one index, the
  /// in-process single-thread rate (after a warm-up pass), then the load section.
  static func standalone(
    placeidx: String, index: String, work: String, seconds: Int, clients: Int,
    perCategory: Int, seed: UInt64
  ) throws {
    let progress = Progress()
    let loaded = try LoadedIndex(path: index)
    let corpus = try Corpus(index: loaded)
    let targets = TargetSampler.sample(corpus, perCategory: perCategory, seed: seed)
    let requests = TargetSampler.keystrokes(targets)
    progress.say("\(corpus.count) places, \(targets.count) targets, \(requests.count) requests")
    let session = OursSession(client: PlacesClient(indexes: [loaded]), rankOfID: corpus.rankOfID)
    _ = QueryRunner.run(requests, sessions: [session])
    let inProcess = QueryRunner.run(requests, sessions: [session]).figures(threads: 1)
    let figures = try run(
      placeidx: placeidx, index: index, requests: requests, work: work,
      inProcessRequestsPerSecond: inProcess.requestsPerSecond,
      inProcessCPUMicrosPerRequest: cpuMicros(inProcess), clients: clients,
      seconds: seconds, progress: progress)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(figures), as: UTF8.self))
  }
}

/// CPU microseconds per request of an in-process run.
func cpuMicros(_ f: LatencyFigures) -> Double {
  f.requestsPerSecond > 0 ? f.coresUsed / f.requestsPerSecond * 1e6 : 0
}
