import Foundation
import OSMReader
import TestSupport
import Testing

@Suite("OSMExtractReader: hostile and invalid input")
struct HostileInputTests {
  /// Reads `xml`; returns the elements when the read succeeds, nil when it throws an
  /// ``OSMReaderError`` (any other error is a failure).
  func elementsOrError(_ xml: String) throws -> [RecordedElement]? {
    let dir = try TemporaryDirectory()
    do {
      return try readXML(xml, in: dir).0.elements
    } catch is OSMReaderError {
      return nil
    }
  }

  @Test("billion laughs: entities are not expanded", .timeLimit(.minutes(10)))
  func billionLaughs() throws {
    var prolog = "<!DOCTYPE osm [\n  <!ENTITY lol \"lol\">\n"
    for i in 1...9 {
      let previous = i == 1 ? "lol" : "lol\(i - 1)"
      prolog += "  <!ENTITY lol\(i) \"\(String(repeating: "&\(previous);", count: 10))\">\n"
    }
    prolog += "]>\n"
    let xml = osmDocument(
      """
        <node id="1" lat="1" lon="1"><tag k="name" v="&lol9;"/></node>
        <node id="2" lat="1" lon="1"><tag k="ok" v="yes"/>&lol9;</node>
      """, prolog: prolog)
    if let elements = try elementsOrError(xml) {
      for element in elements {
        for tag in element.tags {
          #expect(tag.value.count < 1000, "\(element): \(tag.key) was expanded")
          #expect(!tag.value.contains("lollol"), "\(element): \(tag.key) was expanded")
        }
      }
    }
  }

  @Test(
    "quadratic blowup: one large entity used many times is not expanded",
    .timeLimit(.minutes(10)))
  func quadraticBlowup() throws {
    let big = String(repeating: "x", count: 50_000)
    let uses = String(repeating: "&big;", count: 2_000)
    let xml = osmDocument(
      "  <node id=\"1\" lat=\"1\" lon=\"1\"><tag k=\"name\" v=\"\(uses)\"/></node>",
      prolog: "<!DOCTYPE osm [<!ENTITY big \"\(big)\">]>\n")
    if let elements = try elementsOrError(xml) {
      for element in elements {
        for tag in element.tags { #expect(!tag.value.contains("xxxx"), "expanded") }
      }
    }
  }

  @Test(
    "external entities are never loaded",
    arguments: [
      // In an attribute value (not allowed by XML), in content, and as a parameter entity.
      (
        "<!DOCTYPE osm [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n",
        "<node id=\"1\" lat=\"1\" lon=\"1\"><tag k=\"name\" v=\"&x;\"/></node>"
      ),
      (
        "<!DOCTYPE osm [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n",
        "<node id=\"1\" lat=\"1\" lon=\"1\"><tag k=\"name\" v=\"a\"/>&x;</node>"
      ),
      (
        "<!DOCTYPE osm [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n",
        "<node id=\"1\" lat=\"1\" lon=\"1\"><tag k=\"name\" v=\"a\"/></node>"
      ),
      (
        "<!DOCTYPE osm SYSTEM \"file:///etc/passwd\">\n",
        "<node id=\"1\" lat=\"1\" lon=\"1\"><tag k=\"name\" v=\"a\"/></node>"
      ),
      (
        "<!DOCTYPE osm [<!ENTITY x SYSTEM \"http://127.0.0.1:9/osm.xml\">]>\n",
        "<node id=\"1\" lat=\"1\" lon=\"1\"><tag k=\"name\" v=\"a\"/>&x;</node>"
      ),
    ])
  func externalEntity(prolog: String, body: String) throws {
    let xml = osmDocument(body, prolog: prolog)
    let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0:"
    let firstLine = String(passwd.prefix { $0 != "\n" })
    if let elements = try elementsOrError(xml) {
      for element in elements {
        for tag in element.tags {
          #expect(!tag.value.contains("root:"), "\(element): passwd text in \(tag.key)")
          #expect(firstLine.isEmpty || !tag.value.contains(firstLine))
        }
      }
    }
  }

  @Test("10,000 nested elements fail with an error instead of crashing", .timeLimit(.minutes(10)))
  func deepNesting() throws {
    let depth = 10_000
    let dir = try TemporaryDirectory()
    let inOSM =
      "<osm version=\"0.6\">" + String(repeating: "<a>", count: depth)
      + String(repeating: "</a>", count: depth) + "</osm>"
    let inNode =
      "<osm version=\"0.6\"><node id=\"1\" lat=\"1\" lon=\"1\">"
      + String(repeating: "<tag k=\"a\" v=\"b\">", count: depth)
      + String(repeating: "</tag>", count: depth) + "</node></osm>"
    let unclosed = "<osm version=\"0.6\">" + String(repeating: "<node>", count: depth)
    for (name, xml) in [("inOSM", inOSM), ("inNode", inNode), ("unclosed", unclosed)] {
      let error = readError(try dir.write("\(name).osm", xml))
      #expect(error?.kind == "malformedXML", "\(name): \(String(describing: error))")
    }
  }

  @Test("a value just under the start-tag limit is read intact", .timeLimit(.minutes(10)))
  func largeValue() throws {
    // 2-byte characters: 500,000 of them make a start tag just under 1 MiB.
    let value = String(repeating: "ä", count: 500_000)
    let xml = osmDocument(#"<node id="1" lat="1" lon="1"><tag k="big" v="\#(value)"/></node>"#)
    let dir = try TemporaryDirectory()
    let (handler, _) = try readXML(xml, in: dir)
    #expect(handler.elements.first?["big"]?.count == value.count)
  }

  @Test("a start tag over the byte limit: an error naming the element and its line")
  func startTagTooLarge() throws {
    let value = String(repeating: "ä", count: 2_000_000)
    let xml = osmDocument(
      """
        <node id="1" lat="1" lon="1">
          <tag k="big" v="\(value)"/></node>
      """)
    let dir = try TemporaryDirectory()
    let file = try dir.write("big.osm", xml)
    #expect(
      readError(file)
        == .elementTooLarge(
          path: file.path, line: 4, element: "tag",
          reason: "its start tag is over 1048576 bytes (the limit)"))
  }

  @Test("at most 10,000 tags per element: 10,000 are read, 10,001 are an error naming the node")
  func tooManyTags() throws {
    let dir = try TemporaryDirectory()
    func document(_ n: Int) -> String {
      let tags = (0..<n).map { "<tag k=\"k\($0)\" v=\"v\"/>" }.joined()
      return osmDocument("\n<node id=\"7\" lat=\"1\" lon=\"1\">\(tags)</node>")
    }
    let (handler, _) = try readXML(document(OSMLimits.maxTagsPerElement), in: dir)
    #expect(handler.elements.first?.tags.count == 10_000)
    let file = try dir.write("many.osm", document(OSMLimits.maxTagsPerElement + 1))
    #expect(
      readError(file)
        == .elementTooLarge(
          path: file.path, line: 4, element: "node",
          reason: "more than 10000 tags (the limit per element; id 7)"))
  }

  @Test(
    "many attributes on one element are refused before libxml2's quadratic check",
    .timeLimit(.minutes(10)))
  func tooManyAttributes() throws {
    let dir = try TemporaryDirectory()
    func document(_ n: Int) -> String {
      let attributes = (0..<n).map { " a\($0)=\"1\"" }.joined()
      return osmDocument("<node id=\"1\" lat=\"1\" lon=\"1\"/>\n<node id=\"2\"\(attributes)/>")
    }
    // 64 attributes in all (id + 63) are read.
    let (handler, _) = try readXML(document(OSMLimits.maxAttributesPerElement - 1), in: dir)
    #expect(handler.elements.count == 1)  // node 2 has no position: skipped
    let expected = { (path: String) in
      OSMReaderError.elementTooLarge(
        path: path, line: 4, element: "node",
        reason: "more than 64 attributes (the limit per element)")
    }
    let one = try dir.write("65.osm", document(OSMLimits.maxAttributesPerElement))
    #expect(readError(one) == expected(one.path))
    // 500,000 attributes (about 6 MB) took libxml2 over 100 s; the guard stops at the 65th.
    let start = ContinuousClock.now
    let many = try dir.write("500000.osm", document(500_000))
    #expect(readError(many) == expected(many.path))
    #expect(ContinuousClock.now - start < .seconds(20))
  }

  @Test(
    "hexadecimal, infinite and NaN coordinates are refused as bad coordinates",
    arguments: ["0x1p3", "0X10", "inf", "-Infinity", "nan", "+nan", "1e", ".", "1.5e+"])
  func badCoordinateSpellings(_ lat: String) throws {
    let dir = try TemporaryDirectory()
    let (handler, stats) = try readXML(
      osmDocument(
        #"<node id="1" lat="\#(lat)" lon="9"/><node id="2" lat="1e1" lon="-.5"/>"#), in: dir)
    #expect(handler.elements.map(\.id) == [2])
    #expect(handler.elements.first?.latitudeE7 == 100_000_000)
    #expect(handler.elements.first?.longitudeE7 == -5_000_000)
    #expect(stats.skippedElements == 1)
    #expect(stats.warnings.first?.contains("node 1: missing or out-of-range lat/lon") == true)
  }

  @Test("text that cannot be decoded in its declared encoding: a clean message with file and line")
  func encodingError() throws {
    let dir = try TemporaryDirectory()
    var bytes = Array(#"<?xml version="1.0" encoding="Shift_JIS"?>"#.utf8) + [10]
    bytes += Array(#"<osm version="0.6">"#.utf8) + [10]
    bytes += Array(#"<node id="1" lat="1" lon="1"><tag k="name" v=""#.utf8) + [0x81, 0xff]
    bytes += Array(#""/></node></osm>"#.utf8)
    let file = try dir.write("sjis.osm", Data(bytes))
    let error = try #require(readError(file))
    guard case .malformedXML(let path, let line, _, let message) = error else {
      Issue.record("expected malformedXML, got \(error)")
      return
    }
    #expect(path == file.path)
    #expect(line == 3)
    #expect(message.hasPrefix("the text cannot be decoded in its declared encoding"), "\(message)")
    #expect(!error.description.contains("\n"))
  }

  @Test("a truncated gzip names the file, never zlib's <fd:N>")
  func truncatedGzipMessage() throws {
    let dir = try TemporaryDirectory()
    let xml = try Data(contentsOf: TestPaths.sample)
    let plain = try dir.write("s.osm", xml)
    _ = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-f", plain.path])
    let gz = try Data(contentsOf: URL(fileURLWithPath: plain.path + ".gz"))
    let file = try dir.write("cut.osm.gz", gz.prefix(gz.count / 2))
    let error = try #require(readError(file))
    #expect(
      error == .compression(path: file.path, format: "gzip", reason: "unexpected end of file"))
    #expect(!error.description.contains("<fd:"))
  }

  @Test("nodes with invalid ids or coordinates are skipped and counted")
  func invalidNodes() throws {
    let dir = try TemporaryDirectory()
    let xml = osmDocument(
      """
        <node id="1" lat="47.5" lon="9.5"/>
        <node id="2" lat="abc" lon="9.5"/>
        <node id="3" lat="91" lon="9.5"/>
        <node id="4" lat="-90.0000001" lon="9.5"/>
        <node id="5" lat="10" lon="180.5"/>
        <node id="6" lat="10"/>
        <node id="7" lat="" lon="1"/>
        <node id="8" lat="NaN" lon="1"/>
        <node id="9" lat="1e400" lon="1"/>
        <node lat="1" lon="1"/>
        <node id="x" lat="1" lon="1"/>
        <node id="99999999999999999999" lat="1" lon="1"/>
        <node id="10" lat="90" lon="-180"><tag k="edge" v="yes"/></node>
        <node id="11" lat="-90" lon="180"/>
        <node id="12" lat="4.5e1" lon="-0.5"/>
        <node id="13" lat="47.12345675" lon="-9.12345675"/>
        <node id="14" lat="+1.5" lon="001.25"/>
        <way id="20"><nd ref="1"/><nd ref="10"/></way>
        <way><nd ref="1"/></way>
        <relation id="abc"><member type="node" ref="1" role=""/></relation>
        <relation id="30"><member type="node" ref="1" role="r"/></relation>
      """)
    let (handler, stats) = try readXML(xml, in: dir)
    #expect(handler.elements(.node).map(\.id) == [1, 10, 11, 12, 13, 14])
    #expect(handler.elements(.way).map(\.id) == [20])
    #expect(handler.elements(.relation).map(\.id) == [30])
    #expect(stats.nodes == 6 && stats.ways == 1 && stats.relations == 1)
    #expect(stats.skippedElements == 13)
    #expect(!stats.warnings.isEmpty)
    #expect(stats.warnings.allSatisfy { $0.contains("input.osm:") })

    let byID = Dictionary(uniqueKeysWithValues: handler.elements(.node).map { ($0.id, $0) })
    #expect(byID[1]?.latitudeE7 == 475_000_000 && byID[1]?.longitudeE7 == 95_000_000)
    #expect(byID[10]?.latitudeE7 == 900_000_000 && byID[10]?.longitudeE7 == -1_800_000_000)
    #expect(byID[10]?["edge"] == "yes")
    #expect(byID[11]?.latitudeE7 == -900_000_000 && byID[11]?.longitudeE7 == 1_800_000_000)
    #expect(byID[12]?.latitudeE7 == 450_000_000 && byID[12]?.longitudeE7 == -5_000_000)
    #expect(byID[13]?.latitudeE7 == 471_234_568 && byID[13]?.longitudeE7 == -91_234_568)
    #expect(byID[14]?.latitudeE7 == 15_000_000 && byID[14]?.longitudeE7 == 12_500_000)
  }

  @Test("tags and children of a skipped node do not leak into the next element")
  func skippedNodeDoesNotLeak() throws {
    let dir = try TemporaryDirectory()
    let xml = osmDocument(
      """
        <node id="1" lat="99" lon="1"><tag k="leak" v="yes"/></node>
        <node id="2" lat="1" lon="1"><tag k="own" v="yes"/></node>
        <way id="3"><nd ref="1"/><tag k="w" v="1"/></way>
        <way id="4"><tag k="w" v="2"/></way>
      """)
    let (handler, _) = try readXML(xml, in: dir)
    #expect(handler.elements.map(\.description) == ["N2", "W3", "W4"])
    #expect(handler.elements[0].tags == [OSMTag(key: "own", value: "yes")])
    #expect(handler.elements[2].nodeRefs.isEmpty)
    #expect(handler.elements[2].tags == [OSMTag(key: "w", value: "2")])
  }

  @Test("unknown elements and attributes are ignored; members of unknown type are dropped")
  func unknownContent() throws {
    let dir = try TemporaryDirectory()
    let xml = osmDocument(
      """
        <bounds minlat="1" minlon="1" maxlat="2" maxlon="2"/>
        <changeset id="5"/>
        <node id="1" lat="1" lon="1" user="a" uid="7" visible="true" extra="z">
          <tag k="a" v="b"/><unknown><tag k="nested" v="no"/></unknown>
        </node>
        <way id="2"><nd ref="1"/><nd ref="-5"/><nd/></way>
        <relation id="3">
          <member type="node" ref="1" role="a"/>
          <member type="area" ref="2" role="b"/>
          <member type="way" ref="2"/>
        </relation>
      """)
    let (handler, _) = try readXML(xml, in: dir)
    #expect(handler.elements.map(\.description) == ["N1", "W2", "R3"])
    #expect(handler.elements[0].tags == [OSMTag(key: "a", value: "b")])
    #expect(handler.elements[1].nodeRefs == [1, -5])
    #expect(
      handler.elements[2].members == [
        RecordedMember(.node, 1, "a"), RecordedMember(.way, 2, ""),
      ])
  }

  @Test("an <nd> without a valid ref does not count as a skipped element")
  func badNodeRefIsNotASkippedElement() throws {
    // OSMReadStatistics.skippedElements is documented as "Elements skipped for a missing or
    // invalid id or position"; the way itself is delivered, so nothing was skipped.
    let dir = try TemporaryDirectory()
    let xml = osmDocument(#"<way id="2"><nd ref="1"/><nd ref="x"/></way>"#)
    let (handler, stats) = try readXML(xml, in: dir)
    #expect(handler.elements.map(\.description) == ["W2"])
    #expect(stats.ways == 1)
    #expect(stats.skippedElements == 0, "the way was delivered, yet counted as skipped")
  }
}
