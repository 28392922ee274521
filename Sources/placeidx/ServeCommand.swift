import Foundation
import PlaceIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `placeidx serve`: a small HTTP/1.1 server speaking the Places API (New) JSON on loopback or
/// any address: `POST /v1/places:autocomplete` with an autocomplete request body, and
/// `GET /v1/places/ID` for details (the field mask in an `X-Goog-FieldMask` header or a
/// `fields=a,b` parameter, every field without either; `languageCode=xx`). One connection at a
/// time per worker thread; requests are answered from one shared client.
enum ServeCommand {
  static let maxRequestBytes = 64 * 1024

  static func run(_ args: [String]) throws {
    let a = try Arguments(args, valued: ["index", "port", "host", "threads"], flags: [])
    let paths = a.values("index")
    guard !paths.isEmpty else { throw UsageError("serve needs --index FILE") }
    let port = Int(a.value("port") ?? "8080") ?? -1
    guard (0...65535).contains(port) else { throw UsageError("--port needs 0…65535") }
    let host = a.value("host") ?? "127.0.0.1"
    let threads = max(1, Int(a.value("threads") ?? "2") ?? 2)
    let client = try PlacesClient(indexPaths: paths)
    // A parent may have started us with SIGTERM/SIGINT blocked or ignored (test runners do);
    // a server must stop when told to.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGTERM)
    sigaddset(&unblock, SIGINT)
    sigprocmask(SIG_UNBLOCK, &unblock, nil)
    signal(SIGTERM, SIG_DFL)
    signal(SIGINT, SIG_DFL)
    let listener = try openListener(host: host, port: port)
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    print(
      "serving \(paths.joined(separator: ", ")) on http://\(host):\(UInt16(bigEndian: address.sin_port))"
    )
    fflush(nil)
    for _ in 0..<threads {
      Thread.detachNewThread {
        while true {
          let fd = accept(listener, nil, nil)
          if fd < 0 { continue }
          handle(fd, client: client)
          close(fd)
        }
      }
    }
    while true { sleep(3600) }
  }

  static func openListener(host: String, port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw PlacesError.invalidArgument("cannot create a socket") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = UInt16(port).bigEndian
    guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else {
      throw UsageError("--host '\(host)' is not an IPv4 address")
    }
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      throw PlacesError.invalidArgument(
        "cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
    }
    return fd
  }

  /// Reads one request, answers it, and returns.
  static func handle(_ fd: Int32, client: PlacesClient) {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    var headerEnd: Int? = nil
    var contentLength = 0
    while data.count <= maxRequestBytes {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      data.append(contentsOf: buffer[0..<n])
      if headerEnd == nil, let r = find([13, 10, 13, 10], in: data) {
        headerEnd = r + 4
        let head = String(decoding: data[0..<r], as: UTF8.self).lowercased()
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          contentLength = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
      if let h = headerEnd, data.count >= h + contentLength { break }
    }
    guard let h = headerEnd, data.count >= h + contentLength, contentLength <= maxRequestBytes
    else {
      respond(
        fd, 400,
        PlacesJSONProtocol.encodeError(.invalidArgument("malformed or oversized HTTP request")))
      return
    }
    let requestLine = String(decoding: data[0..<(find([13, 10], in: data) ?? 0)], as: UTF8.self)
    let parts = requestLine.split(separator: " ")
    guard parts.count >= 2 else {
      respond(fd, 400, PlacesJSONProtocol.encodeError(.invalidArgument("malformed request line")))
      return
    }
    let method = parts[0]
    let target = String(parts[1])
    let body = String(decoding: data[h..<(h + contentLength)], as: UTF8.self)
    var fieldMask: String? = nil
    for line in String(decoding: data[0..<h], as: UTF8.self).split(separator: "\r\n").dropFirst() {
      if let colon = line.firstIndex(of: ":"),
        line[..<colon].lowercased() == "x-goog-fieldmask"
      {
        fieldMask = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    if method == "POST" && target == "/v1/places:autocomplete" {
      do {
        let request = try PlacesJSONProtocol.decodeRequest(body)
        respond(
          fd, 200,
          PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request)))
      } catch {
        respond(fd, error.code, PlacesJSONProtocol.encodeError(error))
      }
    } else if method == "GET" && target.hasPrefix("/v1/places/") {
      let rest = target.dropFirst("/v1/places/".count)
      let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] } ?? ""
      var parameters: [String: String] = [:]
      for item in query.split(separator: "&") {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let value = pair.count > 1 ? String(pair[1]).replacingOccurrences(of: "+", with: " ") : ""
        parameters[String(pair[0])] = value.removingPercentEncoding ?? value
      }
      let rawID = String(rest.prefix { $0 != "?" })
      do {
        // The header wins over the parameter; without either, every field.
        let properties =
          try (fieldMask ?? parameters["fields"]).map(PlaceProperty.parseFieldMask)
          ?? Set(PlaceProperty.allCases)
        let place = try client.fetchPlace(
          with: FetchPlaceRequest(
            placeID: rawID.removingPercentEncoding ?? rawID, placeProperties: properties,
            languageCode: parameters["languageCode"]))
        respond(fd, 200, PlacesJSONProtocol.encodePlace(place))
      } catch {
        respond(fd, error.code, PlacesJSONProtocol.encodeError(error))
      }
    } else {
      respond(fd, 404, PlacesJSONProtocol.encodeError(.notFound("no route \(method) \(target)")))
    }
  }

  static func respond(_ fd: Int32, _ status: Int, _ json: String) {
    let reason =
      status == 200 ? "OK" : status == 404 ? "Not Found" : status == 400 ? "Bad Request" : "Error"
    let body = Array(json.utf8)
    let head =
      "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json; charset=utf-8\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(head.utf8) + body
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return }
      sent += n
    }
  }

  static func find(_ needle: [UInt8], in data: [UInt8]) -> Int? {
    guard data.count >= needle.count else { return nil }
    for i in 0...(data.count - needle.count) where data[i] == needle[0] {
      if data[i..<(i + needle.count)].elementsEqual(needle) { return i }
    }
    return nil
  }
}
