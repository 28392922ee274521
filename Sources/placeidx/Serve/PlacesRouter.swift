import PlaceIndex

/// Routing and JSON for `placeidx serve`: the Places API (New) endpoints, the widget's static
/// files and a health check. Pure: a request in, a response out (the HTTP daemon does framing,
/// timeouts and connection limits). The same router answers the seeded random-request test.
struct PlacesRouter: Sendable {
  /// The most bytes of a request body (an autocomplete request is well under 1 KB).
  static let maxBodyBytes = 64 * 1024
  /// The longest path plus query.
  static let maxTargetBytes = 4 * 1024
  /// The most bytes of headers (libmicrohttpd refuses those past its 16 KiB of connection
  /// memory itself, with 431).
  static let maxHeaderBytes = 8 * 1024
  /// The most characters of request text an error message repeats.
  static let maxEchoedCharacters = 80

  let client: PlacesClient
  /// The API key a request must carry (header `X-Goog-Api-Key` or `?key=`), if any.
  let apiKey: String?

  /// The endpoints and the methods each allows (OPTIONS, the CORS preflight, on every one).
  enum Route: Equatable {
    case widgetPage, widgetScript, health, autocomplete, details(String)

    var allowed: String {
      switch self {
      case .autocomplete: "POST, OPTIONS"
      default: "GET, OPTIONS"
      }
    }
    var method: String { self == .autocomplete ? "POST" : "GET" }
    /// Whether the API key (when one is configured) is needed.
    var needsKey: Bool {
      switch self {
      case .autocomplete, .details: true
      default: false
      }
    }
  }

  static func route(_ path: String) -> Route? {
    switch path {
    case "/", "/index.html": return .widgetPage
    case "/widget.js": return .widgetScript
    case "/healthz": return .health
    case "/v1/places:autocomplete": return .autocomplete
    default:
      let prefix = "/v1/places/"
      guard path.hasPrefix(prefix) else { return nil }
      let id = String(path.dropFirst(prefix.count))
      guard !id.isEmpty, !id.contains("/") else { return nil }
      return .details(id)
    }
  }

  /// The answer to a request whose headers have arrived, before its body is read: an error
  /// (wrong route or method, missing length, too large, no key), the preflight, or nil when the
  /// body should be read and ``respond(to:)`` called.
  func check(head request: HTTPRequest) -> HTTPResponse? {
    early(request).map(Self.withCommonHeaders)
  }

  /// The answer to a whole request.
  func respond(to request: HTTPRequest) -> HTTPResponse {
    Self.withCommonHeaders(early(request) ?? answer(request))
  }

  /// The answer to a whole request whose head ``check(head:)`` has passed (the daemon's path:
  /// the head's checks are not made twice).
  func respond(toChecked request: HTTPRequest) -> HTTPResponse {
    Self.withCommonHeaders(answer(request))
  }

  /// CORS (any origin may call: there are no cookies, and the key, when one is needed, travels
  /// with each request) and nosniff, on every response.
  static func withCommonHeaders(_ response: HTTPResponse) -> HTTPResponse {
    var r = response
    r.headers.append(("Access-Control-Allow-Origin", "*"))
    r.headers.append(("X-Content-Type-Options", "nosniff"))
    return r
  }

  private func early(_ request: HTTPRequest) -> HTTPResponse? {
    if request.targetLength > Self.maxTargetBytes {
      return Self.error(414, "URI_TOO_LONG", "the request target is longer than 4096 bytes")
    }
    if request.headerBytes > Self.maxHeaderBytes {
      return Self.error(
        431, "REQUEST_HEADER_FIELDS_TOO_LARGE",
        "the request headers are larger than \(Self.maxHeaderBytes) bytes")
    }
    guard let route = Self.route(request.path) else {
      return Self.error(
        404, "NOT_FOUND", "no such endpoint: \(Self.excerpt(request.path))")
    }
    if request.method == "OPTIONS" {
      return HTTPResponse(
        status: 204,
        headers: [
          ("Allow", route.allowed), ("Access-Control-Allow-Methods", route.allowed),
          (
            "Access-Control-Allow-Headers",
            "Content-Type, X-Goog-Api-Key, X-Goog-FieldMask"
          ),
          ("Access-Control-Max-Age", "600"),
        ])
    }
    guard request.method == route.method else {
      var response = Self.error(
        405, "METHOD_NOT_ALLOWED",
        "\(Self.excerpt(request.method)) is not allowed here; allowed: \(route.allowed)")
      response.headers.append(("Allow", route.allowed))
      return response
    }
    if route.needsKey, let apiKey {
      guard let given = request.header("x-goog-api-key") ?? request.parameter("key") else {
        return Self.error(
          403, "PERMISSION_DENIED",
          "the request is missing an API key (X-Goog-Api-Key header or key parameter)")
      }
      guard Self.constantTimeEqual(given, apiKey) else {
        return Self.error(400, "INVALID_ARGUMENT", "API key not valid")
      }
    }
    if route == .autocomplete {
      let chunked = request.header("transfer-encoding")?.lowercased().contains("chunked") ?? false
      guard let lengthText = request.header("content-length") else {
        if chunked { return nil }
        return Self.error(411, "LENGTH_REQUIRED", "POST needs a Content-Length header")
      }
      guard let length = UInt64(lengthText.trimmingSpaces) else {
        return Self.error(
          400, "INVALID_ARGUMENT", "bad Content-Length: \(Self.excerpt(lengthText))")
      }
      if length > UInt64(Self.maxBodyBytes) {
        return Self.error(
          413, "PAYLOAD_TOO_LARGE", "the request body is larger than \(Self.maxBodyBytes) bytes")
      }
    }
    return nil
  }

  private func answer(_ request: HTTPRequest) -> HTTPResponse {
    if request.body.count > Self.maxBodyBytes {
      return Self.error(
        413, "PAYLOAD_TOO_LARGE", "the request body is larger than \(Self.maxBodyBytes) bytes")
    }
    switch Self.route(request.path)! {
    case .widgetPage:
      return HTTPResponse(
        status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Array(WidgetFiles.page.utf8))
    case .widgetScript:
      return HTTPResponse(
        status: 200,
        headers: [
          ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "max-age=300"),
        ],
        body: Array(WidgetFiles.script.utf8))
    case .health:
      return .json(200, #"{"status":"ok"}"#)
    case .autocomplete:
      do throws(PlacesError) {
        let request = try PlacesJSONProtocol.decodeRequest(body: request.body)
        let suggestions = try client.autocompleteSuggestions(for: request)
        return .json(200, bytes: PlacesJSONProtocol.encodeResponseBytes(suggestions))
      } catch {
        return Self.error(error)
      }
    case .details(let id):
      do throws(PlacesError) {
        // The header wins over the parameter; without either, every field.
        let mask = request.header("x-goog-fieldmask") ?? request.parameter("fields")
        let properties = try mask.map(PlaceProperty.parseFieldMask) ?? Set(PlaceProperty.allCases)
        let place = try client.fetchPlace(
          with: FetchPlaceRequest(
            placeID: id, placeProperties: properties,
            sessionToken: request.parameter("sessionToken").map(AutocompleteSessionToken.init),
            languageCode: request.parameter("languageCode")))
        return .json(200, PlacesJSONProtocol.encodePlace(place))
      } catch {
        return Self.error(error)
      }
    }
  }

  /// The JSON error shape of the hosted API: `{"error":{"code","status","message"}}`.
  static func error(_ code: Int, _ status: String, _ message: String) -> HTTPResponse {
    .json(
      code,
      JSONValue.object([
        (
          "error",
          .object([
            ("code", .number(Double(code))), ("status", .string(status)),
            ("message", .string(message)),
          ])
        )
      ]).serialized)
  }

  /// A client error as JSON, its message cut to a short length (a message may quote the request).
  static func error(_ error: PlacesError) -> HTTPResponse {
    Self.error(error.code, error.status, shortened(error.message, to: 200))
  }

  /// At most `maxEchoedCharacters` of request text, for an error message.
  static func excerpt(_ text: String) -> String {
    "'" + shortened(text, to: maxEchoedCharacters) + "'"
  }

  static func shortened(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit)) + "…"
  }

  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = x.count ^ y.count
    for i in 0..<max(x.count, y.count) {
      difference |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0))
    }
    return difference == 0
  }
}

extension String {
  var trimmingSpaces: Substring {
    let s = drop { $0 == " " || $0 == "\t" }
    return s.prefix(s.count - s.reversed().prefix { $0 == " " || $0 == "\t" }.count)
  }
}
