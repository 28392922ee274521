import Foundation
import OSMReader
import TestSupport
import Testing

@Suite("OSMExtractReader on the project's sample extract")
struct SampleExtractTests {
  let text: String

  init() throws {
    text = try String(contentsOf: TestPaths.sample, encoding: .utf8)
  }

  @Test("counts match an independent count of the file text")
  func counts() throws {
    let (handler, stats) = try readAll(TestPaths.sample)
    let nodes = XMLTextScanner.count(/<node\s/, in: text)
    let ways = XMLTextScanner.count(/<way\s/, in: text)
    let relations = XMLTextScanner.count(/<relation\s/, in: text)
    #expect(nodes > 100 && ways > 20 && relations >= 3)
    #expect(stats.nodes == nodes)
    #expect(stats.ways == ways)
    #expect(stats.relations == relations)
    #expect(stats.elements == nodes + ways + relations)
    #expect(handler.elements(.node).count == nodes)
    #expect(handler.elements(.way).count == ways)
    #expect(handler.elements(.relation).count == relations)
    #expect(stats.skippedElements == 0)
    #expect(stats.warnings.isEmpty)

    let all = handler.elements
    #expect(all.reduce(0) { $0 + $1.tags.count } == XMLTextScanner.count(/<tag\s/, in: text))
    #expect(all.reduce(0) { $0 + $1.nodeRefs.count } == XMLTextScanner.count(/<nd\s/, in: text))
    #expect(all.reduce(0) { $0 + $1.members.count } == XMLTextScanner.count(/<member\s/, in: text))
  }

  @Test("the elements equal an independent regex reading of the file, in order")
  func elementsMatchTextReading() throws {
    let (handler, _) = try readAll(TestPaths.sample)
    let expected = XMLTextScanner.elements(of: text)
    #expect(handler.elements.count == expected.count)
    var mismatches = 0
    for (got, want) in zip(handler.elements, expected) where got != want {
      mismatches += 1
      if mismatches <= 5 {
        Issue.record(
          """
          \(want): the reader gave tags \(got.tags), refs \(got.nodeRefs), members \(got.members);
          the file text has tags \(want.tags), refs \(want.nodeRefs), members \(want.members)
          """)
      }
    }
    #expect(mismatches == 0)
  }

  @Test("file layout: nodes, then ways, then relations, each sorted by id")
  func layout() throws {
    let (handler, _) = try readAll(TestPaths.sample)
    let kinds = handler.elements.map(\.kind.rawValue)
    #expect(kinds == kinds.sorted())
    for kind in OSMElementKind.allCases {
      let ids = handler.elements(kind).map(\.id)
      #expect(ids == ids.sorted(), "\(kind) ids are not sorted")
      #expect(Set(ids).count == ids.count, "\(kind) ids repeat")
    }
  }

  @Test("metadata: generator, newest timestamp, XML byte count")
  func metadata() throws {
    let (_, stats) = try readAll(TestPaths.sample)
    #expect(stats.generator == "PlaceIndex sample (hand-made)")
    #expect(stats.newestTimestamp == XMLTextScanner.newestTimestamp(of: text))
    #expect(stats.newestTimestamp > 1_767_225_600)  // 2026-01-01
    let size = try FileManager.default.attributesOfItem(atPath: TestPaths.sample.path)[.size]
    #expect(stats.xmlBytes == (size as? NSNumber)?.int64Value)
  }

  @Test("the sample has what the builder needs: admin levels, places, POIs, addresses, streets")
  func contents() throws {
    let (handler, _) = try readAll(TestPaths.sample)
    let all = handler.elements
    let admin = all.filter { $0.kind == .relation && $0["boundary"] == "administrative" }
    #expect(Set(admin.compactMap { $0["admin_level"] }) == ["2", "4", "8"])
    #expect(admin.first { $0["admin_level"] == "2" }?["ISO3166-1"] == "AT")
    #expect(admin.first { $0["admin_level"] == "4" }?["ISO3166-2"] == "AT-8")
    #expect(all.contains { $0["place"] == "village" && $0["name"] == "Sankt Quirin" })
    #expect(all.contains { $0["place"] == "hamlet" && $0["name"] == "Oberried" })
    #expect(all.contains { $0["amenity"] == "pharmacy" && $0["name"] == "Apotheke zum Löwen" })
    #expect(all.contains { $0["railway"] == "station" && $0["name"] == "Sankt Quirin Bahnhof" })
    #expect(all.contains { $0.kind == .relation && $0["type"] == "multipolygon" })

    let poiKeys = ["amenity", "shop", "tourism"]
    let pois = all.filter { element in poiKeys.contains { element[$0] != nil } }
    #expect((30...60).contains(pois.count))
    let addressOnly = all.filter { element in
      element["addr:housenumber"] != nil && element["name"] == nil
        && !poiKeys.contains { element[$0] != nil }
    }
    #expect((40...80).contains(addressOnly.count))
    let numbers = Set(all.compactMap { $0["addr:housenumber"] })
    #expect(numbers.isSuperset(of: ["12a", "3/1", "7-9", "14 bis"]))
    let streets = all.filter { $0.kind == .way && $0["highway"] != nil && $0["name"] != nil }
    let streetNames = Set(streets.compactMap { $0["name"] })
    #expect((6...10).contains(streetNames.count))
    #expect(streets.filter { $0["name"] == "Hauptstraße" }.count >= 2)
  }

  @Test("tag values decode &amp; &lt; &gt; &quot; &apos; and character references")
  func entityDecoding() throws {
    let dir = try TemporaryDirectory()
    let xml = osmDocument(
      """
        <node id="1" lat="1" lon="2">
          <tag k="name" v="Bar &amp; Grill"/>
          <tag k="a&amp;b" v="&lt;x&gt; &quot;q&quot; &apos;s&apos;"/>
          <tag k="nums" v="&#38;&#x26;&#228;&#xE4;"/>
        </node>
      """)
    let (handler, _) = try readXML(xml, in: dir)
    let tags = try #require(handler.elements.first).tags
    #expect(tags[key: "name"] == "Bar & Grill")
    #expect(tags[key: "a&b"] == "<x> \"q\" 's'")
    #expect(tags[key: "nums"] == "&&ää")
    // The sample has one such name too.
    let (sample, _) = try readAll(TestPaths.sample)
    #expect(sample.elements.contains { $0["name"] == "Hirschen Bar & Grill" })
  }

  @Test("a handler error stops the read and is rethrown")
  func handlerErrorStops() throws {
    struct Stop: Error, Equatable {}
    final class StopAfter: OSMElementHandler {
      var seen = 0
      func handle(node: OSMNode) throws {
        seen += 1
        if seen == 10 { throw Stop() }
      }
      func handle(way: OSMWay) throws { seen += 1 }
      func handle(relation: OSMRelation) throws { seen += 1 }
    }
    let handler = StopAfter()
    #expect(throws: Stop()) {
      try OSMExtractReader(path: TestPaths.sample.path).read(into: handler)
    }
    #expect(handler.seen == 10)
  }

  @Test("progress is reported, monotonic, and ends at the file size")
  func progress() throws {
    var calls: [(Int64, Int64)] = []
    _ = try OSMExtractReader(path: TestPaths.sample.path).read(into: CollectingHandler()) {
      calls.append(($0, $1))
    }
    let last = try #require(calls.last)
    #expect(last.0 == last.1)
    #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    #expect(calls.allSatisfy { $0.0 <= $0.1 })
  }
}

@Suite("OSMExtractReader: compressed input")
struct CompressionTests {
  /// Reads `url` plain and through every available compressor; all must agree.
  func expectSameThroughCompressors(_ url: URL) throws {
    let dir = try TemporaryDirectory()
    let (plain, plainStats) = try readAll(url)
    #expect(plainStats.elements > 0)
    var compressed: [(String, URL)] = []
    if let gzip = Tools.gzip {
      let gz = dir.file("copy.osm.gz")
      try Tools.compress(gzip, url, to: gz)
      compressed.append(("gzip", gz))
    }
    if let bzip2 = Tools.bzip2 {
      let bz = dir.file("copy.osm.bz2")
      try Tools.compress(bzip2, url, to: bz)
      compressed.append(("bzip2", bz))
    }
    #expect(!compressed.isEmpty, "neither gzip nor bzip2 found")
    for (format, file) in compressed {
      let (handler, stats) = try readAll(file)
      #expect(stats == plainStats, "\(format) statistics differ")
      #expect(handler.elements.count == plain.elements.count)
      #expect(handler.elements == plain.elements, "\(format) elements differ")
    }
  }

  @Test(
    "plain, gzip and bzip2 copies of the sample give identical elements",
    .enabled(if: Tools.gzip != nil))
  func sample() throws {
    try expectSameThroughCompressors(TestPaths.sample)
  }

  @Test(
    "plain and compressed copies agree across several read chunks (Manhattan, 2.5 MB)",
    .enabled(
      if: TestPaths.exists(RealExtract.manhattan.url),
      "needs ../shared/data/osm (set PLACEINDEX_SHARED)"),
    .enabled(if: Tools.gzip != nil, "needs gzip"))
  func manhattan() throws {
    try expectSameThroughCompressors(RealExtract.manhattan.url)
  }

  @Test(
    "the file name does not matter: a gzip named .osm is still decompressed",
    .enabled(if: Tools.gzip != nil))
  func detectionByMagic() throws {
    let dir = try TemporaryDirectory()
    let file = dir.file("disguised.osm")
    try Tools.compress(Tools.gzip!, TestPaths.sample, to: file)
    let (_, stats) = try readAll(file)
    let (_, plain) = try readAll(TestPaths.sample)
    #expect(stats == plain)
  }

  @Test("concatenated gzip members and bzip2 streams are read as one document")
  func concatenatedStreams() throws {
    let dir = try TemporaryDirectory()
    let text = try String(contentsOf: TestPaths.sample, encoding: .utf8)
    let cut = text.range(of: "  <way ")!.lowerBound
    let first = try dir.write("part1.xml", String(text[..<cut]))
    let second = try dir.write("part2.xml", String(text[cut...]))
    let (_, plain) = try readAll(TestPaths.sample)
    for (tool, ext) in [(Tools.gzip, "gz"), (Tools.bzip2, "bz2")] {
      guard let tool else { continue }
      try Tools.compress(tool, first, to: dir.file("part1.\(ext)"))
      try Tools.compress(tool, second, to: dir.file("part2.\(ext)"))
      var joined = try Data(contentsOf: dir.file("part1.\(ext)"))
      joined.append(try Data(contentsOf: dir.file("part2.\(ext)")))
      let (_, stats) = try readAll(dir.write("joined.osm.\(ext)", joined))
      #expect(stats == plain, "\(ext): concatenated streams")
    }
  }

  @Test(
    "a truncated gzip fails with a compression or XML error",
    .enabled(if: Tools.gzip != nil))
  func truncatedGzip() throws {
    try expectDamagedFails(tool: Tools.gzip!, ext: "gz") { $0.prefix($0.count / 2) }
    try expectDamagedFails(tool: Tools.gzip!, ext: "gz") { $0.dropLast(4) }  // no size trailer
  }

  @Test(
    "a corrupt gzip fails with a compression or XML error",
    .enabled(if: Tools.gzip != nil))
  func corruptGzip() throws {
    try expectDamagedFails(tool: Tools.gzip!, ext: "gz") { data in
      var d = Data(data)
      for i in stride(from: d.count / 3, to: d.count / 3 + 64, by: 1) { d[i] ^= 0x5A }
      return d
    }
    // Damage only the CRC in the trailer: the bytes decode but do not check.
    try expectDamagedFails(tool: Tools.gzip!, ext: "gz") { data in
      var d = Data(data)
      d[d.count - 8] ^= 0xFF
      return d
    }
  }

  @Test(
    "a truncated or corrupt bzip2 fails with a compression or XML error",
    .enabled(if: Tools.bzip2 != nil))
  func damagedBzip2() throws {
    try expectDamagedFails(tool: Tools.bzip2!, ext: "bz2") { $0.prefix($0.count / 2) }
    try expectDamagedFails(tool: Tools.bzip2!, ext: "bz2") { data in
      var d = Data(data)
      for i in stride(from: d.count / 2, to: d.count / 2 + 32, by: 1) { d[i] ^= 0x5A }
      return d
    }
  }

  @Test("a file that is only a compression header fails cleanly")
  func headerOnly() throws {
    let dir = try TemporaryDirectory()
    for (name, bytes) in [("gz", [0x1f, 0x8b] as [UInt8]), ("bz2", Array("BZh9".utf8))] {
      let error = readError(try dir.write("header.\(name)", Data(bytes)))
      #expect(error != nil, "\(name)")
      #expect(
        ["compression", "malformedXML"].contains(error?.kind ?? "none"),
        "\(name): \(String(describing: error))")
    }
  }

  private func expectDamagedFails(
    tool: String, ext: String, _ damage: (Data) -> Data,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let dir = try TemporaryDirectory()
    let good = dir.file("good.osm.\(ext)")
    try Tools.compress(tool, TestPaths.sample, to: good)
    let bad = try dir.write("bad.osm.\(ext)", damage(try Data(contentsOf: good)))
    let error = readError(bad)
    #expect(error != nil, "damaged \(ext) read without error", sourceLocation: sourceLocation)
    if let error {
      #expect(
        ["compression", "malformedXML"].contains(error.kind), "\(error)",
        sourceLocation: sourceLocation)
      #expect(error.description.contains(bad.path), sourceLocation: sourceLocation)
    }
  }
}

@Suite("OSMExtractReader: errors")
struct ReaderErrorTests {
  @Test("a missing file gives .cannotOpen naming the file")
  func missingFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("no-such-file.osm").path
    let error = readError(URL(fileURLWithPath: path))
    guard case .cannotOpen(let p, _) = error else {
      Issue.record("expected .cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(p == path)
  }

  @Test("a directory gives .cannotOpen")
  func directory() throws {
    let dir = try TemporaryDirectory()
    #expect(readError(dir.url)?.kind == "cannotOpen")
  }

  @Test("malformed XML gives .malformedXML with the line of the fault")
  func malformed() throws {
    let dir = try TemporaryDirectory()
    // Line 5 closes <tag> with </node>.
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <osm version="0.6">
        <node id="1" lat="1" lon="1"/>
        <node id="2" lat="1" lon="1">
          <tag k="a" v="b"></node>
        <node id="3" lat="1" lon="1"/>
      </osm>

      """
    let error = readError(try dir.write("bad.osm", xml))
    guard case .malformedXML(let path, let line, _, let message) = error else {
      Issue.record("expected .malformedXML, got \(String(describing: error))")
      return
    }
    #expect(path.hasSuffix("bad.osm"))
    #expect((5...6).contains(line), "line \(line): \(message)")
    #expect(!message.isEmpty)
  }

  @Test(
    "more malformed documents fail with .malformedXML",
    arguments: [
      // Unclosed at the end of the input.
      #"<osm version="0.6"><node id="1" lat="1" lon="1">"#,
      // A repeated attribute.
      #"<osm version="0.6"><node id="1" lat="1" lon="1" id="2"/></osm>"#,
      // An unquoted attribute.
      #"<osm version="0.6"><node id="1" lat=1 lon="1"/></osm>"#,
      // A '<' in an attribute value.
      #"<osm version="0.6"><tag k="a" v="<"/></osm>"#,
      // Two root elements.
      #"<osm version="0.6"></osm><osm/>"#,
      // An undeclared entity.
      #"<osm version="0.6"><node id="1" lat="1" lon="1"><tag k="a" v="&undefined;"/></node></osm>"#,
      // A character that XML does not allow.
      #"<osm version="0.6"><node id="1" lat="1" lon="1"><tag k="a" v="\#u{FFFE}"/></node></osm>"#,
    ])
  func moreMalformed(xml: String) throws {
    let dir = try TemporaryDirectory()
    let error = readError(try dir.write("bad.osm", xml))
    #expect(error?.kind == "malformedXML", "\(String(describing: error))")
  }

  @Test("invalid UTF-8 fails with .malformedXML")
  func invalidUTF8() throws {
    let dir = try TemporaryDirectory()
    var data = Data(osmDocument(#"<node id="1" lat="1" lon="1"><tag k="name" v="X"/></node>"#).utf8)
    let x = data.firstIndex(of: UInt8(ascii: "X"))!
    data.replaceSubrange(x...x, with: [0xC3, 0x28])
    let error = readError(try dir.write("bad.osm", data))
    #expect(error?.kind == "malformedXML", "\(String(describing: error))")
  }

  @Test(
    "a document whose root is not <osm> gives .notOSM",
    arguments: [
      #"<?xml version="1.0"?><gpx version="1.1"><wpt lat="1" lon="1"/></gpx>"#,
      #"<?xml version="1.0"?><html><body><node id="1" lat="1" lon="1"/></body></html>"#,
      #"<osmChange version="0.6"><create><node id="1" lat="1" lon="1"/></create></osmChange>"#,
    ])
  func notOSM(xml: String) throws {
    let dir = try TemporaryDirectory()
    let handler = CollectingHandler()
    let file = try dir.write("other.xml", xml)
    #expect {
      try OSMExtractReader(path: file.path).read(into: handler)
    } throws: { error in
      guard case .notOSM(let path, _) = error as? OSMReaderError else { return false }
      return path == file.path
    }
    #expect(handler.elements.isEmpty)
  }

  @Test("an empty file or one with only whitespace is an error, not an empty extract")
  func emptyFile() throws {
    let dir = try TemporaryDirectory()
    for (name, text) in [("empty.osm", ""), ("blank.osm", "  \n\n")] {
      let error = readError(try dir.write(name, text))
      #expect(error != nil, "\(name) read without error")
    }
  }

  @Test("a binary file is an error")
  func binaryFile() throws {
    let dir = try TemporaryDirectory()
    var bytes = [UInt8](repeating: 0, count: 4096)
    for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
    #expect(readError(try dir.write("random.bin", Data(bytes))) != nil)
  }

  @Test("an empty <osm/> is a valid extract with no elements")
  func emptyOSM() throws {
    let dir = try TemporaryDirectory()
    let (handler, stats) = try readXML(#"<osm version="0.6" generator="g"/>"#, in: dir)
    #expect(handler.elements.isEmpty)
    #expect(stats.elements == 0)
    #expect(stats.generator == "g")
  }

  @Test("error descriptions name the file")
  func descriptions() {
    let errors: [OSMReaderError] = [
      .cannotOpen(path: "/x/a.osm", reason: "r"),
      .compression(path: "/x/a.osm", format: "gzip", reason: "r"),
      .malformedXML(path: "/x/a.osm", line: 3, column: 4, message: "m"),
      .notOSM(path: "/x/a.osm", reason: "r"),
    ]
    for error in errors { #expect(error.description.contains("/x/a.osm")) }
    #expect(errors[2].description.contains("/x/a.osm:3:4"))
  }
}
