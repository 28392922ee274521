import Foundation
import PlaceIndex
import Testing

/// Hostile request lines and query strings: invalid UTF-8, huge and deeply nested JSON, odd
/// numbers and escapes. Each gives an answer or a request error (400), never an index error,
/// a crash or a hang. The fuzz target FuzzRequest runs the same checks on arbitrary bytes.
@Suite("Hostile requests")
struct HostileRequestTests {
  var client: PlacesClient { FuzzHarness.sampleClient }

  /// Decodes and runs one JSON line; nil when it was answered.
  func run(_ line: String) -> PlacesError? {
    do {
      let request = try PlacesJSONProtocol.decodeRequest(line)
      _ = PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
      return nil
    } catch {
      _ = PlacesJSONProtocol.encodeError(error)
      return error
    }
  }

  @Test(
    "malformed and odd JSON lines are answered or refused with a request error",
    arguments: [
      "", " ", "{", "}", "[]", "null", "\"input\"", "{\"input\":}", "{\"input\":\"a\",}",
      "{\"input\":\"a\"}{\"input\":\"b\"}", "{\"input\":\"a\",\"input\":\"b\"}",
      "{\"input\":1}", "{\"input\":null}", "{\"input\":[\"a\"]}", "{\"input\":\"\\ud800\"}",
      "{\"input\":\"\\udc00\\ud800\"}", "{\"input\":\"\\u0000\"}", "{\"input\":\"a\\u0000b\"}",
      "{\"input\":\"\\uZZZZ\"}", "{\"input\":\"a\",\"maxResultCount\":-0}",
      "{\"input\":\"a\",\"maxResultCount\":1e999}", "{\"input\":\"a\",\"inputOffset\":1e-400}",
      "{\"input\":\"a\",\"inputOffset\":NaN}", "{\"input\":\"a\",\"maxResultCount\":\"5\"}",
      "{\"input\":\"a\",\"origin\":{\"latitude\":1e308,\"longitude\":0}}",
      "{\"input\":\"a\",\"origin\":{\"latitude\":\"47\"}}",
      "{\"input\":\"a\",\"origin\":{\"latitude\":47,\"longitude\":9,\"altitude\":1}}",
      "{\"input\":\"a\",\"locationBias\":{\"circle\":{\"center\":{\"latitude\":47,\"longitude\":9},\"radius\":1e400}}}",
      "{\"input\":\"a\",\"locationBias\":{\"circle\":{},\"rectangle\":{}}}",
      "{\"input\":\"a\",\"locationRestriction\":{\"rectangle\":{\"low\":{},\"high\":{}}}}",
      "{\"input\":\"a\",\"includedPrimaryTypes\":[1,2]}", "{\"input\":\"a\",\"languageCode\":{}}",
      "{\"input\":\"a\",\"unknown\":true}", "{\"input\":\"a\",\"sessionToken\":\"\\u0001\"}",
      "\u{FEFF}{\"input\":\"a\"}", "{\"input\":\"8FVF5WP2+2X\"}", "{\"input\":\"++++++++\"}",
      "{\"input\":\"5WP2+2X 5WP2+2X 5WP2+2X 5WP2+2X 5WP2+2X 5WP2+2X 5WP2+2X sankt\"}",
    ])
  func oddLines(_ line: String) {
    if let error = run(line) {
      #expect(error.code == 400, "\(line): \(error)")
    }
  }

  @Test("invalid UTF-8 in a line and in a query")
  func invalidUTF8() {
    let sequences: [[UInt8]] = [
      [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
      [0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98],
    ]
    for bytes in sequences {
      let text = String(
        decoding: Array("{\"input\":\"sankt".utf8) + bytes + Array("\"}".utf8), as: UTF8.self)
      if let error = run(text) { #expect(error.code == 400, "\(bytes): \(error)") }
      let query = String(decoding: Array("apo".utf8) + bytes, as: UTF8.self)
      do {
        _ = try client.autocompleteSuggestions(for: AutocompleteRequest(query: query))
      } catch {
        #expect(error.code == 400, "\(bytes): \(error)")
      }
      FuzzHarness.request(Array("apotheke ".utf8) + bytes)
    }
  }

  @Test("huge lines are refused quickly, whatever makes them huge", .timeLimit(.minutes(10)))
  func hugeLines() {
    let big = String(repeating: "a", count: 20 << 20)
    let lines = [
      "{\"input\":\"\(big)\"}",
      "{\"input\":\"a\",\"includedPrimaryTypes\":["
        + Array(repeating: "\"bar\"", count: 500_000)
        .joined(separator: ",") + "]}",
      "{\"input\":\"a\",\"includedRegionCodes\":["
        + Array(repeating: "\"AT\"", count: 500_000)
        .joined(separator: ",") + "]}",
      "{\"input\":\"a\",\"sessionToken\":\"\(big)\"}",
      "{\"input\":\"a\",\"languageCode\":\"\(big)\"}",
    ]
    for line in lines {
      let start = Date()
      let error = run(line)
      // A guard against quadratic work, not a speed target: a 20 MB line takes well under a
      // second; the bound is wide for a loaded machine.
      #expect(Date().timeIntervalSince(start) < 120)
      if let error { #expect(error.code == 400) }
    }
  }

  @Test("deeply nested JSON gives a request error, not a stack overflow")
  func deepNesting() async {
    await #expect(processExitsWith: .success) {
      for depth in [1_000, 100_000, 1_000_000] {
        let line =
          "{\"input\":\"a\",\"origin\":" + String(repeating: "[", count: depth)
          + String(repeating: "]", count: depth) + "}"
        do {
          _ = try PlacesJSONProtocol.decodeRequest(line)
        } catch let error as PlacesError {
          guard error.code == 400 else { exit(1) }
        }
        let objects =
          String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        do {
          _ = try PlacesJSONProtocol.decodeRequest(objects)
        } catch let error as PlacesError {
          guard error.code == 400 else { exit(1) }
        }
      }
    }
  }

  @Test("the request harness accepts its seeds and edge inputs")
  func harnessEdges() {
    FuzzHarness.request([])
    FuzzHarness.request([0])
    FuzzHarness.request(Array(repeating: 0xFF, count: 4096))
    FuzzHarness.request(Array("{\"input\":\"sankt\"}\n{\"input\":\"apo\"}\n".utf8))
    FuzzHarness.request(Array(String(repeating: "\n", count: 100).utf8))
    for first in 0..<8 {
      FuzzHarness.request([UInt8(first), 200] + Array("sankt quirin".utf8))
    }
  }
}
