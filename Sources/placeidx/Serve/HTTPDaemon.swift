import CMicroHTTPD
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP side of `placeidx serve`, on libmicrohttpd: its internal thread pool with epoll does
/// the framing (keep-alive, pipelining, chunked bodies), the idle timeout, the connection limits
/// and the header size limit (431 and 414 past its memory limit). This file adds what
/// libmicrohttpd has no option for: a deadline for each whole request (a client that sends one
/// byte every few seconds gets 408 and loses its connection), 503 past the connection limit, a
/// body size limit, and a graceful stop. Routing is the ``PlacesRouter``'s.
final class HTTPDaemon: @unchecked Sendable {
  struct Limits: Sendable {
    /// Worker threads.
    var threads = 2
    /// Open connections answered normally; up to 16 more are answered 503 and closed.
    var maxConnections = 1000
    /// Open connections from one client address (more are closed at once).
    var maxConnectionsPerClient = 500
    /// Seconds a connection has for one whole request (from its start or its last answer).
    var requestSeconds = 10
    /// Seconds a connection may stay silent.
    var idleSeconds = 5
    /// libmicrohttpd's memory per connection, which bounds request line and headers. It zeroes
    /// the whole of it after every request: at 64 KiB that was 106,000 instructions a request
    /// (13% of the server's), at 16 KiB 25,000.
    var connectionMemory = 16 * 1024
  }

  /// The answer to a whole request whose head `early` let through.
  let handler: @Sendable (HTTPRequest) -> HTTPResponse
  /// The answer to a request from its head alone (an error, a preflight), or nil to read the
  /// body and call `handler`.
  let early: @Sendable (HTTPRequest) -> HTTPResponse?
  let limits: Limits
  private var daemon: OpaquePointer?
  private var listenFD: Int32

  private let lock = NSLock()

  /// Where a connection is, for its deadline: a 408 may be written on the socket only while
  /// libmicrohttpd writes nothing there (no answer queued).
  enum Phase {
    /// Receiving a request (or waiting for the next one).
    case receiving
    /// An answer is queued or being sent.
    case answering
    /// Past its deadline: 408 sent and writing shut at `since`; reading is shut a tick later.
    case closing(since: UInt64)
    /// Shut both ways; libmicrohttpd closes it.
    case cut
  }
  struct Watched {
    var deadline: UInt64
    var phase = Phase.receiving
  }
  /// Each open connection's socket, the moment its current request must be answered by, and
  /// its phase.
  private var deadlines: [Int32: Watched] = [:]
  /// The whole 408 answer, as libmicrohttpd would frame it (written by the watchdog itself).
  private let timeoutAnswer: [UInt8]
  private var openConnections = 0
  private var inFlight = 0
  private var stopping = false
  private var watchdog: Thread?

  /// Starts serving on `listenFD`, a socket bound and listening.
  init(
    listenFD: Int32, ipv6: Bool, limits: Limits,
    early: @escaping @Sendable (HTTPRequest) -> HTTPResponse?,
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws {
    self.listenFD = listenFD
    self.limits = limits
    self.early = early
    self.handler = handler
    timeoutAnswer = Self.timeoutAnswer(seconds: limits.requestSeconds)
    var flags =
      MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
    if ipv6 { flags |= MHD_USE_IPv6.rawValue }
    let context = Unmanaged.passUnretained(self).toOpaque()
    daemon = placeidx_mhd_start(
      flags, listenFD, UInt32(limits.threads), UInt32(limits.maxConnections + 16),
      UInt32(limits.maxConnectionsPerClient), UInt32(limits.idleSeconds),
      limits.connectionMemory, accessCallback, completedCallback, connectionCallback, context)
    guard daemon != nil else {
      throw ServeError("libmicrohttpd could not start on the listening socket")
    }
    let thread = Thread { [unowned self] in self.watch() }
    thread.name = "placeidx-serve-watchdog"
    watchdog = thread
    thread.start()
  }

  /// Stops accepting, lets the requests being answered finish (up to `grace` seconds), then
  /// closes every connection.
  func stop(grace: Double = 10) {
    guard let daemon else { return }
    let fd = MHD_quiesce_daemon(daemon)
    if fd >= 0 { close(fd) }
    let end = Date().addingTimeInterval(grace)
    while Date() < end {
      let busy = lock.withLock { inFlight }
      if busy == 0 { break }
      usleep(10_000)
    }
    lock.withLock { stopping = true }
    MHD_stop_daemon(daemon)
    self.daemon = nil
  }

  // MARK: Deadlines

  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// The 408 a connection past its deadline gets: status line, headers and JSON body.
  static func timeoutAnswer(seconds: Int) -> [UInt8] {
    let response = PlacesRouter.withCommonHeaders(
      PlacesRouter.error(
        408, "REQUEST_TIMEOUT", "the request did not arrive whole within \(seconds) s"))
    var head = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
    for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\n\r\n"
    return Array(head.utf8) + response.body
  }

  /// Answers 408 on every connection past its deadline that has no answer queued, and shuts
  /// it down (the daemon then closes it): writing at once (the 408 goes out first), reading a
  /// tick later (a client still sending would otherwise get a reset before it reads the 408).
  /// A connection past its deadline while an answer is being sent (a client not reading) is
  /// shut at once. The socket is still the connection's: the table entry goes before
  /// libmicrohttpd closes the socket, under the same lock; and ``queue(_:_:close:)`` marks a
  /// connection answering under that lock, so the 408 never interleaves with an answer.
  private func watch() {
    while true {
      usleep(200_000)
      let done = lock.withLock { () -> Bool in
        if stopping { return true }
        let now = Self.now()
        for (fd, watched) in deadlines {
          switch watched.phase {
          case .receiving where watched.deadline < now:
            timeoutAnswer.withUnsafeBytes {
              _ = send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            shutdown(fd, Int32(SHUT_WR))
            deadlines[fd]!.phase = .closing(since: now)
          case .answering where watched.deadline < now:
            shutdown(fd, Int32(SHUT_RDWR))
            deadlines[fd]!.phase = .cut
          case .closing(let since) where now - since >= 150_000_000:
            shutdown(fd, Int32(SHUT_RDWR))
            deadlines[fd]!.phase = .cut
          default: break
          }
        }
        return false
      }
      if done { return }
    }
  }

  /// Marks the connection answering before libmicrohttpd is given an answer; false when the
  /// watchdog has already cut it (no answer then: it is closed).
  fileprivate func startAnswer(_ connection: OpaquePointer?) -> Bool {
    let fd = placeidx_mhd_connection_fd(connection)
    guard fd >= 0 else { return true }
    return lock.withLock {
      guard let watched = deadlines[fd] else { return true }
      switch watched.phase {
      case .receiving, .answering:
        deadlines[fd]!.phase = .answering
        return true
      case .closing, .cut:
        return false
      }
    }
  }

  fileprivate func connectionOpened(_ connection: OpaquePointer?) {
    let fd = placeidx_mhd_connection_fd(connection)
    let deadline = Self.now() + UInt64(limits.requestSeconds) * 1_000_000_000
    lock.withLock {
      openConnections += 1
      if fd >= 0 { deadlines[fd] = Watched(deadline: deadline) }
    }
  }

  fileprivate func connectionClosed(_ connection: OpaquePointer?) {
    let fd = placeidx_mhd_connection_fd(connection)
    lock.withLock {
      openConnections -= 1
      if fd >= 0 { deadlines[fd] = nil }
    }
  }

  /// A request was answered (or abandoned): the connection's clock starts again for the next.
  fileprivate func requestFinished(_ connection: OpaquePointer?, counted: Bool) {
    let fd = placeidx_mhd_connection_fd(connection)
    let deadline = Self.now() + UInt64(limits.requestSeconds) * 1_000_000_000
    lock.withLock {
      if counted { inFlight -= 1 }
      if fd >= 0, let watched = deadlines[fd] {
        switch watched.phase {
        case .receiving, .answering: deadlines[fd] = Watched(deadline: deadline)
        case .closing, .cut: break
        }
      }
    }
  }

  /// Whether a new request may be served (it is counted in flight) or gets 503.
  fileprivate func admit() -> Bool {
    lock.withLock {
      guard openConnections <= limits.maxConnections else { return false }
      inFlight += 1
      return true
    }
  }

  // MARK: Requests

  /// One request's state between the access callback's calls.
  fileprivate final class Exchange {
    var request: HTTPRequest
    var counted = false
    var tooLarge = false
    init(_ request: HTTPRequest) { self.request = request }
  }

  fileprivate static func head(_ connection: OpaquePointer?, url: String, method: String)
    -> HTTPRequest
  {
    final class Collector {
      var pairs: [(name: String, value: String)] = []
      var lowercase = false
    }
    let iterator: MHD_KeyValueIterator = { cls, _, key, value in
      let collector = Unmanaged<Collector>.fromOpaque(cls!).takeUnretainedValue()
      let name = key.map { String(cString: $0) } ?? ""
      collector.pairs.append(
        (collector.lowercase ? name.lowercased() : name, value.map { String(cString: $0) } ?? ""))
      return .YES
    }
    let headers = Collector()
    headers.lowercase = true
    let arguments = Collector()
    withExtendedLifetime(headers) {
      _ = MHD_get_connection_values(
        connection, .HEADER_KIND, iterator, Unmanaged.passUnretained(headers).toOpaque())
    }
    withExtendedLifetime(arguments) {
      _ = MHD_get_connection_values(
        connection, .GET_ARGUMENT_KIND, iterator,
        Unmanaged.passUnretained(arguments).toOpaque())
    }
    return HTTPRequest(
      method: method, path: url, query: arguments.pairs, headers: headers.pairs)
  }

  @discardableResult
  fileprivate func queue(_ connection: OpaquePointer?, _ response: HTTPResponse, close: Bool)
    -> MHD_Result
  {
    guard startAnswer(connection) else { return .NO }
    let mhd = response.body.withUnsafeBytes { bytes in
      MHD_create_response_from_buffer(
        bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhd else { return .NO }
    for (name, value) in response.headers { MHD_add_response_header(mhd, name, value) }
    if close { MHD_add_response_header(mhd, "Connection", "close") }
    let result = MHD_queue_response(connection, UInt32(response.status), mhd)
    MHD_destroy_response(mhd)
    return result
  }

  fileprivate func access(
    _ connection: OpaquePointer?, url: String, method: String, upload: UnsafePointer<CChar>?,
    uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) -> MHD_Result {
    guard let existing = state.pointee else {
      // The headers are in: a first look before any body is read.
      let exchange = Exchange(Self.head(connection, url: url, method: method))
      state.pointee = Unmanaged.passRetained(exchange).toOpaque()
      guard admit() else {
        return queue(
          connection,
          PlacesRouter.withCommonHeaders(
            PlacesRouter.error(503, "UNAVAILABLE", "the server is over capacity; try again")),
          close: true)
      }
      exchange.counted = true
      if let response = early(exchange.request) {
        // Answered before the body: close unless there is no body to skip.
        let bodyless =
          exchange.request.header("content-length") == nil
          && exchange.request.header("transfer-encoding") == nil
        return queue(connection, response, close: !bodyless)
      }
      return .YES
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      // A chunked body can pass the limit that Content-Length was checked against.
      if !exchange.tooLarge, let upload {
        let count = uploadSize.pointee
        if exchange.request.body.count + count > PlacesRouter.maxBodyBytes {
          exchange.tooLarge = true
          exchange.request.body = []
        } else {
          upload.withMemoryRebound(to: UInt8.self, capacity: count) {
            exchange.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
          }
        }
      }
      uploadSize.pointee = 0
      return .YES
    }
    if exchange.tooLarge {
      return queue(
        connection,
        PlacesRouter.withCommonHeaders(
          PlacesRouter.error(
            413, "PAYLOAD_TOO_LARGE",
            "the request body is larger than \(PlacesRouter.maxBodyBytes) bytes")),
        close: true)
    }
    return queue(connection, handler(exchange.request), close: false)
  }

  fileprivate func completed(
    _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    connection: OpaquePointer?
  ) {
    var counted = false
    if let state, let raw = state.pointee {
      let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
      counted = exchange.counted
      state.pointee = nil
    }
    requestFinished(connection, counted: counted)
  }
}

private let accessCallback: MHD_AccessHandlerCallback = {
  cls, connection, url, method, _, upload, uploadSize, state in
  let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls!).takeUnretainedValue()
  return daemon.access(
    connection, url: url.map { String(cString: $0) } ?? "",
    method: method.map { String(cString: $0) } ?? "", upload: upload, uploadSize: uploadSize!,
    state: state!)
}

private let completedCallback: MHD_RequestCompletedCallback = { cls, connection, state, _ in
  let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls!).takeUnretainedValue()
  daemon.completed(state, connection: connection)
}

private let connectionCallback: MHD_NotifyConnectionCallback = { cls, connection, _, event in
  let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls!).takeUnretainedValue()
  if event == .CONNECTION_NOTIFY_STARTED {
    daemon.connectionOpened(connection)
  } else {
    daemon.connectionClosed(connection)
  }
}

/// A server error that is not a usage error (exit 1).
struct ServeError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message }
}
