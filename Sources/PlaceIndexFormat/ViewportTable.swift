// VIEWPORTS section layout (since 6.1): the box to show each place in, for place details'
// `viewport`. Every place has the default box: its position ± `defaultHalfSize` meters. A way,
// merged street or relation whose geometry reaches past that box stores its bounding box
// (grown to hold the position), and its viewport is the union of the two:
//   u32 count                          equals the place count
//   u32 boxCount                       places with a stored box
//   u32 defaultHalfSize                meters north, south, east and west of the position
//   u32 zero
//   u64 present[ceil(count / 64)]      bit r % 64 (low bit first) of word r / 64 is set when
//                                      place r has a stored box
//   u32 before[ceil(count / 64)]       entry s: the stored boxes of the places before rank 64s
//   u8  codes[4 × boxCount]            per stored box, in rank order: how far it reaches south,
//                                      north, west and east of the place's position, in
//                                      micro-degrees (µ°), each as a one-byte float: code c
//                                      (e = c >> 3, m = c & 7) is m when e = 0, else
//                                      (8 + m) << (e - 1); the writer takes the smallest code
//                                      at least the distance, so the box holds the geometry
//                                      (exact below 16 µ°, at most 1/8 more above)
// A box is one word's popcount and one entry: 0.19 bytes a place plus 4 bytes a stored box.

import Foundation

/// A bounding box in 1e-7 degrees, south ≤ north and west ≤ east.
package struct GeoBoxE7: Sendable, Hashable {
  package var south: Int32
  package var west: Int32
  package var north: Int32
  package var east: Int32

  package init(south: Int32, west: Int32, north: Int32, east: Int32) {
    self.south = south
    self.west = west
    self.north = north
    self.east = east
  }

  /// The box around `points` (latitude, longitude), or nil when there are none.
  package init?(around points: some Sequence<(Int32, Int32)>) {
    var it = points.makeIterator()
    guard let first = it.next() else { return nil }
    var box = GeoBoxE7(south: first.0, west: first.1, north: first.0, east: first.1)
    while let p = it.next() { box.include(p) }
    self = box
  }

  /// Grows the box to hold `p` (latitude, longitude).
  package mutating func include(_ p: (Int32, Int32)) {
    south = min(south, p.0)
    north = max(north, p.0)
    west = min(west, p.1)
    east = max(east, p.1)
  }

  /// Grows the box to hold `other`.
  package mutating func include(_ other: GeoBoxE7) {
    include((other.south, other.west))
    include((other.north, other.east))
  }
}

/// A viewport in degrees.
package struct ViewportDegrees: Sendable, Hashable {
  package var south: Double
  package var west: Double
  package var north: Double
  package var east: Double

  /// The box rounded outward to 1e-7 degrees, the precision of positions.
  var outwardE7: ViewportDegrees {
    ViewportDegrees(
      south: (south * 1e7).rounded(.down) / 1e7, west: (west * 1e7).rounded(.down) / 1e7,
      north: (north * 1e7).rounded(.up) / 1e7, east: (east * 1e7).rounded(.up) / 1e7)
  }
}

/// Reads the places' viewports.
package struct ViewportTable: @unchecked Sendable {
  let reader: ByteReader
  /// Number of places.
  package let count: Int
  /// Number of places with a stored box.
  package let boxCount: Int
  /// The default box's reach from the position, in meters.
  package let defaultHalfSize: Int
  let words: Int
  let beforeStart: Int
  let codesStart: Int

  /// The default box's reach the writer uses, in meters: about a block around a point, as a
  /// map shows a shop or an address.
  package static let defaultHalfSize = 150

  /// Reads the section header and checks its size (O(1)).
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "VIEWPORTS", fileOffset: fileOffset)
    count = Int(try r.u32())
    boxCount = Int(try r.u32())
    defaultHalfSize = Int(try r.u32())
    _ = try r.u32()
    guard count == placeCount else {
      throw r.fault("\(count) places, but PLACES has \(placeCount)", at: 0)
    }
    guard boxCount <= count else {
      throw r.fault("\(boxCount) stored boxes for \(count) places", at: 4)
    }
    guard defaultHalfSize <= 100_000 else {
      throw r.fault("a default box of \(defaultHalfSize) m is not a viewport", at: 8)
    }
    words = (count + 63) / 64
    beforeStart = 16 + 8 * words
    codesStart = beforeStart + 4 * words
    guard bytes.count == codesStart + 4 * boxCount else {
      throw r.fault(
        "\(bytes.count) bytes, but \(count) places and \(boxCount) stored boxes take \(codesStart + 4 * boxCount)",
        at: 0)
    }
    reader = r
  }

  /// The distance in µ° that code `c` stands for.
  static func distance(ofCode c: UInt8) -> Int64 {
    let e = Int64(c >> 3)
    let m = Int64(c & 7)
    return e == 0 ? m : (8 + m) << (e - 1)
  }

  /// The smallest code whose distance is at least `d` µ° (d ≥ 0).
  static func code(atLeast d: Int64) -> UInt8 {
    var lo = 0
    var hi = 255
    while lo < hi {
      let mid = (lo + hi) / 2
      if distance(ofCode: UInt8(mid)) >= d { hi = mid } else { lo = mid + 1 }
    }
    return UInt8(lo)
  }

  /// µ° of a 1e-7 degree value, rounded down.
  static func micro(_ e7: Int32) -> Int64 {
    let v = Int64(e7)
    return v >= 0 ? v / 10 : -((-v + 9) / 10)
  }

  /// The default box around a position (1e-7 degrees), in degrees: `halfSize` meters each way.
  static func defaultBox(latitudeE7: Int32, longitudeE7: Int32, halfSize: Int)
    -> ViewportDegrees
  {
    let lat = Double(latitudeE7) / 1e7
    let lon = Double(longitudeE7) / 1e7
    let dLat = Double(halfSize) / 111_320
    let dLon = dLat / max(0.01, cos(lat * Double.pi / 180))
    return ViewportDegrees(
      south: max(-90, lat - dLat), west: max(-180, lon - dLon), north: min(90, lat + dLat),
      east: min(180, lon + dLon))
  }

  /// The viewport of place `rank`, whose position is (`latitudeE7`, `longitudeE7`).
  package func viewport(of rank: Int, latitudeE7: Int32, longitudeE7: Int32)
    throws(IndexFormatError)
    -> ViewportDegrees
  {
    guard rank >= 0, rank < count else {
      throw reader.fault("rank \(rank) is not below the place count \(count)", at: 0)
    }
    var box = ViewportTable.defaultBox(
      latitudeE7: latitudeE7, longitudeE7: longitudeE7, halfSize: defaultHalfSize)
    let word = try reader.u64(at: 16, index: rank / 64)
    let bit = UInt64(1) << UInt64(rank % 64)
    guard word & bit != 0 else { return box.outwardE7 }
    let i =
      Int(try reader.u32(at: beforeStart, index: rank / 64))
      + (word & (bit - 1)).nonzeroBitCount
    guard i < boxCount else {
      throw reader.fault(
        "place \(rank) has stored box \(i) of \(boxCount)", at: beforeStart + 4 * (rank / 64))
    }
    var r = reader
    r.offset = codesStart + 4 * i
    let lat = Double(ViewportTable.micro(latitudeE7))
    let lon = Double(ViewportTable.micro(longitudeE7))
    let south = (lat - Double(ViewportTable.distance(ofCode: try r.u8()))) / 1e6
    let north = (lat + Double(ViewportTable.distance(ofCode: try r.u8()))) / 1e6
    let west = (lon - Double(ViewportTable.distance(ofCode: try r.u8()))) / 1e6
    let east = (lon + Double(ViewportTable.distance(ofCode: try r.u8()))) / 1e6
    box.south = max(-90, min(box.south, south))
    box.north = min(90, max(box.north, north))
    box.west = max(-180, min(box.west, west))
    box.east = min(180, max(box.east, east))
    return box.outwardE7
  }

  /// Checks that the presence bits count the stored boxes, that each entry of `before` counts
  /// the boxes before its places, and that no bit is set past the last place.
  package func verify() throws(IndexFormatError) {
    var seen = 0
    for w in 0..<words {
      let before = try reader.u32(at: beforeStart, index: w)
      guard before == UInt32(seen) else {
        throw reader.fault(
          "entry \(w) counts \(before) stored boxes before rank \(64 * w), but there are \(seen)",
          at: beforeStart + 4 * w)
      }
      let word = try reader.u64(at: 16, index: w)
      if w == words - 1, count % 64 != 0, word >> UInt64(count % 64) != 0 {
        throw reader.fault("presence bits are set past the last place", at: 16 + 8 * w)
      }
      seen += word.nonzeroBitCount
    }
    guard seen == boxCount else {
      throw reader.fault("\(seen) presence bits for \(boxCount) stored boxes", at: 4)
    }
  }
}

/// Writes the VIEWPORTS section.
package enum ViewportTableWriter {
  /// The four codes of `place`'s box (south, north, west, east of its position), or nil when
  /// it has none or its default box holds it.
  static func codes(of place: PlaceRecord, halfSize: Int) -> [UInt8]? {
    guard var box = place.viewport else { return nil }
    box.include((place.latitudeE7, place.longitudeE7))
    let lat = ViewportTable.micro(place.latitudeE7)
    let lon = ViewportTable.micro(place.longitudeE7)
    let south = lat - ViewportTable.micro(box.south)
    let north = -ViewportTable.micro(-box.north) - lat
    let west = lon - ViewportTable.micro(box.west)
    let east = -ViewportTable.micro(-box.east) - lon
    let d = ViewportTable.defaultBox(
      latitudeE7: place.latitudeE7, longitudeE7: place.longitudeE7, halfSize: halfSize)
    let inside =
      Double(lat - south) / 1e6 >= d.south && Double(lat + north) / 1e6 <= d.north
      && Double(lon - west) / 1e6 >= d.west && Double(lon + east) / 1e6 <= d.east
    if inside { return nil }
    return [south, north, west, east].map { ViewportTable.code(atLeast: $0) }
  }

  /// The section's bytes for `places` in rank order.
  package static func serialize<Places: RandomAccessCollection<PlaceRecord>>(
    _ places: Places, halfSize: Int = ViewportTable.defaultHalfSize
  ) -> [UInt8] where Places.Index == Int {
    let count = places.count
    let words = (count + 63) / 64
    var present = [UInt64](repeating: 0, count: words)
    var before = [UInt32](repeating: 0, count: words)
    var codes: [UInt8] = []
    for (rank, p) in places.enumerated() {
      if rank % 64 == 0 { before[rank / 64] = UInt32(codes.count / 4) }
      guard let c = self.codes(of: p, halfSize: halfSize) else { continue }
      present[rank / 64] |= UInt64(1) << UInt64(rank % 64)
      codes.append(contentsOf: c)
    }
    var w = ByteWriter()
    w.u32(UInt32(count))
    w.u32(UInt32(codes.count / 4))
    w.u32(UInt32(halfSize))
    w.u32(0)
    for word in present { w.u64(word) }
    for b in before { w.u32(b) }
    w.append(codes)
    return w.bytes
  }
}
