// PLACE IDS section layout:
//   u32 count
//   count × (u64 key, u32 place index)   sorted by key; key = (osmID << 2) | kind
// Place details look a place ID up by binary search.

/// Finds a place's rank from its OSM element.
public struct PlaceIDTable: @unchecked Sendable {
  let reader: ByteReader
  /// Number of entries.
  public let count: Int
  let placeCount: Int

  /// Reads the section header.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int) throws {
    var r = ByteReader(bytes, section: "PLACE IDS", fileOffset: fileOffset)
    count = Int(try r.u32())
    guard count <= (bytes.count - 4) / 12 else {
      throw r.fault("entry count \(count) does not fit", at: 0)
    }
    self.placeCount = placeCount
    reader = r
  }

  private func key(at i: Int) throws -> UInt64 {
    var r = reader
    r.offset = 4 + 12 * i
    return try r.u64()
  }

  /// The place index of element `kind`/`id`, or nil.
  public func placeIndex(kind: UInt8, id: Int64) throws -> Int? {
    guard id >= 0 else { return nil }
    let target = (UInt64(id) << 2) | UInt64(kind)
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if try key(at: mid) < target { lo = mid + 1 } else { hi = mid }
    }
    guard lo < count, try key(at: lo) == target else { return nil }
    var r = reader
    r.offset = 4 + 12 * lo + 8
    let index = Int(try r.u32())
    guard index < placeCount else {
      throw r.fault("place index \(index) out of range", at: r.offset - 4)
    }
    return index
  }

  /// Checks order and range of every entry.
  public func verify() throws {
    var previous: UInt64? = nil
    for i in 0..<count {
      let k = try key(at: i)
      if let p = previous, p >= k { throw reader.fault("keys not increasing", at: 4 + 12 * i) }
      previous = k
      var r = reader
      r.offset = 4 + 12 * i + 8
      guard Int(try r.u32()) < placeCount else {
        throw reader.fault("place index out of range", at: 4 + 12 * i + 8)
      }
    }
  }
}

/// Writes a PLACE IDS section.
public enum PlaceIDTableWriter {
  /// The section bytes for places in rank order.
  public static func serialize(_ places: [PlaceRecord]) -> [UInt8] {
    let keyed = places.enumerated().map { ((UInt64($1.osmID) << 2) | UInt64($1.osmKind), $0) }
      .sorted { $0.0 < $1.0 }
    var w = ByteWriter()
    w.u32(UInt32(keyed.count))
    for (k, i) in keyed {
      w.u64(k)
      w.u32(UInt32(i))
    }
    return w.bytes
  }
}
