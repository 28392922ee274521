import Foundation

/// A tiny protobuf writer for hand-made PBF files in tests (valid ones and every kind of broken
/// one). It is written from the format's description, not from the reader under test.
struct ProtoWriter {
  var bytes: [UInt8] = []

  static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

  mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }

  mutating func uint(_ field: Int, _ value: UInt64) {
    key(field, 0)
    varint(value)
  }

  mutating func int(_ field: Int, _ value: Int64) { uint(field, UInt64(bitPattern: value)) }

  mutating func sint(_ field: Int, _ value: Int64) { uint(field, Self.zigzag(value)) }

  mutating func bytes(_ field: Int, _ value: [UInt8]) {
    key(field, 2)
    varint(UInt64(value.count))
    bytes += value
  }

  mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

  mutating func packed(_ field: Int, _ values: [UInt64]) {
    var inner = ProtoWriter()
    for v in values { inner.varint(v) }
    bytes(field, inner.bytes)
  }

  mutating func packedSInt(_ field: Int, _ values: [Int64]) {
    packed(field, values.map(Self.zigzag))
  }
}

/// Hand-made OSM PBF pieces: frames, blobs, the header and primitive blocks.
enum TestPBF {
  /// A frame: 4-byte big-endian BlobHeader length, the BlobHeader, the Blob.
  static func frame(type: String, blob: [UInt8], datasize: Int64? = nil) -> [UInt8] {
    var header = ProtoWriter()
    header.string(1, type)
    header.int(3, datasize ?? Int64(blob.count))
    return lengthPrefix(header.bytes.count) + header.bytes + blob
  }

  static func lengthPrefix(_ n: Int) -> [UInt8] {
    [UInt8(n >> 24 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
  }

  /// A Blob holding `data` uncompressed.
  static func rawBlob(_ data: [UInt8]) -> [UInt8] {
    var w = ProtoWriter()
    w.bytes(1, data)
    w.int(2, Int64(data.count))
    return w.bytes
  }

  /// A HeaderBlock with these required features.
  static func header(required: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
    var w = ProtoWriter()
    for f in required { w.string(4, f) }
    w.string(16, "PlaceIndex tests")
    return w.bytes
  }

  /// The header frame.
  static func headerFrame(required: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
    frame(type: "OSMHeader", blob: rawBlob(header(required: required)))
  }

  /// A PrimitiveBlock with a string table (index 0 is the empty string) and groups.
  static func block(strings: [String], groups: [[UInt8]], granularity: Int64? = nil) -> [UInt8] {
    var table = ProtoWriter()
    for s in [""] + strings { table.string(1, s) }
    var w = ProtoWriter()
    w.bytes(1, table.bytes)
    for g in groups { w.bytes(2, g) }
    if let granularity { w.int(17, granularity) }
    return w.bytes
  }

  /// A data frame around a block.
  static func dataFrame(_ block: [UInt8]) -> [UInt8] {
    frame(type: "OSMData", blob: rawBlob(block))
  }

  /// A PrimitiveGroup with DenseNodes; ids, lats and lons are given as the deltas to write.
  static func denseGroup(
    idDeltas: [Int64], latDeltas: [Int64], lonDeltas: [Int64], keysValues: [UInt64] = []
  ) -> [UInt8] {
    var dense = ProtoWriter()
    dense.packedSInt(1, idDeltas)
    dense.packedSInt(8, latDeltas)
    dense.packedSInt(9, lonDeltas)
    if !keysValues.isEmpty { dense.packed(10, keysValues) }
    var group = ProtoWriter()
    group.bytes(2, dense.bytes)
    return group.bytes
  }

  /// A PrimitiveGroup with one plain Node.
  static func nodeGroup(id: Int64, lat: Int64, lon: Int64, keys: [UInt64], values: [UInt64])
    -> [UInt8]
  {
    var node = ProtoWriter()
    node.sint(1, id)
    node.packed(2, keys)
    node.packed(3, values)
    node.sint(8, lat)
    node.sint(9, lon)
    var group = ProtoWriter()
    group.bytes(1, node.bytes)
    return group.bytes
  }

  /// A PrimitiveGroup with one Way; refs are given as the deltas to write.
  static func wayGroup(id: Int64, refDeltas: [Int64], keys: [UInt64] = [], values: [UInt64] = [])
    -> [UInt8]
  {
    var way = ProtoWriter()
    way.int(1, id)
    way.packed(2, keys)
    way.packed(3, values)
    way.packedSInt(8, refDeltas)
    var group = ProtoWriter()
    group.bytes(3, way.bytes)
    return group.bytes
  }

  /// A PrimitiveGroup with one Relation; member ids are given as the deltas to write.
  static func relationGroup(
    id: Int64, roles: [UInt64], memberDeltas: [Int64], types: [UInt64], keys: [UInt64] = [],
    values: [UInt64] = []
  ) -> [UInt8] {
    var relation = ProtoWriter()
    relation.int(1, id)
    relation.packed(2, keys)
    relation.packed(3, values)
    relation.packed(8, roles)
    relation.packedSInt(9, memberDeltas)
    relation.packed(10, types)
    var group = ProtoWriter()
    group.bytes(4, relation.bytes)
    return group.bytes
  }
}
