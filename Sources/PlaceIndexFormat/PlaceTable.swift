/// A place record with its strings still as ids: what the query path decodes per candidate.
public struct PlaceEntry: Sendable {
  /// 0 node, 1 way, 2 relation.
  public var osmKind: UInt8
  /// The OSM id.
  public var osmID: Int64
  /// Latitude in 1e-7 degrees.
  public var latitudeE7: Int32
  /// Longitude in 1e-7 degrees.
  public var longitudeE7: Int32
  /// Higher is more important.
  public var importance: UInt16
  /// Type list id.
  public var typeList: Int
  /// Words in the primary text.
  public var nameWordCount: Int
  /// String id of the primary text.
  public var primaryText: Int
  /// String ids of the secondary parts.
  public var secondaryParts: [Int]
  /// String id of the country code, or nil.
  public var countryCode: Int?
  /// (language sid, name sid) pairs.
  public var names: [(language: Int, name: Int)]
  /// (kind, long sid, short sid or nil).
  public var components: [(kind: AddressComponentKind, long: Int, short: Int?)]
  /// Sorted ids of name tokens.
  public var tokens: [Int]
  /// Sorted ids of context tokens (address, admin areas).
  public var contextTokens: [Int]
}

/// The part of a place record used to match and rank it: numbers and token ids, no strings.
public struct PlaceMatch: Sendable {
  /// 0 node, 1 way, 2 relation.
  public var osmKind: UInt8 = 0
  /// The OSM id.
  public var osmID: Int64 = 0
  /// Latitude in 1e-7 degrees.
  public var latitudeE7: Int32 = 0
  /// Longitude in 1e-7 degrees.
  public var longitudeE7: Int32 = 0
  /// Higher is more important.
  public var importance: UInt16 = 0
  /// Type list id.
  public var typeList = 0
  /// Words in the primary text.
  public var nameWordCount = 0
  /// String id of the country code, or nil.
  public var countryCode: Int?
  /// Sorted ids of name tokens.
  public var tokens: [Int] = []
  /// Sorted ids of context tokens.
  public var contextTokens: [Int] = []

  /// An empty match buffer.
  public init() {}
}

/// Reads place records by rank.
public struct PlaceTable: @unchecked Sendable {
  let reader: ByteReader
  /// Number of places.
  public let count: Int
  let recordStart: Int
  let stringCount: Int
  let tokenCount: Int
  let typeListCount: Int

  /// Reads the section header; the counts bound the ids inside records.
  public init(
    _ bytes: UnsafeRawBufferPointer, fileOffset: Int, stringCount: Int, tokenCount: Int,
    typeListCount: Int
  ) throws {
    var r = ByteReader(bytes, section: "PLACES", fileOffset: fileOffset)
    count = Int(try r.u32())
    recordStart = 4 + 4 * (count + 1)
    guard count < bytes.count, recordStart <= bytes.count else {
      throw r.fault("place count \(count) does not fit", at: 0)
    }
    self.stringCount = stringCount
    self.tokenCount = tokenCount
    self.typeListCount = typeListCount
    reader = r
  }

  /// The bytes of record `index`.
  func record(_ index: Int) throws -> ByteReader {
    guard index >= 0, index < count else {
      throw reader.fault("place \(index) out of range", at: 0)
    }
    let start = Int(try reader.u32(at: 4, index: index))
    let end = Int(try reader.u32(at: 4, index: index + 1))
    guard start <= end, end <= reader.buffer.count - recordStart else {
      throw reader.fault(
        "record \(index) spans [\(start), \(end)) outside the section", at: 4 + 4 * index)
    }
    return ByteReader(
      UnsafeRawBufferPointer(rebasing: reader.buffer[(recordStart + start)..<(recordStart + end)]),
      section: "PLACES", fileOffset: reader.fileOffset + recordStart + start)
  }

  /// Decodes the part of record `index` that matching and ranking need (no strings), reusing
  /// the token arrays of `match`; returns the reader positioned at the record's strings.
  @discardableResult
  public func match(_ index: Int, into m: inout PlaceMatch) throws -> ByteReader {
    var r = try record(index)
    let head = try r.varint()
    let kind = UInt8(head & 3)
    guard kind < 3 else { throw r.fault("element kind \(kind) is not 0, 1 or 2", at: 0) }
    let lat = try r.zigzag()
    let lon = try r.zigzag()
    guard lat.magnitude <= 900_000_000, lon.magnitude <= 1_800_000_000 else {
      throw r.fault("coordinate (\(lat), \(lon)) out of range")
    }
    m.osmKind = kind
    m.osmID = Int64(bitPattern: head >> 2)
    m.latitudeE7 = Int32(lat)
    m.longitudeE7 = Int32(lon)
    m.importance = UInt16(try r.varint(below: 1 << 16))
    m.typeList = try r.varint(below: typeListCount)
    m.nameWordCount = try r.varint(below: 1 << 16)
    let cc = try r.varint(below: stringCount + 1)
    m.countryCode = cc == 0 ? nil : cc - 1
    try readTokenList(&r, into: &m.tokens)
    try readTokenList(&r, into: &m.contextTokens)
    return r
  }

  /// Decodes record `index` whole.
  public func entry(_ index: Int) throws -> PlaceEntry {
    var m = PlaceMatch()
    var r = try match(index, into: &m)
    let primary = try r.varint(below: stringCount)
    let nSecondary = try r.varint(below: 64)
    var secondary: [Int] = []
    secondary.reserveCapacity(nSecondary)
    for _ in 0..<nSecondary { secondary.append(try r.varint(below: stringCount)) }
    let nNames = try r.varint(below: 1024)
    var names: [(Int, Int)] = []
    names.reserveCapacity(nNames)
    for _ in 0..<nNames {
      names.append((try r.varint(below: stringCount), try r.varint(below: stringCount)))
    }
    let nComponents = try r.varint(below: 64)
    var components: [(AddressComponentKind, Int, Int?)] = []
    for _ in 0..<nComponents {
      let at = r.offset
      guard let k = AddressComponentKind(rawValue: UInt8(clamping: try r.varint())) else {
        throw r.fault("unknown address component kind", at: at)
      }
      let long = try r.varint(below: stringCount)
      let short = try r.varint(below: stringCount + 1)
      components.append((k, long, short == 0 ? nil : short - 1))
    }
    return PlaceEntry(
      osmKind: m.osmKind, osmID: m.osmID, latitudeE7: m.latitudeE7, longitudeE7: m.longitudeE7,
      importance: m.importance, typeList: m.typeList, nameWordCount: m.nameWordCount,
      primaryText: primary, secondaryParts: secondary, countryCode: m.countryCode,
      names: names, components: components, tokens: m.tokens, contextTokens: m.contextTokens)
  }

  private func readTokenList(_ r: inout ByteReader, into tokens: inout [Int]) throws {
    tokens.removeAll(keepingCapacity: true)
    let n = try r.varint(below: tokenCount + 1)
    var last = -1
    for _ in 0..<n {
      let at = r.offset
      let gap = try r.varint(below: tokenCount + 1)
      let t = last < 0 ? gap : last + gap
      guard t < tokenCount, last < 0 || gap > 0 else {
        throw r.fault("token ids not increasing", at: at)
      }
      tokens.append(t)
      last = t
    }
  }

  /// Decodes every record.
  public func verify() throws {
    for i in 0..<count { _ = try entry(i) }
  }
}

/// Writes a PLACES section.
public enum PlaceTableWriter {
  /// The section bytes for `places` (in rank order), with strings and tokens already registered.
  public static func serialize(_ places: [PlaceRecord], strings: StringTableBuilder) -> [UInt8] {
    var data = ByteWriter()
    var offsets: [UInt32] = [0]
    for p in places {
      data.varint((UInt64(p.osmID) << 2) | UInt64(p.osmKind))
      data.zigzag(Int64(p.latitudeE7))
      data.zigzag(Int64(p.longitudeE7))
      data.varint(Int(p.importance))
      data.varint(p.typeList)
      data.varint(p.nameWordCount)
      data.varint(p.countryCode.isEmpty ? 0 : strings.id(p.countryCode) + 1)
      for list in [p.tokens, p.contextTokens] {
        let tokens = list.sorted()
        data.varint(tokens.count)
        var last = -1
        for t in tokens {
          data.varint(last < 0 ? t : t - last)
          last = t
        }
      }
      data.varint(strings.id(p.primaryText))
      data.varint(p.secondaryParts.count)
      for s in p.secondaryParts { data.varint(strings.id(s)) }
      data.varint(p.names.count)
      for n in p.names {
        data.varint(strings.id(n.language))
        data.varint(strings.id(n.name))
      }
      data.varint(p.components.count)
      for c in p.components {
        data.varint(Int(c.kind.rawValue))
        data.varint(strings.id(c.longText))
        data.varint(c.shortText == c.longText ? 0 : strings.id(c.shortText) + 1)
      }
      offsets.append(UInt32(data.count))
    }
    var w = ByteWriter()
    w.u32(UInt32(places.count))
    for o in offsets { w.u32(o) }
    w.append(data.bytes)
    return w.bytes
  }

  /// Registers every string a record references.
  public static func registerStrings(of p: PlaceRecord, in strings: inout StringTableBuilder) {
    strings.insert(p.primaryText)
    for s in p.secondaryParts { strings.insert(s) }
    if !p.countryCode.isEmpty { strings.insert(p.countryCode) }
    for n in p.names {
      strings.insert(n.language)
      strings.insert(n.name)
    }
    for c in p.components {
      strings.insert(c.longText)
      strings.insert(c.shortText)
    }
  }
}
