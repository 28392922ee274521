/// One decoded `PrimitiveBlock`: its elements in file order, with what the read statistics need.
struct PBFBlock: Sendable {
  /// A run of elements of one kind (a `PrimitiveGroup` holds one kind only).
  enum Group: Sendable {
    case nodes([OSMNode])
    case ways([OSMWay])
    case relations([OSMRelation])
  }

  var groups: [Group] = []
  /// Newest element timestamp, seconds since 1970 (0 when none).
  var newestTimestamp: Int64 = 0
  /// Elements skipped (invalid id or position, deleted versions).
  var skipped = 0
  /// The first few reasons for skipped elements.
  var warnings: [String] = []
  /// Uncompressed bytes of the block.
  var rawBytes = 0
}

/// The file header: `HeaderBlock` of osmformat.proto.
struct PBFHeader: Sendable, Equatable {
  var requiredFeatures: [String] = []
  var optionalFeatures: [String] = []
  var writingProgram = ""

  /// Required features this reader understands. `HistoricalInformation` is harmless here:
  /// deleted versions (`visible = false`) are skipped and later versions replace earlier ones,
  /// as for an XML history file.
  static let supportedFeatures: Set<String> = [
    "OsmSchema-V0.6", "DenseNodes", "HistoricalInformation",
  ]

  /// Decodes a HeaderBlock (fields 4 required_features, 5 optional_features, 16
  /// writingprogram; the bounding box, source and replication fields are not needed).
  static func decode(_ bytes: [UInt8]) throws(PBFFailure) -> PBFHeader {
    var header = PBFHeader()
    do {
      try bytes.withUnsafeBytes { raw in
        var reader = ProtoReader(raw)
        while let (field, wire) = try reader.readTag() {
          switch (field, wire) {
          case (4, ProtoReader.lengthDelimited):
            header.requiredFeatures.append(String(decoding: try reader.readBytes(), as: UTF8.self))
          case (5, ProtoReader.lengthDelimited):
            header.optionalFeatures.append(String(decoding: try reader.readBytes(), as: UTF8.self))
          case (16, ProtoReader.lengthDelimited):
            header.writingProgram = String(decoding: try reader.readBytes(), as: UTF8.self)
          default: try reader.skip(wire: wire)
          }
        }
      }
    } catch {
      throw PBFFailure("HeaderBlock: \(error)")
    }
    for feature in header.requiredFeatures where !supportedFeatures.contains(feature) {
      throw PBFFailure(
        "the file requires the feature '\(feature)', which this reader does not support "
          + "(it supports \(supportedFeatures.sorted().joined(separator: ", ")))")
    }
    return header
  }
}

/// Decodes a `PrimitiveBlock` into elements, with the same validity rules as the XML reader: an
/// id must have at most 18 digits and a position must be within ±90 / ±180 degrees, else the
/// element is skipped and counted; tags per element are limited as in XML.
struct PBFBlockDecoder {
  /// Ids beyond 18 decimal digits are refused, as the XML reader refuses them.
  static let maxID: Int64 = 999_999_999_999_999_999

  private var strings: [String] = []
  private var granularity: Int64 = 100
  private var latOffset: Int64 = 0
  private var lonOffset: Int64 = 0
  private var dateGranularity: Int64 = 1000
  private var block = PBFBlock()
  private var historical: Bool

  private init(historical: Bool) { self.historical = historical }

  /// Decodes the block `bytes`. `historical` says the header allows deleted versions.
  static func decode(_ bytes: [UInt8], historical: Bool) throws(PBFFailure) -> PBFBlock {
    var decoder = PBFBlockDecoder(historical: historical)
    decoder.block.rawBytes = bytes.count
    do {
      try bytes.withUnsafeBytes { raw in try decoder.run(ProtoReader(raw)) }
    } catch let failure as PBFFailure {
      throw failure
    } catch let error as ProtoError {
      throw PBFFailure(error, in: "PrimitiveBlock")
    } catch {
      throw PBFFailure("PrimitiveBlock: \(error)")
    }
    return decoder.block
  }

  private mutating func run(_ message: ProtoReader) throws {
    var reader = message
    var groups: [ProtoReader] = []
    // The string table and the scales may follow the groups on the wire: read them first.
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (1, ProtoReader.lengthDelimited):
        var table = try reader.readMessage()
        while let (f, w) = try table.readTag() {
          if f == 1 && w == ProtoReader.lengthDelimited {
            strings.append(String(decoding: try table.readBytes(), as: UTF8.self))
          } else {
            try table.skip(wire: w)
          }
        }
      case (2, ProtoReader.lengthDelimited): groups.append(try reader.readMessage())
      case (17, ProtoReader.varint):
        granularity = try reader.readInt64()
        guard granularity > 0 && granularity <= 1_000_000_000 else {
          throw PBFFailure("granularity \(granularity) is not a positive count of nanodegrees")
        }
      case (18, ProtoReader.varint):
        dateGranularity = try reader.readInt64()
        guard dateGranularity > 0 && dateGranularity <= 1_000_000_000 else {
          throw PBFFailure("date_granularity \(dateGranularity) is not a positive count of ms")
        }
      case (19, ProtoReader.varint): latOffset = try reader.readInt64()
      case (20, ProtoReader.varint): lonOffset = try reader.readInt64()
      default: try reader.skip(wire: wire)
      }
    }
    for group in groups { try decodeGroup(group) }
  }

  private mutating func decodeGroup(_ message: ProtoReader) throws {
    var reader = message
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (1, ProtoReader.lengthDelimited): try decodeNode(try reader.readMessage(), into: &nodes)
      case (2, ProtoReader.lengthDelimited): try decodeDense(try reader.readMessage(), into: &nodes)
      case (3, ProtoReader.lengthDelimited): try decodeWay(try reader.readMessage(), into: &ways)
      case (4, ProtoReader.lengthDelimited):
        try decodeRelation(try reader.readMessage(), into: &relations)
      default: try reader.skip(wire: wire)
      }
    }
    // A group holds one kind; should a writer mix them, nodes, ways and relations keep the
    // order the format implies.
    if !nodes.isEmpty { block.groups.append(.nodes(nodes)) }
    if !ways.isEmpty { block.groups.append(.ways(ways)) }
    if !relations.isEmpty { block.groups.append(.relations(relations)) }
  }

  // MARK: Pieces

  @inline(__always)
  private func string(_ index: UInt64, _ what: @autoclosure () -> String) throws -> String {
    guard index < UInt64(strings.count) else {
      throw PBFFailure(
        "\(what()): string index \(index) is out of range (the string table has \(strings.count))"
      )
    }
    return strings[Int(index)]
  }

  private func tags(keys: [UInt32], values: [UInt32], of what: @autoclosure () -> String) throws
    -> [OSMTag]
  {
    guard keys.count == values.count else {
      throw PBFFailure("\(what()): \(keys.count) keys but \(values.count) values")
    }
    guard keys.count <= OSMLimits.maxTagsPerElement else {
      throw PBFFailure(
        "\(what()): \(keys.count) tags; the limit is \(OSMLimits.maxTagsPerElement) per element")
    }
    if keys.isEmpty { return [] }
    var tags: [OSMTag] = []
    tags.reserveCapacity(keys.count)
    for i in 0..<keys.count {
      tags.append(
        OSMTag(
          key: try string(UInt64(keys[i]), what()), value: try string(UInt64(values[i]), what())))
    }
    return tags
  }

  private static func readUInt32s(_ reader: inout ProtoReader, wire: Int, into out: inout [UInt32])
    throws
  {
    try reader.forEachVarint(wire: wire) { (v: UInt64) throws(ProtoError) in
      guard v <= UInt64(UInt32.max) else { throw ProtoError.badVarint }
      out.append(UInt32(v))
    }
  }

  /// Adds the zigzag deltas of a packed field to `last`, appending each running value.
  private static func readDeltas(
    _ reader: inout ProtoReader, wire: Int, last: inout Int64, into out: inout [Int64],
    what: String
  ) throws {
    var overflow = false
    try reader.forEachVarint(wire: wire) { (v: UInt64) throws(ProtoError) in
      let (sum, o) = last.addingReportingOverflow(v.zigzag)
      overflow = overflow || o
      last = sum
      out.append(sum)
    }
    if overflow { throw PBFFailure("\(what): a delta-coded value overflows 64 bits") }
  }

  /// The position in 1e-7 degrees of a coded latitude or longitude, or nil when it overflows.
  @inline(__always)
  private func e7(_ coded: Int64, offset: Int64) -> Int64? {
    let (scaled, o1) = coded.multipliedReportingOverflow(by: granularity)
    let (nano, o2) = scaled.addingReportingOverflow(offset)
    if o1 || o2 { return nil }
    return nano / 100
  }

  private mutating func warn(_ message: String) {
    block.skipped += 1
    if block.warnings.count < 20 { block.warnings.append(message) }
  }

  @inline(__always)
  private mutating func seen(timestamp: Int64) {
    let (ms, o) = timestamp.multipliedReportingOverflow(by: dateGranularity)
    if !o, ms / 1000 > block.newestTimestamp { block.newestTimestamp = ms / 1000 }
  }

  /// Adds a node if its id and position are valid, else counts it as skipped.
  @inline(__always)
  private mutating func addNode(
    id: Int64, lat: Int64?, lon: Int64?, tags: [OSMTag], into nodes: inout [OSMNode]
  ) {
    guard id >= -Self.maxID && id <= Self.maxID else {
      warn("<node> without a valid id")
      return
    }
    guard let lat, let lon, abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000 else {
      warn("node \(id): missing or out-of-range lat/lon")
      return
    }
    nodes.append(OSMNode(id: id, latitudeE7: Int32(lat), longitudeE7: Int32(lon), tags: tags))
  }

  /// `Info` (fields 2 timestamp, 6 visible): the timestamp and whether the version is visible.
  private func decodeInfo(_ message: ProtoReader) throws -> (timestamp: Int64?, visible: Bool) {
    var reader = message
    var timestamp: Int64? = nil
    var visible = true
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (2, ProtoReader.varint): timestamp = try reader.readInt64()
      case (6, ProtoReader.varint): visible = try reader.readVarint() != 0
      default: try reader.skip(wire: wire)
      }
    }
    return (timestamp, visible || !historical)
  }

  /// `Node`: 1 id (sint64), 2 keys, 3 vals, 4 info, 8 lat, 9 lon (sint64).
  private mutating func decodeNode(_ message: ProtoReader, into nodes: inout [OSMNode]) throws {
    var reader = message
    var id: Int64? = nil
    var lat: Int64? = nil
    var lon: Int64? = nil
    var keys: [UInt32] = []
    var values: [UInt32] = []
    var visible = true
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (1, ProtoReader.varint): id = try reader.readSInt64()
      case (2, _): try Self.readUInt32s(&reader, wire: wire, into: &keys)
      case (3, _): try Self.readUInt32s(&reader, wire: wire, into: &values)
      case (4, ProtoReader.lengthDelimited):
        let info = try decodeInfo(try reader.readMessage())
        if let t = info.timestamp { seen(timestamp: t) }
        visible = info.visible
      case (8, ProtoReader.varint): lat = e7(try reader.readSInt64(), offset: latOffset)
      case (9, ProtoReader.varint): lon = e7(try reader.readSInt64(), offset: lonOffset)
      default: try reader.skip(wire: wire)
      }
    }
    guard let id else { throw PBFFailure("a Node has no id") }
    let t = try tags(keys: keys, values: values, of: "node \(id)")
    guard visible else {
      warn("node \(id): deleted version (visible = false)")
      return
    }
    addNode(id: id, lat: lat, lon: lon, tags: t, into: &nodes)
  }

  /// `DenseNodes`: 1 id, 8 lat, 9 lon (packed, zigzag, delta-coded), 5 denseinfo, 10 keys_vals
  /// (packed string indexes: key, value, …, 0 after each node's tags).
  private mutating func decodeDense(_ message: ProtoReader, into nodes: inout [OSMNode]) throws {
    var reader = message
    var ids: [Int64] = []
    var lats: [Int64] = []
    var lons: [Int64] = []
    var keysValues: [UInt32] = []
    var timestamps: [Int64] = []
    var visibles: [Bool] = []
    var lastID: Int64 = 0
    var lastLat: Int64 = 0
    var lastLon: Int64 = 0
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (1, _):
        try Self.readDeltas(&reader, wire: wire, last: &lastID, into: &ids, what: "DenseNodes ids")
      case (8, _):
        try Self.readDeltas(
          &reader, wire: wire, last: &lastLat, into: &lats, what: "DenseNodes lats")
      case (9, _):
        try Self.readDeltas(
          &reader, wire: wire, last: &lastLon, into: &lons, what: "DenseNodes lons")
      case (10, _):
        try reader.forEachVarint(wire: wire) { (v: UInt64) throws(ProtoError) in
          // int32 on the wire; a negative index is as out of range as a large one.
          guard v <= UInt64(UInt32.max) else { throw ProtoError.badVarint }
          keysValues.append(UInt32(v))
        }
      case (5, ProtoReader.lengthDelimited):
        var info = try reader.readMessage()
        var lastTime: Int64 = 0
        while let (f, w) = try info.readTag() {
          switch f {
          case 2:
            try Self.readDeltas(
              &info, wire: w, last: &lastTime, into: &timestamps,
              what: "DenseInfo timestamps")
          case 6:
            try info.forEachVarint(wire: w) { (v: UInt64) throws(ProtoError) in
              visibles.append(v != 0)
            }
          default: try info.skip(wire: w)
          }
        }
      default: try reader.skip(wire: wire)
      }
    }
    guard lats.count == ids.count && lons.count == ids.count else {
      throw PBFFailure(
        "DenseNodes has \(ids.count) ids but \(lats.count) lats and \(lons.count) lons")
    }
    guard timestamps.isEmpty || timestamps.count == ids.count else {
      throw PBFFailure("DenseInfo has \(timestamps.count) timestamps for \(ids.count) nodes")
    }
    guard visibles.isEmpty || visibles.count == ids.count else {
      throw PBFFailure("DenseInfo has \(visibles.count) visible flags for \(ids.count) nodes")
    }
    for t in timestamps { seen(timestamp: t) }
    nodes.reserveCapacity(nodes.count + ids.count)
    var kv = 0
    for i in 0..<ids.count {
      var tags: [OSMTag] = []
      if !keysValues.isEmpty {
        while true {
          guard kv < keysValues.count else {
            throw PBFFailure("DenseNodes keys_vals ends inside the tags of node \(ids[i])")
          }
          let k = keysValues[kv]
          kv += 1
          if k == 0 { break }
          guard kv < keysValues.count else {
            throw PBFFailure("DenseNodes keys_vals ends inside the tags of node \(ids[i])")
          }
          let v = keysValues[kv]
          kv += 1
          guard tags.count < OSMLimits.maxTagsPerElement else {
            throw PBFFailure(
              "node \(ids[i]): more than \(OSMLimits.maxTagsPerElement) tags (the limit per element)"
            )
          }
          tags.append(
            OSMTag(
              key: try string(UInt64(k), "node \(ids[i])"),
              value: try string(UInt64(v), "node \(ids[i])")))
        }
      }
      if !visibles.isEmpty && !visibles[i] && historical {
        warn("node \(ids[i]): deleted version (visible = false)")
        continue
      }
      addNode(
        id: ids[i], lat: e7(lats[i], offset: latOffset), lon: e7(lons[i], offset: lonOffset),
        tags: tags, into: &nodes)
    }
  }

  /// `Way`: 1 id (int64), 2 keys, 3 vals, 4 info, 8 refs (packed, zigzag, delta-coded).
  private mutating func decodeWay(_ message: ProtoReader, into ways: inout [OSMWay]) throws {
    var reader = message
    var id: Int64? = nil
    var keys: [UInt32] = []
    var values: [UInt32] = []
    var refs: [Int64] = []
    var visible = true
    var lastRef: Int64 = 0
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (1, ProtoReader.varint): id = try reader.readInt64()
      case (2, _): try Self.readUInt32s(&reader, wire: wire, into: &keys)
      case (3, _): try Self.readUInt32s(&reader, wire: wire, into: &values)
      case (4, ProtoReader.lengthDelimited):
        let info = try decodeInfo(try reader.readMessage())
        if let t = info.timestamp { seen(timestamp: t) }
        visible = info.visible
      case (8, _):
        try Self.readDeltas(
          &reader, wire: wire, last: &lastRef, into: &refs,
          what: "way \(id.map(String.init) ?? "?"): node reference")
      default: try reader.skip(wire: wire)
      }
    }
    guard let id else { throw PBFFailure("a Way has no id") }
    let t = try tags(keys: keys, values: values, of: "way \(id)")
    guard visible else {
      warn("way \(id): deleted version (visible = false)")
      return
    }
    guard id >= -Self.maxID && id <= Self.maxID else {
      warn("<way> without a valid id")
      return
    }
    // As in XML, a reference the XML reader could not read (over 18 digits) is dropped.
    if refs.contains(where: { $0 > Self.maxID || $0 < -Self.maxID }) {
      refs.removeAll { $0 > Self.maxID || $0 < -Self.maxID }
    }
    ways.append(OSMWay(id: id, nodeRefs: refs, tags: t))
  }

  /// `Relation`: 1 id (int64), 2 keys, 3 vals, 4 info, 8 roles_sid (int32), 9 memids (sint64,
  /// delta-coded), 10 types (0 node, 1 way, 2 relation); all packed.
  private mutating func decodeRelation(
    _ message: ProtoReader, into relations: inout [OSMRelation]
  ) throws {
    var reader = message
    var id: Int64? = nil
    var keys: [UInt32] = []
    var values: [UInt32] = []
    var roles: [UInt32] = []
    var memberIDs: [Int64] = []
    var types: [UInt64] = []
    var visible = true
    var lastMember: Int64 = 0
    while let (field, wire) = try reader.readTag() {
      switch (field, wire) {
      case (1, ProtoReader.varint): id = try reader.readInt64()
      case (2, _): try Self.readUInt32s(&reader, wire: wire, into: &keys)
      case (3, _): try Self.readUInt32s(&reader, wire: wire, into: &values)
      case (4, ProtoReader.lengthDelimited):
        let info = try decodeInfo(try reader.readMessage())
        if let t = info.timestamp { seen(timestamp: t) }
        visible = info.visible
      case (8, _): try Self.readUInt32s(&reader, wire: wire, into: &roles)
      case (9, _):
        try Self.readDeltas(
          &reader, wire: wire, last: &lastMember, into: &memberIDs,
          what: "relation \(id.map(String.init) ?? "?"): member id")
      case (10, _):
        try reader.forEachVarint(wire: wire) { (v: UInt64) throws(ProtoError) in types.append(v) }
      default: try reader.skip(wire: wire)
      }
    }
    guard let id else { throw PBFFailure("a Relation has no id") }
    guard roles.count == memberIDs.count && types.count == memberIDs.count else {
      throw PBFFailure(
        "relation \(id): \(memberIDs.count) member ids but \(roles.count) roles and \(types.count) types"
      )
    }
    let t = try tags(keys: keys, values: values, of: "relation \(id)")
    var members: [OSMMember] = []
    members.reserveCapacity(memberIDs.count)
    for i in 0..<memberIDs.count {
      let kind: OSMElementKind
      switch types[i] {
      case 0: kind = .node
      case 1: kind = .way
      case 2: kind = .relation
      default: throw PBFFailure("relation \(id): member type \(types[i]) is not 0, 1 or 2")
      }
      let ref = memberIDs[i]
      guard ref >= -Self.maxID && ref <= Self.maxID else { continue }
      members.append(
        OSMMember(kind: kind, ref: ref, role: try string(UInt64(roles[i]), "relation \(id)")))
    }
    guard visible else {
      warn("relation \(id): deleted version (visible = false)")
      return
    }
    guard id >= -Self.maxID && id <= Self.maxID else {
      warn("<relation> without a valid id")
      return
    }
    relations.append(OSMRelation(id: id, members: members, tags: t))
  }
}
