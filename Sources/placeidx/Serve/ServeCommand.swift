import Foundation
import PlaceIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `placeidx serve`: the Places API (New) JSON over HTTP, and the autocomplete widget.
/// `POST /v1/places:autocomplete`, `GET /v1/places/ID` (field mask in `X-Goog-FieldMask` or
/// `?fields=a,b`, every field without either; `?languageCode=xx`), `GET /healthz`, `GET /` (a
/// page with the widget) and `GET /widget.js`. The HTTP side is libmicrohttpd's
/// (``HTTPDaemon``); routing and JSON are the ``PlacesRouter``'s. SIGINT or SIGTERM stops it
/// gracefully: no new connections, the requests being answered are finished, then exit 0.
enum ServeCommand {
  static func run(_ args: [String]) throws {
    let a = try Arguments(
      args,
      valued: [
        "index", "port", "host", "threads", "api-key-file", "max-connections", "max-per-client",
        "timeout",
      ],
      flags: ["allow-remote"])
    guard a.positional.isEmpty else {
      throw UsageError("serve takes no positional arguments (got '\(a.positional[0])')")
    }
    let paths = a.values("index")
    guard !paths.isEmpty else { throw UsageError("serve needs --index FILE") }
    let port = try number(a, "port", default: 8080, in: 0...65535)
    let host = a.value("host") ?? "127.0.0.1"
    var limits = HTTPDaemon.Limits()
    limits.threads = try number(
      a, "threads", default: max(2, ProcessInfo.processInfo.activeProcessorCount), in: 1...256)
    limits.maxConnections = try number(
      a, "max-connections", default: limits.maxConnections, in: 1...100_000)
    limits.maxConnectionsPerClient = try number(
      a, "max-per-client", default: limits.maxConnectionsPerClient, in: 1...100_000)
    limits.requestSeconds = try number(
      a, "timeout", default: limits.requestSeconds, in: 1...3600)
    limits.idleSeconds = max(1, min(limits.idleSeconds, limits.requestSeconds / 2))
    let address = try ListenAddress(host)
    if !address.isLoopback && !a.flag("allow-remote") {
      throw UsageError(
        "--host \(host) is reachable from other machines, and this server has no authentication"
          + " or TLS; add --allow-remote to serve on it anyway (--api-key-file to require a key)")
    }
    var apiKey: String? = nil
    if let file = a.value("api-key-file") {
      guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
        throw ServeError("cannot read the API key file \(file)")
      }
      let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !key.isEmpty, !key.contains(where: \.isNewline) else {
        throw ServeError("the API key file \(file) must hold one key on one line")
      }
      apiKey = key
    }
    let client = try PlacesClient(indexPaths: paths)
    let slot = RouterSlot(PlacesRouter(client: client, apiKey: apiKey))

    // Signals: SIGINT and SIGTERM are blocked in every thread (the daemon's threads inherit the
    // mask) and taken by sigwait below. A parent may have left them ignored (test runners do).
    signal(SIGPIPE, SIG_IGN)
    signal(SIGTERM, SIG_DFL)
    signal(SIGINT, SIG_DFL)
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGINT)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

    let (fd, boundPort) = try address.listen(port: port)
    let daemon = try HTTPDaemon(
      listenFD: fd, ipv6: address.isIPv6, limits: limits,
      early: { slot.current.check(head: $0) }, handler: { slot.current.respond(toChecked: $0) })
    let url = "http://\(address.urlHost):\(boundPort)"
    print(
      "placeidx serve: listening on \(url) (\(paths.joined(separator: ", ")); "
        + "\(limits.threads) threads; widget at \(url)/)")
    if !address.isLoopback {
      print(
        "placeidx serve: WARNING: \(host) is reachable from other machines; there is no "
          + (apiKey == nil
            ? "authentication (add --api-key-file to require a key) and no TLS"
            : "TLS (the API key travels in clear text)"))
    }
    fflush(nil)
    IndexWatcher.start(paths: paths, slot: slot, apiKey: apiKey)
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    print("placeidx serve: signal \(received): finishing the requests in progress")
    fflush(nil)
    daemon.stop()
    print("placeidx serve: stopped")
    fflush(nil)
  }

  /// An integer option: its value, or `value` when absent; anything else is a usage error.
  static func number(_ a: Arguments, _ name: String, default value: Int, in range: ClosedRange<Int>)
    throws -> Int
  {
    guard let text = a.value(name) else { return value }
    guard let n = Int(text), range.contains(n) else {
      throw UsageError(
        "--\(name) needs a whole number in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
    }
    return n
  }
}

/// The address `--host` names: IPv4 or IPv6 (`localhost` is 127.0.0.1).
struct ListenAddress {
  let host: String
  let isIPv6: Bool
  private var v4 = in_addr()
  private var v6 = in6_addr()

  init(_ host: String) throws {
    let name = host == "localhost" ? "127.0.0.1" : host
    let bare =
      name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
    self.host = bare
    if inet_pton(AF_INET, bare, &v4) == 1 {
      isIPv6 = false
    } else if inet_pton(AF_INET6, bare, &v6) == 1 {
      isIPv6 = true
    } else {
      throw UsageError("--host '\(host)' is not an IPv4 or IPv6 address")
    }
  }

  /// Loopback: 127.0.0.0/8 or ::1.
  var isLoopback: Bool {
    if isIPv6 {
      return withUnsafeBytes(of: v6) { $0.prefix(15).allSatisfy { $0 == 0 } && $0[15] == 1 }
    }
    return withUnsafeBytes(of: v4) { $0[0] == 127 }
  }

  var urlHost: String { isIPv6 ? "[\(host)]" : host }

  /// A socket bound to this address and listening; the port it got (for port 0, the kernel's).
  func listen(port: Int) throws -> (Int32, Int) {
    let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else {
      throw ServeError("cannot create a socket: \(String(cString: strerror(errno)))")
    }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var result: Int32
    if isIPv6 {
      setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
      var addr = sockaddr_in6()
      addr.sin6_family = sa_family_t(AF_INET6)
      addr.sin6_port = UInt16(port).bigEndian
      addr.sin6_addr = v6
      result = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var addr = sockaddr_in()
      addr.sin_family = sa_family_t(AF_INET)
      addr.sin_port = UInt16(port).bigEndian
      addr.sin_addr = v4
      result = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    if result == 0 { result = Glibc.listen(fd, 1024) }
    guard result == 0 else {
      let code = errno
      close(fd)
      let reason =
        code == EADDRINUSE
        ? "address already in use (another server is on that port)"
        : String(cString: strerror(code))
      throw ServeError("cannot listen on \(urlHost):\(port): \(reason)")
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let bound = withUnsafeBytes(of: storage) { raw -> Int in
      // sin_port and sin6_port are both at offset 2, in network order.
      Int(UInt16(raw[2]) << 8 | UInt16(raw[3]))
    }
    return (fd, bound)
  }
}

/// The router requests are answered with, replaced whole when the index files are.
final class RouterSlot: @unchecked Sendable {
  // @unchecked: `router` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var router: PlacesRouter

  init(_ router: PlacesRouter) { self.router = router }

  /// The router now (a request keeps the one it started with).
  var current: PlacesRouter {
    lock.lock()
    defer { lock.unlock() }
    return router
  }

  func replace(_ new: PlacesRouter) {
    lock.lock()
    router = new
    lock.unlock()
  }
}

/// Watches the index files `serve` loaded: when one is replaced (a rename over it, as `build`
/// and `dist` do, gives it another inode; a folder may gain or lose files), it loads them all
/// again with every checksum checked and then swaps them in; until then, and for good when the
/// new files fail to load, the old ones keep serving. A file must never be rewritten in place
/// (docs/LIMITS.md): the mapped pages would change under the requests.
enum IndexWatcher {
  /// How often the files are looked at, in seconds.
  static let interval = 1.0

  /// What identifies the files now: for each path (each `.placeidx` of a folder), its device,
  /// inode, size and modification time.
  static func signature(_ paths: [String]) -> [String] {
    // A folder that has lost its last index still has a signature: its path, missing.
    let files = (try? PlacesClient.expandingFolders(paths)) ?? paths
    return files.map { f in
      var st = stat()
      guard stat(f, &st) == 0 else { return "\(f) missing" }
      return
        "\(f) \(st.st_dev) \(st.st_ino) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }
  }

  /// Starts the watching thread.
  static func start(paths: [String], slot: RouterSlot, apiKey: String?) {
    let thread = Thread {
      var loaded = signature(paths)
      while true {
        Thread.sleep(forTimeInterval: interval)
        let now = signature(paths)
        guard now != loaded else { continue }
        // Loaded or refused, this state of the files is settled: the next change is looked at.
        loaded = now
        do {
          let client = try PlacesClient(indexPaths: paths)
          slot.replace(PlacesRouter(client: client, apiKey: apiKey))
          print(
            "placeidx serve: reloaded \(paths.joined(separator: ", ")) (every checksum checked)")
        } catch {
          print("placeidx serve: kept the indexes loaded before: the new files fail: \(error)")
        }
        fflush(nil)
      }
    }
    thread.name = "index watcher"
    thread.start()
  }
}
