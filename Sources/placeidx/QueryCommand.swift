import Foundation
import PlaceCore
import PlaceIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `placeidx query`: one query (human-readable or `--json`), or JSON lines on stdin.
enum QueryCommand {
  static let valued: Set<String> = [
    "index", "origin", "bias-circle", "bias-rect", "restrict-circle", "restrict-rect", "types",
    "countries", "region", "language", "offset", "max", "session",
  ]

  static func run(_ args: [String]) throws {
    let a = try Arguments(args, valued: valued, flags: ["json", "jsonl", "explain"])
    let paths = a.values("index")
    guard !paths.isEmpty else { throw UsageError("query needs --index FILE") }
    // The command line is checked whole before any index is opened (a usage error is exit 2
    // whatever the files are).
    if a.flag("jsonl") {
      guard a.positional.isEmpty else {
        throw UsageError("--jsonl reads requests from stdin; give no query")
      }
      try PackedArtifactGiven.check(paths)
      let client = try PlacesClient(indexPaths: paths)
      // One response line per request line, a blank line included (it gets an error object),
      // so that responses stay aligned with requests.
      while let line = readLine(strippingNewline: true) {
        print(answer(jsonLine: line, client: client))
        fflush(nil)
      }
      return
    }
    guard a.positional.count == 1 else {
      throw UsageError("query needs one QUERY argument (quote it)")
    }
    var request = AutocompleteRequest(query: a.positional[0], filter: try filter(a))
    if let m = a.value("max") {
      guard let n = Int(m) else { throw UsageError("--max needs a whole number, got '\(m)'") }
      request.maxResultCount = n
    }
    if let s = a.value("session") { request.sessionToken = AutocompleteSessionToken(s) }
    try PackedArtifactGiven.check(paths)
    let client = try PlacesClient(indexPaths: paths)
    if a.flag("explain") {
      try explain(client.explainedSuggestions(for: request))
      for attribution in client.attributions { print("   \(attribution)") }
      return
    }
    let suggestions = try client.autocompleteSuggestions(for: request)
    if a.flag("json") {
      print(PlacesJSONProtocol.encodeResponse(suggestions))
      return
    }
    if suggestions.isEmpty { print("(no suggestions)") }
    for (i, s) in suggestions.enumerated() {
      guard let p = s.placeSuggestion else { continue }
      var line = "\(i + 1). \(bold(p.fullText))  [\(p.placeID)] \(p.types.first ?? "")"
      if let d = p.distanceMeters { line += "  \(d) m" }
      print(line)
    }
    for attribution in client.attributions { print("   \(attribution)") }
  }

  /// The response line to one request line of `--jsonl`: suggestions, or the error object (a
  /// request with a session token counts in the client's sessions, as on every path).
  static func answer(jsonLine line: String, client: PlacesClient) -> String {
    do throws(PlacesError) {
      let request = try PlacesJSONProtocol.decodeRequest(line)
      return PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
    } catch {
      return PlacesJSONProtocol.encodeError(error)
    }
  }

  /// Each suggestion with its score in parts and the duplicates folded into it.
  static func explain(_ explained: [ExplainedSuggestion]) {
    if explained.isEmpty { print("(no suggestions, or a plus code: nothing to explain)") }
    for (i, e) in explained.enumerated() {
      let p = e.suggestion
      print("\(i + 1). \(bold(p.fullText))  [\(p.placeID)] \(p.types.first ?? "")")
      if let area = e.area {
        print(
          "   found inside the box of \(area.fullText.text) [\(area.placeID)] \(area.types.first ?? ""),"
            + " which the query's other words name")
      }
      print("   \(e.breakdown)")
      for c in e.collapsed {
        print(
          "   folded in: \(c.suggestion.placeID) \(c.suggestion.types.first ?? "") (same name and "
            + "place, nearby): \(c.breakdown)")
      }
    }
  }

  /// The text with matched ranges in brackets, for terminals without styling.
  static func bold(_ t: MatchedText) -> String {
    var out = ""
    var scalars = Array(t.text.unicodeScalars)
    var position = 0
    for r in t.matches where r.lowerBound >= position && r.upperBound <= scalars.count {
      out += String(String.UnicodeScalarView(scalars[position..<r.lowerBound]))
      out += "[" + String(String.UnicodeScalarView(scalars[r])) + "]"
      position = r.upperBound
    }
    out += String(String.UnicodeScalarView(scalars[position...]))
    scalars.removeAll()
    return out
  }

  static func numbers(_ text: String, count: Int, option: String) throws -> [Double] {
    let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
      throw UsageError("--\(option) needs \(count) comma-separated numbers, got '\(text)'")
    }
    return parts.map { $0! }
  }

  static func filter(_ a: Arguments) throws -> AutocompleteFilter {
    var f = AutocompleteFilter()
    if let o = a.value("origin") {
      let n = try numbers(o, count: 2, option: "origin")
      f.origin = Coordinate(latitude: n[0], longitude: n[1])
    }
    func circle(_ option: String) throws -> CoordinateRegion? {
      guard let v = a.value(option) else { return nil }
      let n = try numbers(v, count: 3, option: option)
      return .circle(center: Coordinate(latitude: n[0], longitude: n[1]), radiusMeters: n[2])
    }
    func rect(_ option: String) throws -> CoordinateRegion? {
      guard let v = a.value(option) else { return nil }
      let n = try numbers(v, count: 4, option: option)
      return .rectangle(
        low: Coordinate(latitude: n[0], longitude: n[1]),
        high: Coordinate(latitude: n[2], longitude: n[3]))
    }
    f.coordinateRegionBias = try circle("bias-circle") ?? rect("bias-rect")
    f.coordinateRegionRestriction = try circle("restrict-circle") ?? rect("restrict-rect")
    if let t = a.value("types") { f.types = t.split(separator: ",").map(String.init) }
    if let c = a.value("countries") { f.countries = c.split(separator: ",").map(String.init) }
    f.regionCode = a.value("region")
    f.languageCode = a.value("language")
    if let o = a.value("offset") {
      guard let n = Int(o) else { throw UsageError("--offset needs a whole number, got '\(o)'") }
      f.inputOffset = n
    }
    return f
  }
}
