import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `placeidx serve` child process on loopback, on a port the kernel chose. Stopped with
/// SIGKILL (and waited for) when released, so that no server outlives its test.
public final class ServeProcess: @unchecked Sendable {
  public let process = Process()
  public let port: Int
  /// The first line it printed.
  public let startupLine: String
  private let output: Pipe

  /// Starts `placeidx serve --index INDEX --port 0 ARGUMENTS…` and waits for its startup line.
  public init(index: String, arguments: [String] = []) throws {
    process.executableURL = TestPaths.placeidx
    process.arguments = ["serve", "--index", index, "--port", "0"] + arguments
    output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    startupLine = String(decoding: line, as: UTF8.self)
    guard let match = startupLine.firstMatch(of: /(?:127\.0\.0\.1|\[::1\]):(\d+)/),
      let port = Int(match.1)
    else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw ServeProcessError(message: "no startup line: '\(startupLine)'")
    }
    self.port = port
  }

  /// The rest of what it printed on stdout, after it has exited.
  public func remainingOutput() -> String {
    String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// Sends `signal` and waits (at most `seconds`) for the exit; the exit status, or nil.
  public func stop(signal: Int32 = SIGTERM, within seconds: Double = 20) -> Int32? {
    kill(process.processIdentifier, signal)
    let end = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < end { usleep(20_000) }
    return process.isRunning ? nil : process.terminationStatus
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}

public struct ServeProcessError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

/// A client socket to 127.0.0.1 with send and receive timeouts, for raw HTTP exchanges.
public final class RawConnection {
  public let fd: Int32

  public init(port: Int, timeout: Double = 5) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServeProcessError(message: "socket failed") }
    var t = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = UInt16(port).bigEndian
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw ServeProcessError(message: "connect to 127.0.0.1:\(port) failed: errno \(errno)")
    }
  }

  /// Sends all of `bytes`; false when the peer has closed or the send timed out.
  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }

  @discardableResult
  public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Reads until the peer closes, the receive timeout passes, or `until` says the bytes so far
  /// are enough.
  public func receive(until done: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !done(data) {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      data.append(contentsOf: buffer[0..<n])
    }
    return data
  }

  /// Whether the peer has closed the connection (a read that does not wait gives end of file
  /// or an error).
  public func peerClosed() -> Bool {
    var byte: UInt8 = 0
    let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
  }

  deinit { close(fd) }
}

/// One HTTP response parsed from raw bytes.
public struct RawResponse: Sendable {
  public var status: Int
  public var headers: [String: String]
  public var body: String

  /// The responses in `bytes`, in order (each framed by its Content-Length).
  public static func parseAll(_ bytes: [UInt8]) -> [RawResponse] {
    var responses: [RawResponse] = []
    var rest = bytes[...]
    let separator: [UInt8] = [13, 10, 13, 10]
    while let end = rest.firstRange(of: separator) {
      let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
      let lines = head.components(separatedBy: "\r\n")
      let parts = lines[0].split(separator: " ")
      guard parts.count >= 2, let status = Int(parts[1]) else { break }
      var headers: [String: String] = [:]
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
      let length = Int(headers["content-length"] ?? "0") ?? 0
      let bodyStart = end.upperBound
      let bodyEnd = min(rest.endIndex, bodyStart + length)
      responses.append(
        RawResponse(
          status: status, headers: headers,
          body: String(decoding: rest[bodyStart..<bodyEnd], as: UTF8.self)))
      rest = rest[bodyEnd...]
    }
    return responses
  }
}
