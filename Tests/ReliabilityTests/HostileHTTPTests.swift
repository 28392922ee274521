import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile HTTP clients against `placeidx serve` (libmicrohttpd under the router), on loopback:
/// each gets its status, and the server goes on answering. Raw sockets, so that the requests
/// can be as malformed as a client can make them.
@Suite("Hostile HTTP clients", .timeLimit(.minutes(2)))
struct HostileHTTPTests {
  static let autocomplete = "/v1/places:autocomplete"

  func server(_ arguments: [String] = []) throws -> ServeProcess {
    try ServeProcess(index: FuzzHarness.sampleIndexPath, arguments: arguments)
  }

  /// Sends `request` on a fresh connection and parses what comes back before the server closes
  /// (or `timeout` passes).
  func exchange(_ server: ServeProcess, _ request: String, timeout: Double = 5) throws
    -> [RawResponse]
  {
    let c = try RawConnection(port: server.port, timeout: timeout)
    c.send(request)
    return RawResponse.parseAll(c.receive())
  }

  func exchange(_ server: ServeProcess, bytes: [UInt8]) throws -> [RawResponse] {
    let c = try RawConnection(port: server.port)
    c.send(bytes)
    return RawResponse.parseAll(c.receive())
  }

  /// The server still answers an autocomplete request.
  func expectServing(_ server: ServeProcess, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let body = #"{"input":"apo"}"#
    let r = try exchange(
      server,
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    #expect(r.count == 1 && r.first?.status == 200, sourceLocation: sourceLocation)
    #expect(r.first?.body.contains("Apotheke zum Löwen") == true, sourceLocation: sourceLocation)
  }

  func post(_ body: String, extra: String = "") -> String {
    "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\(extra)"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
  }

  /// The error object's code, when the body is the JSON error shape.
  func errorCode(_ r: RawResponse?) -> Int? {
    guard let body = r?.body,
      let m = body.firstMatch(of: /^\{"error":\{"code":(\d+),"status":"[A-Z_]+","message":"/)
    else { return nil }
    return Int(m.1)
  }

  @Test("negative, huge and overflowing Content-Length")
  func contentLength() throws {
    let s = try server()
    for (value, status) in [
      ("-1", 400), ("-9223372036854775808", 400), ("9223372036854775807", 413),
      ("18446744073709551615", 413), ("99999999999999999999999", 413), ("abc", 400),
      ("65537", 413),
    ] {
      let r = try exchange(
        s,
        "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nContent-Length: \(value)\r\n\r\n{}",
        timeout: 3)
      #expect(r.first?.status == status, "Content-Length: \(value): \(r.map(\.status))")
      try expectServing(s)
    }
    // Exactly at the limit: read, then refused as JSON (it is no autocomplete request).
    let big = #"{"input":""# + String(repeating: "a", count: 65536 - 12) + #""}"#
    #expect(big.utf8.count == 65536)
    let r = try exchange(s, post(big))
    #expect(r.first?.status == 400 && errorCode(r.first) == 400)
    #expect((r.first?.body.utf8.count ?? 0) < 400, "the error repeats the request")
  }

  @Test("huge bodies: declared, chunked, and longer than declared")
  func hugeBodies() throws {
    let s = try server()
    let declared = try exchange(
      s,
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nContent-Length: 10000000\r\n\r\n"
        + String(repeating: "a", count: 100_000))
    #expect(declared.first?.status == 413 && errorCode(declared.first) == 413)
    let chunk = "8000\r\n" + String(repeating: "a", count: 0x8000) + "\r\n"
    let chunked = try exchange(
      s,
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        + String(repeating: chunk, count: 4) + "0\r\n\r\n")
    #expect(chunked.first?.status == 413 && errorCode(chunked.first) == 413)
    // A small chunked body is read and answered.
    let body = #"{"input":"apo"}"#
    let small = try exchange(
      s,
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n\(String(body.utf8.count, radix: 16))\r\n\(body)\r\n0\r\n\r\n"
    )
    #expect(small.first?.status == 200 && small.first?.body.contains("Apotheke") == true)
    let none = try exchange(
      s, "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    #expect(none.first?.status == 411 && errorCode(none.first) == 411)
    try expectServing(s)
  }

  @Test("bad JSON and bad requests get 400 JSON errors that quote little of the request")
  func badJSON() throws {
    let s = try server()
    let long = String(repeating: "x", count: 30_000)
    for body in [
      "", "{", "[]", "null", #"{"input":1}"#, #"{"input":"a","bogus\#(long)":1}"#,
      "\u{FF}\u{FE}", #"{"input":"apo","includedRegionCodes":["AUT"]}"#,
    ] {
      let r = try exchange(s, post(body))
      #expect(r.first?.status == 400 && errorCode(r.first) == 400, "\(body.prefix(40))")
      #expect((r.first?.body.utf8.count ?? 0) < 400, "\(body.prefix(40)): error too long")
    }
    let bytes =
      Array(
        ("POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
          + "Content-Length: 6\r\n\r\n").utf8) + [0xC0, 0x80, 0xFF, 0x00, 0x7B, 0x22]
    let r = try exchange(s, bytes: bytes)
    #expect(r.first?.status == 400 && errorCode(r.first) == 400)
    let path = try exchange(
      s, "GET /\(long.prefix(3000)) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    #expect(path.first?.status == 404 && errorCode(path.first) == 404)
    #expect((path.first?.body.utf8.count ?? 0) < 300)
    try expectServing(s)
  }

  @Test("oversized headers get 431 and long targets 414, before and past libmicrohttpd's limit")
  func oversizedHeaders() throws {
    let s = try server()
    for size in [9_000, 12_000, 20_000, 70_000, 1_000_000] {
      let r = try exchange(
        s,
        "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "a", count: size))\r\n\r\n")
      #expect(r.first?.status == 431, "\(size) bytes of headers: \(r.map(\.status))")
      // The router's limit is 8 KiB; libmicrohttpd's own 431 (HTML) comes past its 16 KiB.
      if size < 14_000 {
        #expect(errorCode(r.first) == 431, "\(size) bytes: \(r.first?.body ?? "")")
      }
      try expectServing(s)
    }
    let many = (0..<2000).map { "X-H\($0): v\r\n" }.joined()
    let r = try exchange(s, "GET /healthz HTTP/1.1\r\nHost: t\r\n\(many)\r\n")
    #expect(r.first?.status == 431)
    for size in [5_000, 100_000] {
      let t = try exchange(
        s, "GET /\(String(repeating: "a", count: size)) HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(t.first?.status == 414, "\(size)-byte target: \(t.map(\.status))")
    }
    try expectServing(s)
  }

  @Test("pipelined requests are all answered, in order, on one connection")
  func pipelining() throws {
    let s = try server()
    let body = #"{"input":"apo"}"#
    let c = try RawConnection(port: s.port)
    c.send(
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body + "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
        + "GET /v1/places/N1 HTTP/1.1\r\nHost: t\r\n\r\n"
        + "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    let r = RawResponse.parseAll(c.receive())
    #expect(r.map(\.status) == [200, 200, 404, 200])
    #expect(r.first?.body.contains("Apotheke") == true)
    // Keep-alive: a second request on the same connection after the first answer.
    let k = try RawConnection(port: s.port)
    k.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
    let first = k.receive { RawResponse.parseAll($0).count == 1 }
    k.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    let second = k.receive()
    #expect(RawResponse.parseAll(first + second).map(\.status) == [200, 200])
  }

  @Test("wrong methods get 405 with Allow, HEAD included; unknown paths 404")
  func wrongMethods() throws {
    let s = try server()
    let cases: [(String, String, String)] = [
      ("HEAD", "/healthz", "GET, OPTIONS"), ("HEAD", Self.autocomplete, "POST, OPTIONS"),
      ("GET", Self.autocomplete, "POST, OPTIONS"), ("PUT", Self.autocomplete, "POST, OPTIONS"),
      ("DELETE", "/v1/places/N1", "GET, OPTIONS"), ("POST", "/", "GET, OPTIONS"),
      ("PATCH", "/widget.js", "GET, OPTIONS"), ("BREW", "/healthz", "GET, OPTIONS"),
    ]
    for (method, path, allow) in cases {
      let r = try exchange(
        s, "\(method) \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
      )
      #expect(r.first?.status == 405, "\(method) \(path): \(r.map(\.status))")
      #expect(r.first?.headers["allow"] == allow, "\(method) \(path)")
      if method != "HEAD" { #expect(errorCode(r.first) == 405, "\(method) \(path)") }
    }
    for path in ["/v1/places", "/v1/places/", "/v1/places/a/b", "/nope", "/v2/places:autocomplete"]
    {
      let r = try exchange(s, "GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
      #expect(r.first?.status == 404 && errorCode(r.first) == 404, "\(path)")
    }
    let garbage = try exchange(s, bytes: [0x16, 0x03, 0x01, 0x00, 0xFF] + Array("\r\n\r\n".utf8))
    #expect(garbage.isEmpty || garbage.first?.status == 400)
    try expectServing(s)
  }

  @Test("slow clients lose their connection within the request deadline; others are served")
  func slowloris() throws {
    let s = try server(["--timeout", "4", "--threads", "2"])
    let start = Date()
    let slow = try (0..<6).map { _ in try RawConnection(port: s.port, timeout: 1) }
    for c in slow { c.send("GET /healthz HTTP/1.1\r\nHost: t\r\n") }
    var cutAfter: [Double?] = Array(repeating: nil, count: slow.count)
    var served = 0
    while Date().timeIntervalSince(start) < 12 && cutAfter.contains(where: { $0 == nil }) {
      for (i, c) in slow.enumerated() where cutAfter[i] == nil {
        // One header byte every 1.5 s: never idle long enough for the idle timeout (2 s).
        if !c.send("X") { cutAfter[i] = Date().timeIntervalSince(start) }
      }
      let probeStart = Date()
      try expectServing(s)
      #expect(Date().timeIntervalSince(probeStart) < 2, "a probe waited behind slow clients")
      served += 1
      usleep(1_500_000)
      for (i, c) in slow.enumerated() where cutAfter[i] == nil && answeredOrClosed(c) {
        cutAfter[i] = Date().timeIntervalSince(start)
      }
    }
    #expect(served >= 2)
    for t in cutAfter {
      let t = try #require(t, "a slow client kept its connection for 12 s")
      #expect(t > 3 && t < 8, "cut after \(t) s (deadline 4 s)")
    }
  }

  /// Whether the server has sent something (the 408) or closed, without reading it.
  func answeredOrClosed(_ c: RawConnection) -> Bool {
    var byte: UInt8 = 0
    let n = recv(c.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
  }

  @Test("a client past the request deadline gets 408 as JSON, then the connection is closed")
  func requestTimeout() throws {
    let s = try server(["--timeout", "2"])
    // Headers begun, a byte every 0.4 s (never idle for the 1 s idle timeout); a body begun and
    // never finished; and a keep-alive connection answered once, then trickling its next request.
    let partialHead = try RawConnection(port: s.port, timeout: 6)
    partialHead.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
    let partialBody = try RawConnection(port: s.port, timeout: 6)
    partialBody.send(
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nContent-Length: 40\r\n\r\n{\"input\":")
    let second = try RawConnection(port: s.port, timeout: 6)
    second.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\nX-A: ")
    let first = RawResponse.parseAll(second.receive { RawResponse.parseAll($0).count >= 1 })
    #expect(first.map(\.status) == [200])
    let start = Date()
    let slow = [partialHead, partialBody, second]
    var answeredAfter: [Double?] = [nil, nil, nil]
    while Date().timeIntervalSince(start) < 8 && answeredAfter.contains(where: { $0 == nil }) {
      usleep(400_000)
      for (i, c) in slow.enumerated() where answeredAfter[i] == nil {
        if answeredOrClosed(c) {
          answeredAfter[i] = Date().timeIntervalSince(start)
        } else {
          c.send(i == 1 ? " " : "a")
        }
      }
    }
    for (i, c) in slow.enumerated() {
      let t = try #require(answeredAfter[i], "connection \(i) neither answered nor cut in 8 s")
      #expect(t > 1 && t < 4.5, "connection \(i) answered after \(t) s (deadline 2 s)")
      let responses = RawResponse.parseAll(c.receive())
      let last = try #require(responses.last, "connection \(i): nothing came back")
      #expect(responses.count == 1, "connection \(i): \(responses.map(\.status))")
      #expect(last.status == 408, "connection \(i): \(last.status)")
      #expect(errorCode(last) == 408, "connection \(i): \(last.body)")
      #expect(last.body.contains("REQUEST_TIMEOUT"))
      #expect(last.headers["connection"] == "close")
      #expect(last.headers["content-type"]?.hasPrefix("application/json") == true)
      #expect(last.headers["access-control-allow-origin"] == "*")
      // After the 408 the server closes: nothing more can be sent (a reset, then EPIPE).
      usleep(400_000)
      var refused = false
      for _ in 0..<5 where !refused {
        refused = !c.send("more")
        usleep(100_000)
      }
      #expect(refused, "connection \(i) still open after its 408")
    }
    try expectServing(s)
  }

  @Test("over the connection limit: 503, and service again when connections close")
  func overCapacity() throws {
    let s = try server(["--max-connections", "3"])
    var idle = try (0..<3).map { _ in try RawConnection(port: s.port) }
    for c in idle { c.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n") }
    for c in idle { _ = c.receive { RawResponse.parseAll($0).count == 1 } }
    let r = try exchange(s, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
    #expect(r.first?.status == 503 && errorCode(r.first) == 503)
    idle.removeAll()
    usleep(300_000)
    try expectServing(s)
  }

  @Test("one client address past --max-per-client is cut off; the others stay served")
  func perClientLimit() throws {
    let s = try server(["--max-per-client", "2"])
    let held = try (0..<2).map { _ in try RawConnection(port: s.port) }
    for c in held { c.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n") }
    for c in held {
      #expect(
        RawResponse.parseAll(c.receive { RawResponse.parseAll($0).count == 1 }).first?.status == 200
      )
    }
    let third = try RawConnection(port: s.port, timeout: 3)
    third.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    #expect(
      RawResponse.parseAll(third.receive()).isEmpty, "a third connection from 127.0.0.1 was served")
    withExtendedLifetime(held) {}
  }

  @Test("CORS: preflight answered, every response allows any origin")
  func cors() throws {
    let s = try server()
    let r = try exchange(
      s,
      "OPTIONS \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nOrigin: http://example.test\r\n"
        + "Access-Control-Request-Method: POST\r\n"
        + "Access-Control-Request-Headers: content-type, x-goog-api-key\r\nConnection: close\r\n\r\n"
    )
    let preflight = try #require(r.first)
    #expect(preflight.status == 204)
    #expect(preflight.headers["access-control-allow-origin"] == "*")
    #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
    let allowed = preflight.headers["access-control-allow-headers"]?.lowercased() ?? ""
    #expect(allowed.contains("content-type") && allowed.contains("x-goog-api-key"))
    let answer = try exchange(
      s, post(#"{"input":"apo"}"#, extra: "Origin: http://example.test\r\n"))
    #expect(
      answer.first?.status == 200 && answer.first?.headers["access-control-allow-origin"] == "*")
    let error = try exchange(s, post("{"))
    #expect(error.first?.headers["access-control-allow-origin"] == "*")
  }

  @Test("API key: required on the API when configured, by header or parameter")
  func apiKey() throws {
    let dir = FuzzHarness.scratchDirectory()
    let file = (dir as NSString).appendingPathComponent("key.txt")
    try "s3cret-key\n".write(toFile: file, atomically: true, encoding: .utf8)
    let s = try server(["--api-key-file", file])
    let missing = try exchange(s, post(#"{"input":"apo"}"#))
    #expect(missing.first?.status == 403 && errorCode(missing.first) == 403)
    let wrong = try exchange(s, post(#"{"input":"apo"}"#, extra: "X-Goog-Api-Key: nope\r\n"))
    #expect(wrong.first?.status == 400 && errorCode(wrong.first) == 400)
    let right = try exchange(s, post(#"{"input":"apo"}"#, extra: "X-Goog-Api-Key: s3cret-key\r\n"))
    #expect(right.first?.status == 200 && right.first?.body.contains("Apotheke") == true)
    let detailsMissing = try exchange(
      s, "GET /v1/places/N1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    #expect(detailsMissing.first?.status == 403)
    let parameter = try exchange(
      s, "GET /v1/places/N1?key=s3cret-key HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    #expect(parameter.first?.status == 404, "the key was taken; the place does not exist")
    for path in ["/", "/widget.js", "/healthz"] {
      let open = try exchange(s, "GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
      #expect(open.first?.status == 200, "\(path) needs no key")
    }
  }

  @Test("SIGTERM: a request in progress is answered, then the server exits 0")
  func gracefulStop() throws {
    let s = try server()
    let body = #"{"input":"apo"}"#
    let c = try RawConnection(port: s.port)
    c.send(
      "POST \(Self.autocomplete) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body.prefix(5))
    usleep(300_000)
    kill(s.process.processIdentifier, SIGTERM)
    usleep(500_000)
    #expect(s.process.isRunning, "it stopped before the request in progress was answered")
    #expect((try? RawConnection(port: s.port, timeout: 1)) == nil, "still accepting after SIGTERM")
    c.send(String(body.dropFirst(5)))
    let r = RawResponse.parseAll(c.receive { RawResponse.parseAll($0).count == 1 })
    #expect(r.first?.status == 200 && r.first?.body.contains("Apotheke") == true)
    #expect(s.stop(signal: 0, within: 15) == 0)
    #expect(s.remainingOutput().contains("stopped"))
  }

  @Test("command line: bad numbers, remote hosts and a busy port are refused clearly")
  func commandLine() throws {
    let index = FuzzHarness.sampleIndexPath
    for (args, text) in [
      (["--threads", "abc"], "--threads"), (["--threads", "0"], "--threads"),
      (["--port", "70000"], "--port"), (["--timeout", "-3"], "--timeout"),
      (["--host", "0.0.0.0"], "--allow-remote"), (["--host", "::"], "--allow-remote"),
      (["--host", "nowhere"], "not an IPv4 or IPv6 address"),
    ] {
      let r = try runProcess(TestPaths.placeidx, ["serve", "--index", index] + args)
      #expect(r.status == 2, "\(args)")
      #expect(r.stderr.contains(text), "\(args): \(r.stderr)")
    }
    let s = try server()
    let busy = try runProcess(
      TestPaths.placeidx, ["serve", "--index", index, "--port", String(s.port)])
    #expect(busy.status == 1)
    #expect(busy.stderr.contains("address already in use"), "\(busy.stderr)")
    let missing = try runProcess(
      TestPaths.placeidx, ["serve", "--index", index, "--api-key-file", "/nonexistent/key"])
    #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/key"))
  }

  /// Whether this machine has the IPv6 loopback address.
  static let hasIPv6Loopback: Bool = {
    let text = (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? ""
    return text.contains("00000000000000000000000000000001")
  }()

  @Test("--host ::1 serves on the IPv6 loopback", .enabled(if: hasIPv6Loopback))
  func ipv6Loopback() throws {
    let server = try ServeProcess(index: FuzzHarness.sampleIndexPath, arguments: ["--host", "::1"])
    defer { withExtendedLifetime(server) {} }  // serving until the exchange below is done
    #expect(server.startupLine.contains("http://[::1]:"), "\(server.startupLine)")
    let port = try #require(UInt16(exactly: server.port))
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var t = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in6()
    addr.sin6_family = sa_family_t(AF_INET6)
    addr.sin6_port = port.bigEndian
    addr.sin6_addr = in6addr_loopback
    let connected = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
      }
    }
    try #require(connected == 0)
    let request = Array("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
    #expect(
      request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        == request.count)
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      data.append(contentsOf: buffer[0..<n])
    }
    let r = RawResponse.parseAll(data)
    #expect(r.first?.status == 200 && r.first?.body == #"{"status":"ok"}"#)
  }
}
