import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ServeTests {
  /// Sends one HTTP request to the server and returns status and body.
  func fetch(_ url: URL, body: String? = nil, fieldMask: String? = nil) async throws -> (
    Int, String
  ) {
    var request = URLRequest(url: url, timeoutInterval: 20)
    if let fieldMask { request.setValue(fieldMask, forHTTPHeaderField: "X-Goog-FieldMask") }
    if let body {
      request.httpMethod = "POST"
      request.httpBody = Data(body.utf8)
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  @Test func servesAutocompleteAndDetailsOverHTTPOnLoopback() async throws {
    let dir = try TestPaths.temporaryDirectory()
    let index = dir.appendingPathComponent("sample.placeidx").path
    let built = try runProcess(
      TestPaths.placeidx,
      ["build", TestPaths.data + "/sample.osm", "-o", index, "--data", TestPaths.data])
    try #require(built.status == 0)
    let server = Process()
    server.executableURL = TestPaths.placeidx
    server.arguments = ["serve", "--index", index, "--host", "127.0.0.1", "--port", "0"]
    let out = Pipe()
    server.standardOutput = out
    try server.run()
    // SIGKILL and wait: a server left running would hold the test runner's output open.
    defer {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    // The first line names the port the kernel chose.
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self)
    let port = try #require(text.firstMatch(of: /127\.0\.0\.1:(\d+)/)?.1)
    let base = "http://127.0.0.1:\(port)"
    let (status, body) = try await fetch(
      URL(string: base + "/v1/places:autocomplete")!, body: #"{"input":"apo"}"#)
    #expect(status == 200)
    #expect(body.contains("Apotheke zum Löwen"))
    let (bad, error) = try await fetch(
      URL(string: base + "/v1/places:autocomplete")!,
      body: #"{"input":"apo","includedRegionCodes":["AUT"]}"#)
    #expect(bad == 400 && error.contains("INVALID_ARGUMENT"))
    let id = try #require(body.firstMatch(of: /"placeId":"([NWR]\d+)"/)?.1)
    let (ok, details) = try await fetch(URL(string: base + "/v1/places/\(id)?fields=displayName")!)
    #expect(ok == 200 && details.contains(#""displayName""#) && !details.contains("location"))
    let (missing, _) = try await fetch(URL(string: base + "/v1/places/N1")!)
    #expect(missing == 404)
    // The field mask header wins over the parameter; an unknown field is refused by name.
    let (masked, location) = try await fetch(
      URL(string: base + "/v1/places/\(id)?fields=displayName")!, fieldMask: "location")
    #expect(masked == 200 && location.contains(#""location""#) && !location.contains("displayName"))
    let (refused, unknown) = try await fetch(
      URL(string: base + "/v1/places/\(id)?fields=displayName%2Cbogus")!)
    #expect(refused == 400 && unknown.contains("unknown field 'bogus'"))
  }
}
