import Foundation
import PlaceIndex
import TestSupport
import Testing

@testable import placeidx

/// The routing and JSON layer of `placeidx serve` without sockets: seeded random requests (the
/// project's SplitMix64), each answered with a status from the documented set and, for errors,
/// the hosted API's JSON error shape.
@Suite struct PlacesRouterTests {
  static let index: String = {
    let dir = try! TestPaths.temporaryDirectory()
    let path = dir.appendingPathComponent("sample.placeidx").path
    let built = try! runProcess(
      TestPaths.placeidx,
      ["build", TestPaths.data + "/sample.osm", "-o", path, "--data", TestPaths.data])
    precondition(built.status == 0, built.stderr)
    return path
  }()

  static let router = PlacesRouter(
    client: try! PlacesClient(indexPaths: [index]), apiKey: nil)
  static let keyed = PlacesRouter(
    client: try! PlacesClient(indexPaths: [index]), apiKey: "k3y")

  static let statuses: Set<Int> = [200, 204, 400, 403, 404, 405, 411, 413, 414, 431, 500]

  func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T {
    items[Int(random.next() % UInt64(items.count))]
  }

  func chance(_ percent: UInt64, _ random: inout SplitMix64) -> Bool {
    random.next() % 100 < percent
  }

  /// Text from pieces that matter to the router and the JSON decoder, and random scalars.
  func text(_ random: inout SplitMix64, pieces: [String], maxParts: Int = 6) -> String {
    var s = ""
    for _ in 0..<(random.next() % UInt64(maxParts + 1)) {
      if chance(70, &random) {
        s += pick(pieces, &random)
      } else {
        let scalar = Unicode.Scalar(UInt32(random.next() % 0x3000)) ?? "x"
        s.unicodeScalars.append(scalar)
      }
    }
    return s
  }

  func randomRequest(_ random: inout SplitMix64) -> HTTPRequest {
    let methods = ["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "get", "", "X"]
    let paths = [
      "/", "/index.html", "/widget.js", "/healthz", "/v1/places:autocomplete", "/v1/places/",
      "/v1/places/N7100074", "/v1/places/W1", "/v1/places/R9", "/v1/places/N1/x", "/v1",
      "/v1/places", "//", "/v1/places:autocomplete/", "/v1/places/%00",
      "/v1/places/" + String(repeating: "9", count: 30),
    ]
    var request = HTTPRequest(method: pick(methods, &random), path: pick(paths, &random))
    if chance(10, &random) { request.path += text(&random, pieces: ["/", "a", "%", ":"]) }
    if chance(3, &random) { request.path += String(repeating: "a", count: 5000) }
    for _ in 0..<(random.next() % 4) {
      request.query.append(
        (
          pick(["fields", "languageCode", "sessionToken", "key", "x", ""], &random),
          text(
            &random, pieces: ["displayName", ",", "location", "*", "bogus", "de", "id", "types"])
        ))
    }
    if chance(40, &random) {
      request.headers.append(
        (
          "content-length",
          pick(["0", "15", "-1", "abc", "65537", "99999999999999999999", " 12 "], &random)
        ))
    }
    if chance(10, &random) { request.headers.append(("transfer-encoding", "chunked")) }
    if chance(20, &random) {
      request.headers.append(
        ("x-goog-fieldmask", text(&random, pieces: ["displayName", ",", "location", "*", "nope"])))
    }
    if chance(10, &random) {
      request.headers.append(("x-goog-api-key", pick(["k3y", "no", ""], &random)))
    }
    if chance(2, &random) {
      request.headers.append(("x-big", String(repeating: "b", count: 20_000)))
    }
    let json = [
      "{", "}", "\"input\"", ":", "\"apo\"", "\"sankt\"", ",", "\"maxResultCount\"", "3", "-1",
      "\"origin\"", "{\"latitude\":47,\"longitude\":9}", "[", "]", "null", "\"\\u0000\"", "1e999",
      "\"includedRegionCodes\"", "[\"at\"]", "\"sessionToken\"",
    ]
    if chance(50, &random) {
      request.body = Array(
        (chance(50, &random)
          ? "{\"input\":\"\(text(&random, pieces: ["apo", "haupt", " ", "1"]))\"}"
          : text(&random, pieces: json, maxParts: 12)).utf8)
    }
    if chance(2, &random) { request.body = Array(repeating: 0x61, count: 70_000) }
    return request
  }

  @Test("seeded random requests: documented statuses, JSON errors, CORS, deterministic")
  func randomRequests() throws {
    var random = SplitMix64(seed: 24)
    var seen: [Int: Int] = [:]
    var passed = 0
    for n in 0..<3000 {
      let request = randomRequest(&random)
      let router = chance(20, &random) ? Self.keyed : Self.router
      let response = router.respond(to: request)
      let label = "#\(n) \(request.method) \(request.path.prefix(60))"
      seen[response.status, default: 0] += 1
      #expect(Self.statuses.contains(response.status), "\(label): \(response.status)")
      #expect(response.header("Access-Control-Allow-Origin") == "*", "\(label)")
      let body = String(decoding: response.body, as: UTF8.self)
      if response.status >= 400 {
        let json = try JSONValue.parse(body)
        guard case .number(let code)? = json["error"]?["code"],
          case .string(let status)? = json["error"]?["status"],
          case .string(let message)? = json["error"]?["message"]
        else {
          Issue.record("\(label): not the error shape: \(body.prefix(200))")
          continue
        }
        #expect(Int(code) == response.status, "\(label)")
        #expect(!status.isEmpty && status == status.uppercased(), "\(label)")
        #expect(message.count <= 201, "\(label): message of \(message.count) characters")
      }
      if response.status == 405 { #expect(response.header("Allow") != nil, "\(label)") }
      if response.status == 200 && request.path == "/v1/places:autocomplete" {
        #expect(body.hasPrefix("{\"suggestions\":["), "\(label)")
      }
      // The early look agrees with the whole answer whenever it answers; when it lets the
      // request through, the daemon's path (the head's checks not made again) answers the same.
      if let early = router.check(head: request) {
        #expect(early.status == response.status, "\(label)")
      } else {
        let checked = router.respond(toChecked: request)
        #expect(checked.status == response.status, "\(label)")
        #expect(checked.body == response.body, "\(label)")
        #expect(checked.headers.map(\.name) == response.headers.map(\.name), "\(label)")
        passed += 1
      }
      // Deterministic: the same request, the same answer.
      #expect(router.respond(to: request).body == response.body, "\(label)")
    }
    #expect(passed > 100, "only \(passed) requests passed the head's checks")
    // The generator reaches every kind of answer it is meant to.
    for status in [200, 204, 400, 403, 404, 405, 411, 413, 414, 431] {
      #expect(seen[status, default: 0] > 0, "no request got \(status): \(seen)")
    }
  }

  @Test("routes and their methods")
  func routes() {
    #expect(PlacesRouter.route("/v1/places/N1") == .details("N1"))
    #expect(PlacesRouter.route("/v1/places/") == nil)
    #expect(PlacesRouter.route("/v1/places/a/b") == nil)
    #expect(PlacesRouter.route("/v1/places:autocomplete") == .autocomplete)
    #expect(PlacesRouter.route("/healthz") == .health)
    let head = Self.router.respond(to: HTTPRequest(method: "HEAD", path: "/healthz"))
    #expect(head.status == 405 && head.header("Allow") == "GET, OPTIONS")
    let page = Self.router.respond(to: HTTPRequest(method: "GET", path: "/"))
    #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("widget.js"))
    #expect(PlacesRouter.excerpt(String(repeating: "x", count: 1000)).count < 90)
  }
}
