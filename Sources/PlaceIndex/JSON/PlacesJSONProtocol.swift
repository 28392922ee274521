import PlaceCore

/// The JSON shapes of the Places API (New) REST protocol: requests in, responses out. Used by
/// `placeidx query --jsonl` and by anyone serving an index over HTTP.
public enum PlacesJSONProtocol {
  /// Request fields accepted. `includeQueryPredictions` and `includePureServiceAreaBusinesses`
  /// are accepted and ignored (this index has no query predictions and no service areas).
  public static let requestFields: Set<String> = [
    "input", "inputOffset", "origin", "locationBias", "locationRestriction",
    "includedPrimaryTypes", "includedRegionCodes", "languageCode", "regionCode", "sessionToken",
    "maxResultCount", "includeQueryPredictions", "includePureServiceAreaBusinesses",
  ]

  /// Decodes one request line. A blank line is refused like any other bad line, so that a
  /// caller answering line by line keeps its responses aligned with the requests.
  public static func decodeRequest(_ line: String) throws(PlacesError) -> AutocompleteRequest {
    try decodeRequest(validUTF8: Array(line.utf8))
  }

  /// Decodes a request body as it came (`placeidx serve`): ASCII bytes are parsed as they are,
  /// others go through a String first (invalid UTF-8 becomes U+FFFD, as in ``decodeRequest(_:)``).
  package static func decodeRequest(body: [UInt8]) throws(PlacesError) -> AutocompleteRequest {
    if body.allSatisfy({ $0 < 0x80 }) { return try decodeRequest(validUTF8: body) }
    return try decodeRequest(String(decoding: body, as: UTF8.self))
  }

  private static func decodeRequest(validUTF8 line: [UInt8]) throws(PlacesError)
    -> AutocompleteRequest
  {
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) {
      throw .invalidArgument("empty request line: each line must be one JSON request object")
    }
    let json = try JSONParser.parse(utf8: line)
    guard case .object(let pairs) = json else {
      throw .invalidArgument("a request must be a JSON object")
    }
    for (k, _) in pairs where !requestFields.contains(k) {
      throw .invalidArgument("unknown request field '\(k)'")
    }
    guard case .string(let input)? = json["input"] else {
      throw .invalidArgument("'input' is required and must be a string")
    }
    var filter = AutocompleteFilter()
    if let v = json["inputOffset"] { filter.inputOffset = try integer(v, "inputOffset") }
    if let v = json["origin"] { filter.origin = try coordinate(v, "origin") }
    if let v = json["locationBias"] { filter.coordinateRegionBias = try region(v, "locationBias") }
    if let v = json["locationRestriction"] {
      filter.coordinateRegionRestriction = try region(v, "locationRestriction")
    }
    if let v = json["includedPrimaryTypes"] {
      filter.types = try strings(v, "includedPrimaryTypes")
    }
    if let v = json["includedRegionCodes"] {
      filter.countries = try strings(v, "includedRegionCodes")
    }
    if let v = json["languageCode"] { filter.languageCode = try string(v, "languageCode") }
    if let v = json["regionCode"] { filter.regionCode = try string(v, "regionCode") }
    var request = AutocompleteRequest(query: input, filter: filter)
    if let v = json["sessionToken"] {
      request.sessionToken = AutocompleteSessionToken(try string(v, "sessionToken"))
    }
    if let v = json["maxResultCount"] { request.maxResultCount = try integer(v, "maxResultCount") }
    return request
  }

  /// Encodes suggestions as one response line.
  public static func encodeResponse(_ suggestions: [AutocompleteSuggestion]) -> String {
    String(decoding: encodeResponseBytes(suggestions), as: UTF8.self)
  }

  /// The response line's UTF-8 bytes, written directly (``JSONWriter``, fixed stretches of
  /// the shape as they are): byte for byte `responseObject(suggestions).serialized`, without the
  /// tree. A field added to the response is added to both (`JSONWriterTests` compares them).
  package static func encodeResponseBytes(_ suggestions: [AutocompleteSuggestion]) -> [UInt8] {
    var w = JSONWriter(capacity: 256 + 384 * suggestions.count)
    w.raw(#"{"suggestions":["#)
    var first = true
    for s in suggestions {
      guard let p = s.placeSuggestion else { continue }
      w.raw(
        first ? #"{"placePrediction":{"place":"places/"# : #",{"placePrediction":{"place":"places/"#
      )
      first = false
      w.rawEscaped(p.placeID)
      w.raw(#"","placeId":"#)
      w.rawString(p.placeID)
      w.raw(#","text":"#)
      write(p.fullText, to: &w)
      w.raw(#","structuredFormat":{"mainText":"#)
      write(p.primaryText, to: &w)
      w.raw(#","secondaryText":"#)
      write(p.secondaryText, to: &w)
      w.raw(#"},"types":["#)
      for (i, t) in p.types.enumerated() {
        if i > 0 { w.raw(",") }
        w.rawString(t)
      }
      w.raw("]")
      if let d = p.distanceMeters {
        w.raw(#","distanceMeters":"#)
        w.rawNumber(Double(d))
      }
      w.raw("}}")
    }
    w.raw("]}")
    return w.bytes
  }

  static func write(_ t: MatchedText, to w: inout JSONWriter) {
    w.raw(#"{"text":"#)
    w.rawString(t.text)
    if !t.matches.isEmpty {
      w.raw(#","matches":["#)
      for (i, m) in t.matches.enumerated() {
        w.raw(i == 0 ? #"{"startOffset":"# : #",{"startOffset":"#)
        w.rawNumber(Double(m.lowerBound))
        w.raw(#","endOffset":"#)
        w.rawNumber(Double(m.upperBound))
        w.raw("}")
      }
      w.raw("]")
    }
    w.raw("}")
  }

  /// The response as a tree: the shape ``encodeResponseBytes(_:)`` writes (kept as its
  /// reference; `JSONWriterTests` compares the two).
  package static func responseObject(_ suggestions: [AutocompleteSuggestion]) -> JSONValue {
    let items: [JSONValue] = suggestions.compactMap { s in
      guard let p = s.placeSuggestion else { return nil }
      var fields: [(String, JSONValue)] = [
        ("place", .string("places/" + p.placeID)),
        ("placeId", .string(p.placeID)),
        ("text", text(p.fullText)),
        (
          "structuredFormat",
          .object([("mainText", text(p.primaryText)), ("secondaryText", text(p.secondaryText))])
        ),
        ("types", .array(p.types.map { .string($0) })),
      ]
      if let d = p.distanceMeters { fields.append(("distanceMeters", .number(Double(d)))) }
      return .object([("placePrediction", .object(fields))])
    }
    return JSONValue.object([("suggestions", .array(items))])
  }

  /// Encodes an error as one response line.
  public static func encodeError(_ error: PlacesError) -> String {
    JSONValue.object([
      (
        "error",
        .object([
          ("code", .number(Double(error.code))), ("status", .string(error.status)),
          ("message", .string(error.message)),
        ])
      )
    ]).serialized
  }

  static func text(_ t: MatchedText) -> JSONValue {
    var fields: [(String, JSONValue)] = [("text", .string(t.text))]
    if !t.matches.isEmpty {
      fields.append(
        (
          "matches",
          .array(
            t.matches.map {
              .object([
                ("startOffset", .number(Double($0.lowerBound))),
                ("endOffset", .number(Double($0.upperBound))),
              ])
            })
        ))
    }
    return .object(fields)
  }

  static func string(_ v: JSONValue, _ name: String) throws(PlacesError) -> String {
    guard case .string(let s) = v else { throw .invalidArgument("'\(name)' must be a string") }
    return s
  }

  static func strings(_ v: JSONValue, _ name: String) throws(PlacesError) -> [String] {
    guard case .array(let a) = v else {
      throw .invalidArgument("'\(name)' must be an array of strings")
    }
    var out: [String] = []
    for item in a {
      guard case .string(let s) = item else {
        throw .invalidArgument("'\(name)' must be an array of strings")
      }
      out.append(s)
    }
    return out
  }

  /// The JSON type of `v`, for messages.
  static func kind(_ v: JSONValue) -> String {
    switch v {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  static func number(_ v: JSONValue, _ name: String) throws(PlacesError) -> Double {
    guard case .number(let n) = v else {
      throw .invalidArgument("'\(name)' must be a number, not \(kind(v))")
    }
    guard n.isFinite else { throw .invalidArgument("'\(name)' must be a finite number") }
    return n
  }

  static func integer(_ v: JSONValue, _ name: String) throws(PlacesError) -> Int {
    guard case .number(let n) = v else {
      throw .invalidArgument("'\(name)' must be an integer, not \(kind(v))")
    }
    guard n.isFinite, n == n.rounded(), abs(n) < 1e9 else {
      throw .invalidArgument("'\(name)' must be an integer")
    }
    return Int(n)
  }

  static func coordinate(_ v: JSONValue, _ name: String) throws(PlacesError) -> Coordinate {
    guard case .object(let pairs) = v else {
      throw .invalidArgument("'\(name)' must be an object with latitude and longitude")
    }
    for (k, _) in pairs where k != "latitude" && k != "longitude" {
      throw .invalidArgument("unknown field '\(k)' in '\(name)'")
    }
    // Both are required: a missing one is not taken as 0 (an empty object is not 0,0).
    guard let latitude = v["latitude"], let longitude = v["longitude"] else {
      let missing = v["latitude"] == nil ? "latitude" : "longitude"
      throw .invalidArgument("'\(name)' needs both latitude and longitude; \(missing) is missing")
    }
    let c = Coordinate(
      latitude: try number(latitude, "\(name).latitude"),
      longitude: try number(longitude, "\(name).longitude"))
    guard c.isValid else {
      throw .invalidArgument(
        "'\(name)' \(c.latitude),\(c.longitude) is out of range (latitude -90..90, longitude -180..180)"
      )
    }
    return c
  }

  static func region(_ v: JSONValue, _ name: String) throws(PlacesError) -> CoordinateRegion {
    if let circle = v["circle"] {
      guard case .object(let pairs) = v, pairs.count == 1 else {
        throw .invalidArgument("'\(name)' must have exactly one of circle or rectangle")
      }
      guard let center = circle["center"] else {
        throw .invalidArgument("'\(name).circle' needs a center")
      }
      let radius =
        try circle["radius"].map { x throws(PlacesError) in try number(x, "\(name).circle.radius") }
        ?? 0
      return .circle(center: try coordinate(center, "\(name).circle.center"), radiusMeters: radius)
    }
    if let rect = v["rectangle"] {
      guard case .object(let pairs) = v, pairs.count == 1 else {
        throw .invalidArgument("'\(name)' must have exactly one of circle or rectangle")
      }
      guard let low = rect["low"], let high = rect["high"] else {
        throw .invalidArgument("'\(name).rectangle' needs both low and high corners")
      }
      return .rectangle(
        low: try coordinate(low, "\(name).rectangle.low"),
        high: try coordinate(high, "\(name).rectangle.high"))
    }
    throw .invalidArgument("'\(name)' must be a circle or a rectangle")
  }
}
