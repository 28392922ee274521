// GEO section layout:
//   u32 count                        equals the place count
//   u8  bits                         width of each entry: enough for count - 1, at least 1
//   3 bytes zero
//   u32 blockKeys[ceil(count / 16)]  Hilbert key (HilbertCurve.swift) of each block's first
//                                    entry; block b holds entries 16b ..< 16b + 16
//   packed entries                   count × bits, low bits first: the place indexes ordered
//                                    by (Hilbert key of the place's position, place index)
// A bias or restriction region becomes a few key ranges; the entries of the blocks that can
// hold those keys are the candidates, whose positions the reader then checks exactly. 16 bits
// of table per place for 60,000 places.

/// Finds the places near a region through their order along a Hilbert curve.
package struct GeoTable: @unchecked Sendable {
  /// Entries per block.
  package static let blockSize = 16
  let reader: ByteReader
  let places: PlaceTable
  /// Number of entries.
  package let count: Int
  let bits: Int
  let entriesStart: Int

  /// Reads the section header; `places` holds the positions.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, places: PlaceTable)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "GEO", fileOffset: fileOffset)
    (count, bits) = try BitPacking.header(&r, placeCount: places.count)
    let blocks = (count + GeoTable.blockSize - 1) / GeoTable.blockSize
    entriesStart = 8 + 4 * blocks
    guard entriesStart <= bytes.count, (count * bits + 7) / 8 <= bytes.count - entriesStart else {
      throw r.fault("\(count) entries of \(bits) bits run past the end", at: 0)
    }
    self.places = places
    reader = r
  }

  /// The place index of entry `i`.
  @inline(__always)
  package func entry(_ i: Int) throws(IndexFormatError) -> Int {
    try BitPacking.value(reader, start: entriesStart, index: i, bits: bits, limit: count)
  }

  /// The first key of block `b`.
  func blockKey(_ b: Int) throws(IndexFormatError) -> UInt64 {
    UInt64(try reader.u32(at: 8, index: b))
  }

  /// Each place's square of 256 × 256 cells (its key's top 16 bits, ``HilbertCurve/box(ofSquare:)``),
  /// by place index, from the blocks' first keys alone (no record is read): a block's places
  /// lie between its first key and the next block's, so when those two share their top 16
  /// bits, every place of the block lies in that square. The places of the other blocks and
  /// of the last one are not told (``PlaceSquares/unknown``).
  package func placeSquares() throws(IndexFormatError) -> PlaceSquares {
    let blocks = (count + GeoTable.blockSize - 1) / GeoTable.blockSize
    var out = PlaceSquares(ids: [UInt16](repeating: PlaceSquares.unknown, count: count))
    guard blocks > 1 else { return out }
    // Each block's square id, numbered as first met.
    var idOfSquare = [Int32](repeating: -1, count: 1 << 16)
    var blockID = [UInt16](repeating: PlaceSquares.unknown, count: blocks)
    var next = try blockKey(0) >> 16
    for b in 0..<(blocks - 1) {
      let square = Int(next)
      next = try blockKey(b + 1) >> 16
      guard square == Int(next) else { continue }
      if idOfSquare[square] < 0 {
        // Ids stay below ``PlaceSquares/unknown``: a 65,536th square is not told.
        guard out.squares.count < Int(PlaceSquares.unknown) else { continue }
        idOfSquare[square] = Int32(out.squares.count)
        out.squares.append(UInt16(square))
      }
      blockID[b] = UInt16(idOfSquare[square])
    }
    try forEachEntry { (i, place) throws(IndexFormatError) in
      out.ids[place] = blockID[i / GeoTable.blockSize]
    }
    return out
  }

  /// Calls `body` with each entry's position and place index, in order: the packed array
  /// read in one pass.
  @inline(__always)
  package func forEachEntry(_ body: (Int, Int) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    let bytes = reader.buffer
    let mask = (UInt64(1) << bits) - 1
    var (pending, have, at) = (UInt64(0), 0, entriesStart)
    // The initializer checked that count × bits bits lie in the buffer from entriesStart.
    for i in 0..<count {
      while have < bits {
        pending |= UInt64(bytes[at]) << have
        at += 1
        have += 8
      }
      let place = Int(pending & mask)
      pending >>= bits
      have -= bits
      guard place < count else {
        throw reader.fault("place index \(place) out of range", at: entriesStart + i * bits / 8)
      }
      try body(i, place)
    }
  }

  /// The places whose cells may lie in the box of latitudes `south...north` and longitudes
  /// `west...east` (1e-7 degrees; west > east crosses the antimeridian), sorted by place
  /// index unless `sorted` is false; nil when there are more than `limit`. A superset: the
  /// caller checks positions.
  package func candidates(
    southE7: Int64, northE7: Int64, westE7: Int64, eastE7: Int64, limit: Int, sorted: Bool = true
  ) throws(IndexFormatError) -> [Int]? {
    var out: [Int] = []
    for range in try entryRanges(southE7: southE7, northE7: northE7, westE7: westE7, eastE7: eastE7)
    {
      guard out.count + range.count <= limit + GeoTable.blockSize else { return nil }
      for i in range { out.append(try entry(i)) }
    }
    guard out.count <= limit else { return nil }
    if sorted { out.sort() }
    return out
  }

  /// The entries (positions in the section's order) whose cells may lie in the box of
  /// latitudes `south...north` and longitudes `west...east` (1e-7 degrees; west > east crosses
  /// the antimeridian): whole blocks, as ascending ranges that do not overlap.
  package func entryRanges(southE7: Int64, northE7: Int64, westE7: Int64, eastE7: Int64)
    throws(IndexFormatError) -> [Range<Int>]
  {
    let y0 = HilbertCurve.y(latitudeE7: southE7)
    let y1 = HilbertCurve.y(latitudeE7: northE7)
    var ranges: [Range<UInt64>]
    if westE7 <= eastE7 {
      ranges = HilbertCurve.ranges(
        x0: HilbertCurve.x(longitudeE7: westE7), x1: HilbertCurve.x(longitudeE7: eastE7),
        y0: y0, y1: y1)
    } else {
      ranges =
        HilbertCurve.ranges(
          x0: HilbertCurve.x(longitudeE7: westE7), x1: HilbertCurve.side - 1, y0: y0, y1: y1)
        + HilbertCurve.ranges(
          x0: 0, x1: HilbertCurve.x(longitudeE7: eastE7), y0: y0, y1: y1)
      ranges.sort { $0.lowerBound < $1.lowerBound }
    }
    let blocks = (count + GeoTable.blockSize - 1) / GeoTable.blockSize
    var out: [Range<Int>] = []
    for range in ranges {
      // Entries with the range's first keys may sit at the end of the last block whose first
      // key is below the range (many places share a cell, so several blocks may start with
      // the same key).
      var lo = 0
      var hi = blocks
      while lo < hi {
        let mid = (lo + hi) / 2
        if try blockKey(mid) < range.lowerBound { lo = mid + 1 } else { hi = mid }
      }
      let first = max(0, lo - 1)
      var b = lo
      while b < blocks, try blockKey(b) < range.upperBound { b += 1 }
      let entries = (first * GeoTable.blockSize)..<min(count, b * GeoTable.blockSize)
      guard !entries.isEmpty else { continue }
      if let last = out.last, last.upperBound >= entries.lowerBound {
        out[out.count - 1] = last.lowerBound..<max(last.upperBound, entries.upperBound)
      } else {
        out.append(entries)
      }
    }
    return out
  }

  /// Checks that the entries are a permutation of the places in key order and that each
  /// block's key is its first entry's.
  package func verify() throws(IndexFormatError) {
    var seen = [Bool](repeating: false, count: count)
    var previous: (UInt64, Int)? = nil
    var m = PlaceMatch()
    for i in 0..<count {
      let index = try entry(i)
      guard !seen[index] else {
        throw reader.fault("place \(index) listed twice", at: entriesStart + i * bits / 8)
      }
      seen[index] = true
      try places.match(index, into: &m)
      let key = UInt64(
        HilbertCurve.key(
          latitudeE7: Int64(m.latitudeE7), longitudeE7: Int64(m.longitudeE7)))
      if let p = previous, p >= (key, index) {
        throw reader.fault("entry \(i) is out of key order", at: entriesStart + i * bits / 8)
      }
      if i % GeoTable.blockSize == 0, try blockKey(i / GeoTable.blockSize) != key {
        throw reader.fault(
          "block \(i / GeoTable.blockSize) key is not its first entry's",
          at: 8 + 4 * (i / GeoTable.blockSize))
      }
      previous = (key, index)
    }
  }
}

/// Writes a GEO section.
package enum GeoTableWriter {
  /// The ranks of places (in rank order) in the section's order: by the Hilbert key of
  /// their positions, then by rank.
  package static func order<Places: Collection<PlaceRecord>>(_ places: Places) -> [Int] {
    let keys = places.map {
      HilbertCurve.key(latitudeE7: Int64($0.latitudeE7), longitudeE7: Int64($0.longitudeE7))
    }
    return keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
  }

  /// The section bytes for places in rank order, in their ``order(_:)`` when it is given.
  package static func serialize<Places: RandomAccessCollection<PlaceRecord>>(
    _ places: Places, order: [Int]? = nil
  ) -> [UInt8] where Places.Index == Int {
    let order = order ?? Self.order(places)
    let keys = places.map {
      HilbertCurve.key(latitudeE7: Int64($0.latitudeE7), longitudeE7: Int64($0.longitudeE7))
    }
    let bits = BitPacking.width(for: places.count)
    var w = ByteWriter()
    w.u32(UInt32(places.count))
    w.u8(UInt8(bits))
    w.append([0, 0, 0])
    for b in stride(from: 0, to: order.count, by: GeoTable.blockSize) { w.u32(keys[order[b]]) }
    w.append(BitPacking.pack(order, bits: bits))
    return w.bytes
  }
}

/// Each place's square of the globe (``GeoTable/placeSquares()``), as ids of the squares the
/// index's blocks tell: a search keeps one bound per square id.
package struct PlaceSquares: Sendable {
  /// The id of a place whose square is not told.
  package static let unknown = UInt16.max
  /// Each place's square id (into ``squares``), by place index, or ``unknown``.
  package var ids: [UInt16]
  /// Each square id's square: a key's top 16 bits (at most 65,535 of them).
  package var squares: [UInt16] = []
}
