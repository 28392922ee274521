import Foundation
import TestSupport
import Testing

@testable import OSMReader

/// The OSM PBF reader: hand-made files (every field the reader decodes, and every kind of bad
/// input with its message) and osmium's PBFs of the sample (DenseNodes and plain Nodes).
@Suite("PBF reader")
struct PBFReaderTests {
  /// A hand-made file: dense nodes with tags, a plain node, a way with delta refs, a relation
  /// with members of each type and roles, and a block with an unusual granularity and offsets.
  static func handMade() -> [UInt8] {
    // Strings: 1 name, 2 Dorfplatz, 3 amenity, 4 cafe, 5 highway, 6 residential, 7 outer,
    // 8 admin_centre, 9 type, 10 multipolygon, 11 Brunnen
    let strings = [
      "name", "Dorfplatz", "amenity", "cafe", "highway", "residential", "outer", "admin_centre",
      "type", "multipolygon", "Brunnen",
    ]
    // Dense nodes 10, 11, 15 at (47.18, 9.9), (47.1801, 9.9002), (-33.5, -70.25); in units of
    // 100 nanodegrees (the default granularity), delta-coded.
    let dense = TestPBF.denseGroup(
      idDeltas: [10, 1, 4], latDeltas: [471_800_000, 1000, -806_801_000],
      lonDeltas: [99_000_000, 2000, -801_502_000],
      keysValues: [1, 2, 3, 4, 0, 0, 1, 11, 0])
    let plain = TestPBF.nodeGroup(id: 20, lat: 471_900_000, lon: 99_100_000, keys: [3], values: [4])
    let way = TestPBF.wayGroup(id: 30, refDeltas: [10, 1, 9, -5], keys: [1, 5], values: [2, 6])
    let relation = TestPBF.relationGroup(
      id: 40, roles: [7, 8, 0], memberDeltas: [30, -10, 20], types: [1, 0, 2], keys: [9],
      values: [10])
    let block1 = TestPBF.block(strings: strings, groups: [dense, plain, way, relation])
    // Granularity 1000 nanodegrees and offsets: lat = 1_000_000_000 + 1000 * 47_000 = 47.0 +
    // 1.0 degrees -> 48.0; lon = 500_000_000 + 1000 * 4_000_000 = 4.5 degrees.
    var block2 = ProtoWriter()
    var table = ProtoWriter()
    table.string(1, "")
    block2.bytes(1, table.bytes)
    block2.bytes(
      2, TestPBF.denseGroup(idDeltas: [50], latDeltas: [47_000_000], lonDeltas: [4_000_000]))
    block2.int(17, 1000)
    block2.int(19, 1_000_000_000)
    block2.int(20, 500_000_000)
    return TestPBF.headerFrame() + TestPBF.dataFrame(block1) + TestPBF.dataFrame(block2.bytes)
  }

  @Test("a hand-made PBF: dense and plain nodes, ways, relations, granularity and offsets")
  func handMadeFile() throws {
    let dir = try TemporaryDirectory()
    let (handler, stats) = try readAll(dir.write("hand.osm.pbf", Data(Self.handMade())))
    let tag = { (k: String, v: String) in OSMTag(key: k, value: v) }
    #expect(
      handler.elements == [
        RecordedElement(
          kind: .node, id: 10, latitudeE7: 471_800_000, longitudeE7: 99_000_000,
          tags: [tag("name", "Dorfplatz"), tag("amenity", "cafe")]),
        RecordedElement(
          kind: .node, id: 11, latitudeE7: 471_801_000, longitudeE7: 99_002_000, tags: []),
        RecordedElement(
          kind: .node, id: 15, latitudeE7: -335_000_000, longitudeE7: -702_500_000,
          tags: [tag("name", "Brunnen")]),
        RecordedElement(
          kind: .node, id: 20, latitudeE7: 471_900_000, longitudeE7: 99_100_000,
          tags: [tag("amenity", "cafe")]),
        RecordedElement(
          kind: .way, id: 30, nodeRefs: [10, 11, 20, 15],
          tags: [tag("name", "Dorfplatz"), tag("highway", "residential")]),
        RecordedElement(
          kind: .relation, id: 40,
          members: [
            RecordedMember(.way, 30, "outer"), RecordedMember(.node, 20, "admin_centre"),
            RecordedMember(.relation, 40, ""),
          ], tags: [tag("type", "multipolygon")]),
        RecordedElement(
          kind: .node, id: 50, latitudeE7: 480_000_000, longitudeE7: 45_000_000, tags: []),
      ])
    #expect(stats.nodes == 5 && stats.ways == 1 && stats.relations == 1)
    #expect(stats.generator == "PlaceIndex tests")
    #expect(stats.skippedElements == 0)
  }

  @Test("the format is sniffed from the first bytes, not the name")
  func sniffedNotNamed() throws {
    let dir = try TemporaryDirectory()
    let (handler, _) = try readAll(dir.write("looks-like.osm", Data(Self.handMade())))
    #expect(handler.elements.count == 7)
  }

  @Test("nodes with out-of-range positions are skipped and counted, as in XML")
  func outOfRange() throws {
    let dir = try TemporaryDirectory()
    let block = TestPBF.block(
      strings: [],
      groups: [
        TestPBF.denseGroup(
          idDeltas: [1, 1, 1], latDeltas: [900_000_001, -1_800_000_002, 900_000_001],
          lonDeltas: [0, 0, 1_800_000_001])
      ])
    let (handler, stats) = try readAll(
      dir.write("range.osm.pbf", Data(TestPBF.headerFrame() + TestPBF.dataFrame(block))))
    #expect(handler.elements.isEmpty)
    #expect(stats.skippedElements == 3)
    #expect(stats.warnings.first?.contains("node 1: missing or out-of-range lat/lon") == true)
  }

  // MARK: Bad input

  /// One broken file: its bytes, the offset of the bad blob, and what the message must say.
  struct Bad: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var offset: Int
    var message: String
    var testDescription: String { name }
  }

  static let header = TestPBF.headerFrame()
  static let dataOffset = header.count

  static func withBlock(_ groups: [[UInt8]], strings: [String] = ["name"]) -> [UInt8] {
    header + TestPBF.dataFrame(TestPBF.block(strings: strings, groups: groups))
  }

  static let badFiles: [Bad] = {
    let good = withBlock([TestPBF.denseGroup(idDeltas: [1], latDeltas: [0], lonDeltas: [0])])
    var out: [Bad] = []
    out.append(
      Bad(
        name: "truncated blob", bytes: Array(good.dropLast(3)), offset: dataOffset,
        message: "truncated frame: the file ends inside a Blob"))
    out.append(
      Bad(
        name: "truncated length prefix", bytes: header + [0, 0], offset: dataOffset,
        message: "truncated frame: the file ends inside a blob's length prefix"))
    out.append(
      Bad(
        name: "truncated BlobHeader", bytes: header + TestPBF.lengthPrefix(40) + [0x0a, 7],
        offset: dataOffset, message: "truncated frame: the file ends inside a BlobHeader"))
    out.append(
      Bad(
        name: "BlobHeader over 64 KiB",
        bytes: header + TestPBF.lengthPrefix(64 << 10 + 1) + [UInt8](repeating: 0, count: 100),
        offset: dataOffset, message: "BlobHeader is 65537 bytes; the format's limit is 65536"))
    out.append(
      Bad(
        name: "Blob over 32 MiB",
        bytes: header + TestPBF.frame(type: "OSMData", blob: [], datasize: 32 << 20 + 1),
        offset: dataOffset, message: "Blob is 33554433 bytes; the format's limit is 33554432"))
    out.append(
      Bad(
        name: "negative datasize",
        bytes: header + TestPBF.frame(type: "OSMData", blob: [], datasize: -5),
        offset: dataOffset, message: "negative datasize (-5)"))
    var zlib = ProtoWriter()
    zlib.int(2, 100)
    zlib.bytes(3, [0x78, 0x9c, 0xff, 0xff, 0x00, 0x12])
    out.append(
      Bad(
        name: "zlib error", bytes: header + TestPBF.frame(type: "OSMData", blob: zlib.bytes),
        offset: dataOffset, message: "zlib error"))
    for (field, name) in [(4, "lzma"), (7, "zstd"), (6, "lz4")] {
      var blob = ProtoWriter()
      blob.int(2, 10)
      blob.bytes(field, [1, 2, 3])
      out.append(
        Bad(
          name: "\(name) blob", bytes: header + TestPBF.frame(type: "OSMData", blob: blob.bytes),
          offset: dataOffset, message: "unsupported blob compression: \(name)"))
    }
    var negativeRaw = ProtoWriter()
    negativeRaw.bytes(1, [1, 2])
    negativeRaw.int(2, -2)
    out.append(
      Bad(
        name: "negative raw_size",
        bytes: header + TestPBF.frame(type: "OSMData", blob: negativeRaw.bytes),
        offset: dataOffset, message: "raw_size -2 is negative"))
    out.append(
      Bad(
        name: "string index out of range",
        bytes: withBlock([
          TestPBF.denseGroup(idDeltas: [7], latDeltas: [0], lonDeltas: [0], keysValues: [1, 9, 0])
        ]), offset: dataOffset,
        message: "node 7: string index 9 is out of range (the string table has 2)"))
    out.append(
      Bad(
        name: "way key out of range",
        bytes: withBlock([TestPBF.wayGroup(id: 8, refDeltas: [1], keys: [5], values: [1])]),
        offset: dataOffset,
        message: "way 8: string index 5 is out of range (the string table has 2)"))
    out.append(
      Bad(
        name: "dense id delta overflow",
        bytes: withBlock([
          TestPBF.denseGroup(idDeltas: [Int64.max, 1], latDeltas: [0, 0], lonDeltas: [0, 0])
        ]), offset: dataOffset,
        message: "DenseNodes ids: a delta-coded value overflows 64 bits"))
    out.append(
      Bad(
        name: "way referencing an overflowing node id",
        bytes: withBlock([TestPBF.wayGroup(id: 9, refDeltas: [Int64.max - 1, 2])]),
        offset: dataOffset,
        message: "way 9: node reference: a delta-coded value overflows 64 bits"))
    out.append(
      Bad(
        name: "member id overflow",
        bytes: withBlock([
          TestPBF.relationGroup(
            id: 3, roles: [0, 0], memberDeltas: [Int64.min, -1], types: [0, 0])
        ]), offset: dataOffset,
        message: "relation 3: member id: a delta-coded value overflows 64 bits"))
    out.append(
      Bad(
        name: "dense arrays of different lengths",
        bytes: withBlock([TestPBF.denseGroup(idDeltas: [1, 1], latDeltas: [0], lonDeltas: [0, 0])]),
        offset: dataOffset, message: "DenseNodes has 2 ids but 1 lats and 2 lons"))
    // A group whose declared length reaches past the block.
    out.append(
      Bad(
        name: "length past the end",
        bytes: header + TestPBF.dataFrame([0x12, 0x7f, 0x08]), offset: dataOffset,
        message: "PrimitiveBlock: length 127 reaches past the end of its message"))
    out.append(
      Bad(
        name: "unknown required feature",
        bytes: TestPBF.headerFrame(required: ["OsmSchema-V0.6", "Sort.Geographic-V9"]), offset: 0,
        message:
          "the file requires the feature 'Sort.Geographic-V9', which this reader does not support"))
    return out
  }()

  @Test(
    "bad PBF input: a clear error naming the file, the blob's offset and what is wrong",
    arguments: badFiles)
  func badInput(_ bad: Bad) throws {
    let dir = try TemporaryDirectory()
    let file = try dir.write("bad.osm.pbf", Data(bad.bytes))
    let error = try #require(readError(file), "\(bad.name) was read without error")
    guard case .pbf(let path, let offset, let reason) = error else {
      Issue.record("\(bad.name): not a PBF error: \(error)")
      return
    }
    #expect(path == file.path)
    #expect(offset == Int64(bad.offset), "\(error)")
    #expect(reason.contains(bad.message), "\(error)")
    #expect(
      error.description.contains("\(file.path): bad OSM PBF data in the blob at byte \(bad.offset)")
    )
  }

  @Test("a PBF with only its header is an empty extract")
  func emptyPBF() throws {
    let dir = try TemporaryDirectory()
    let (handler, stats) = try readAll(dir.write("header-only.osm.pbf", Data(Self.header)))
    #expect(handler.elements.isEmpty && stats.elements == 0)
    #expect(stats.generator == "PlaceIndex tests")
  }

  @Test("the handler sees blobs in file order however many are decoded at once")
  func fileOrderAcrossManyBlobs() throws {
    // More blobs than the window, each with one node; the handler must see ids in order.
    let count = PBFReader.window * 5 + 3
    var bytes = Self.header
    for i in 0..<count {
      bytes += TestPBF.dataFrame(
        TestPBF.block(
          strings: [],
          groups: [TestPBF.denseGroup(idDeltas: [Int64(i + 1)], latDeltas: [0], lonDeltas: [0])]))
    }
    let dir = try TemporaryDirectory()
    let (handler, _) = try readAll(dir.write("many.osm.pbf", Data(bytes)))
    #expect(handler.elements.map(\.id) == (1...Int64(count)).map { $0 })
  }

  // MARK: osmium's PBFs

  @Test(
    "osmium's PBF of the sample (DenseNodes, and plain Nodes) reads as the XML does",
    .enabled(if: Osmium.available, Comment(rawValue: Osmium.skipReason)),
    arguments: [true, false])
  func osmiumSample(dense: Bool) throws {
    let pbf = try Osmium.pbf(of: TestPaths.sample.path, dense: dense)
    let (fromXML, xmlStats) = try readAll(TestPaths.sample)
    let (fromPBF, pbfStats) = try readAll(URL(fileURLWithPath: pbf))
    #expect(fromXML.elements.count > 100, "the sample read \(fromXML.elements.count) elements")
    #expect(fromPBF.elements == fromXML.elements)
    #expect(pbfStats.newestTimestamp == xmlStats.newestTimestamp)
    #expect(pbfStats.generator.hasPrefix("osmium"))
    // The header says which kind of node the file uses.
    let features = try Self.requiredFeatures(pbf)
    #expect(features.contains("DenseNodes") == dense, "\(features)")
  }

  /// The required features of a PBF file's header.
  static func requiredFeatures(_ path: String) throws -> [String] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let n = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    var size: Int64 = 0
    try bytes[4..<(4 + n)].withUnsafeBytes { raw in
      var r = ProtoReader(raw)
      while let (f, w) = try r.readTag() {
        if f == 3 { size = try r.readInt64() } else { try r.skip(wire: w) }
      }
    }
    let blob = try bytes[(4 + n)..<(4 + n + Int(size))].withUnsafeBytes { try PBFBlob.decode($0) }
    return try PBFHeader.decode(blob).requiredFeatures
  }

  // MARK: Protobuf reader

  @Test("protobuf reader: varints, zigzag, and its errors")
  func protoReader() throws {
    var w = ProtoWriter()
    w.varint(300)
    w.varint(UInt64.max)
    w.varint(ProtoWriter.zigzag(-3))
    let bytes = w.bytes
    try bytes.withUnsafeBytes { (raw) throws -> Void in
      var r = ProtoReader(raw)
      #expect(try r.readVarint() == 300)
      #expect(try r.readVarint() == UInt64.max)
      #expect(try r.readSInt64() == -3)
      #expect(r.isAtEnd)
    }
    let cases: [([UInt8], ProtoError)] = [
      ([0x80, 0x80], .truncated),
      ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], .badVarint),
      ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], .badVarint),
    ]
    for (input, expected) in cases {
      input.withUnsafeBytes { raw in
        var r = ProtoReader(raw)
        #expect(throws: expected) { _ = try r.readVarint() }
      }
    }
    ([0x0a, 0x05, 0x01] as [UInt8]).withUnsafeBytes { raw in
      var r = ProtoReader(raw)
      _ = try? r.readTag()
      #expect(throws: ProtoError.badLength(5)) { _ = try r.readMessage() }
    }
    ([0x0b] as [UInt8]).withUnsafeBytes { raw in
      var r = ProtoReader(raw)
      #expect(throws: ProtoError.badWireType(3)) {
        let (_, wire) = try r.readTag()!
        try r.skip(wire: wire)
      }
    }
    ([0x00] as [UInt8]).withUnsafeBytes { raw in
      var r = ProtoReader(raw)
      #expect(throws: ProtoError.badFieldNumber) { _ = try r.readTag() }
    }
  }
}
