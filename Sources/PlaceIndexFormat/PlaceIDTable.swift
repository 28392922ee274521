// PLACE IDS section layout:
//   u32 count          equals the place count
//   u8  bits           width of each entry: enough for count - 1, at least 1, at most 32
//   packed entries     count × bits, low bits first: entry i is the place index of the place
//                      with the i-th smallest element key, (osmID << 2) | kind, the first
//                      varint of its record in PLACES
// Place details find an ID by binary search over the entries, reading each probed place's key
// from its record: 14 bits per place for 10,000 places.

/// Finds a place's rank from its OSM element.
public struct PlaceIDTable: @unchecked Sendable {
  let reader: ByteReader
  let places: PlaceTable
  /// Number of entries.
  public let count: Int
  let bits: Int

  /// Reads the section header; `places` holds the keys.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, places: PlaceTable) throws {
    var r = ByteReader(bytes, section: "PLACE IDS", fileOffset: fileOffset)
    (count, bits) = try BitPacking.header(&r, placeCount: places.count)
    guard (count * bits + 7) / 8 <= r.remaining else {
      throw r.fault("\(count) entries of \(bits) bits run past the end", at: 5)
    }
    self.places = places
    reader = r
  }

  /// The place index of entry `i`.
  func entry(_ i: Int) throws -> Int {
    try BitPacking.value(reader, start: 5, index: i, bits: bits, limit: count)
  }

  /// The place index of element `kind`/`id`, or nil.
  public func placeIndex(kind: UInt8, id: Int64) throws -> Int? {
    guard id >= 0, id <= Int64.max >> 2 else { return nil }
    let target = (UInt64(id) << 2) | UInt64(kind)
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if try places.elementKey(entry(mid)) < target { lo = mid + 1 } else { hi = mid }
    }
    guard lo < count else { return nil }
    let index = try entry(lo)
    return try places.elementKey(index) == target ? index : nil
  }

  /// Checks that the entries are a permutation of the places in increasing key order.
  public func verify() throws {
    var seen = [Bool](repeating: false, count: count)
    var previous: UInt64? = nil
    for i in 0..<count {
      let index = try entry(i)
      guard !seen[index] else {
        throw reader.fault("place \(index) listed twice", at: 5 + i * bits / 8)
      }
      seen[index] = true
      let key = try places.elementKey(index)
      if let p = previous, p >= key {
        throw reader.fault("keys not increasing at entry \(i)", at: 5 + i * bits / 8)
      }
      previous = key
    }
  }
}

/// Writes a PLACE IDS section.
public enum PlaceIDTableWriter {
  /// The section bytes for places in rank order.
  public static func serialize(_ places: [PlaceRecord]) -> [UInt8] {
    let order = places.indices.sorted {
      (UInt64(places[$0].osmID) << 2) | UInt64(places[$0].osmKind)
        < (UInt64(places[$1].osmID) << 2) | UInt64(places[$1].osmKind)
    }
    let bits = BitPacking.width(for: places.count)
    var w = ByteWriter()
    w.u32(UInt32(places.count))
    w.u8(UInt8(bits))
    w.append(BitPacking.pack(order, bits: bits))
    return w.bytes
  }
}
