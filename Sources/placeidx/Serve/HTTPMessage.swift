/// A request as the server's routing sees it: libmicrohttpd has done the framing (request line,
/// headers, chunked bodies, keep-alive); this is what is left to route.
struct HTTPRequest: Sendable {
  /// The method, as sent ("GET", "POST", …).
  var method: String
  /// The path, percent-decoded, without the query.
  var path: String
  /// The query parameters, decoded, in order.
  var query: [(name: String, value: String)] = []
  /// The headers, names lowercased, in order.
  var headers: [(name: String, value: String)] = []
  /// The body (empty until it has been read).
  var body: [UInt8] = []

  /// The last value of a header (name in any case).
  func header(_ name: String) -> String? {
    let key = name.lowercased()
    return headers.last { $0.name == key }?.value
  }

  /// The last value of a query parameter.
  func parameter(_ name: String) -> String? {
    query.last { $0.name == name }?.value
  }

  /// The size of the path and query, as a rough measure of the request target's length.
  var targetLength: Int {
    path.utf8.count + query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 }
  }

  /// The size of the headers in bytes, as they were sent (name, ": ", value, CRLF).
  var headerBytes: Int {
    headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
  }
}

/// A response: status, extra headers and body.
struct HTTPResponse: Sendable {
  var status: Int
  var headers: [(name: String, value: String)] = []
  var body: [UInt8] = []

  init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON response.
  static func json(_ status: Int, _ text: String) -> HTTPResponse {
    json(status, bytes: Array(text.utf8))
  }

  /// A JSON response from its UTF-8 bytes.
  static func json(_ status: Int, bytes: [UInt8]) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
      body: bytes)
  }

  /// The value of a header (name in any case).
  func header(_ name: String) -> String? {
    let key = name.lowercased()
    return headers.last { $0.name.lowercased() == key }?.value
  }
}
