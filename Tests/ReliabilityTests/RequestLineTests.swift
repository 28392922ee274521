import Foundation
import PlaceIndex
import TestSupport
import Testing

/// The request layer's precise refusals: blank lines, booleans and empty objects where numbers
/// belong, and JSON that Foundation's parser lets through (trailing commas, duplicate keys).
@Suite("Request lines")
struct RequestLineTests {
  @Test(
    "each malformed or mistyped line gets its own precise error",
    arguments: [
      ("", "Invalid argument: empty request line: each line must be one JSON request object"),
      (" \t", "Invalid argument: empty request line: each line must be one JSON request object"),
      (
        #"{"input":"a","maxResultCount":true}"#,
        "Invalid argument: 'maxResultCount' must be an integer, not true"
      ),
      (
        #"{"input":"a","inputOffset":false}"#,
        "Invalid argument: 'inputOffset' must be an integer, not false"
      ),
      (
        #"{"input":"a","origin":{}}"#,
        "Invalid argument: 'origin' needs both latitude and longitude; latitude is missing"
      ),
      (
        #"{"input":"a","origin":{"latitude":47}}"#,
        "Invalid argument: 'origin' needs both latitude and longitude; longitude is missing"
      ),
      (
        #"{"input":"a","origin":{"latitude":true,"longitude":9}}"#,
        "Invalid argument: 'origin.latitude' must be a number, not true"
      ),
      (
        #"{"input":"a",}"#, "Invalid argument: malformed JSON: trailing comma before '}' at byte 12"
      ),
      (
        #"{"input":"a","includedPrimaryTypes":["cafe",]}"#,
        "Invalid argument: malformed JSON: trailing comma before ']' at byte 43"
      ),
      (
        #"{"input":"a","input":"b"}"#,
        "Invalid argument: malformed JSON: duplicate key 'input' at byte 13"
      ),
      (
        #"{"input":"a"} x"#,
        "Invalid argument: malformed JSON: unexpected text after the JSON value at byte 14"
      ),
      (
        #"{"input":"\ud800"}"#,
        "Invalid argument: malformed JSON: lone surrogate escape in a string at byte 10"
      ),
    ])
  func refused(_ line: String, _ message: String) {
    #expect(
      throws: PlacesError.invalidArgument(String(message.dropFirst("Invalid argument: ".count)))
    ) {
      _ = try PlacesJSONProtocol.decodeRequest(line)
    }
  }

  @Test("what stays accepted: escapes, surrogate pairs, numbers, nesting, a byte order mark")
  func accepted() throws {
    let r = try PlacesJSONProtocol.decodeRequest(
      "\u{FEFF}"
        + #" { "input" : "caf\u00e9 \ud83d\ude00\n", "maxResultCount" : 2.0e0, "origin":{"latitude":-4.5E1,"longitude":0} } "#
    )
    #expect(r.query == "café 😀\n")
    #expect(r.maxResultCount == 2)
    #expect(r.filter.origin?.latitude == -45)
    let nested = try JSONValue.parse(#"[[],{},[{"a":[null,true,false,-0,1e-400]}]]"#)
    #expect(nested.serialized == #"[[],{},[{"a":[null,true,false,0,0]}]]"#)
  }

  @Test("query --jsonl answers every line, blank ones included, in order")
  func jsonlAligned() throws {
    let lines = [
      #"{"input":"apotheke"}"#, "", #"{"input":"a","maxResultCount":true}"#, "   ",
      #"{"input":"sankt"}"#,
    ]
    let run = try runProcess(
      TestPaths.placeidx, ["query", "--index", FuzzHarness.sampleIndexPath, "--jsonl"],
      input: lines.joined(separator: "\n") + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    let out = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(out.count == lines.count, "\(out)")
    guard out.count == lines.count else { return }
    #expect(out[0].hasPrefix(#"{"suggestions":["#))
    #expect(out[1].contains("empty request line"))
    #expect(out[2].contains("'maxResultCount' must be an integer, not true"))
    #expect(out[3].contains("empty request line"))
    #expect(out[4].hasPrefix(#"{"suggestions":["#))
  }
}
