import Foundation
import PlaceCore
import Testing

@testable import PlaceIndexFormat

/// The VIEWPORTS section: a default box around every place, and the bounding box of the larger
/// ways and relations in one-byte floats.
@Suite struct ViewportTableTests {
  /// Reads `bytes` as the section of `placeCount` places (kept alive for the test's length).
  static func table(_ bytes: [UInt8], placeCount: Int) throws -> ViewportTable {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
    buffer.copyMemory(from: bytes.withUnsafeBytes { $0 })
    return try ViewportTable(
      UnsafeRawBufferPointer(buffer), fileOffset: 200, placeCount: placeCount)
  }

  static func place(_ lat: Int32, _ lon: Int32, box: GeoBoxE7?) -> PlaceRecord {
    var p = PlaceRecord(
      osmKind: box == nil ? 0 : 1, osmID: 1, latitudeE7: lat, longitudeE7: lon, importance: 0,
      typeList: 0, primaryText: "p", secondaryParts: [], countryCode: "", names: [],
      components: [])
    p.viewport = box
    return p
  }

  @Test func codesAreTheSmallestAtLeastTheDistance() {
    var previous: Int64 = -1
    for c in 0...255 {
      let d = ViewportTable.distance(ofCode: UInt8(c))
      #expect(d > previous, "code \(c)")
      previous = d
    }
    // Beyond every distance on the globe (360° = 360e6 µ°).
    #expect(ViewportTable.distance(ofCode: 255) > 360_000_000)
    var rng = SplitMix64(seed: 7)
    for _ in 0..<5000 {
      let d = Int64(rng.int(in: 0...360_000_000) >> rng.int(in: 0...28))
      let c = ViewportTable.code(atLeast: d)
      #expect(ViewportTable.distance(ofCode: c) >= d)
      if c > 0 { #expect(ViewportTable.distance(ofCode: c - 1) < d) }
      // Exact below 16 µ°, at most 1/8 more above.
      if d < 16 {
        #expect(ViewportTable.distance(ofCode: c) == d)
      } else {
        #expect(Double(ViewportTable.distance(ofCode: c)) <= Double(d) * 1.125 + 1)
      }
    }
  }

  /// A seeded set of places, nodes and ways of every size, read back: each viewport holds the
  /// default box and the geometry, and reaches at most 1/8 (and 2 µ°) past the larger of them.
  @Test(arguments: [1, 2, 3, 4])
  func everyViewportHoldsItsGeometryAndLittleMore(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let count = rng.int(in: 1...700)
    var places: [PlaceRecord] = []
    for _ in 0..<count {
      let lat = Int32(rng.int(in: -850_000_000...850_000_000))
      let lon = Int32(rng.int(in: -1_790_000_000...1_790_000_000))
      guard rng.below(3) > 0 else {
        places.append(Self.place(lat, lon, box: nil))
        continue
      }
      // A geometry from a few meters to hundreds of kilometers, not always around the point.
      let reach = Int32(rng.int(in: 10...5_000_000) >> rng.int(in: 0...12))
      func side() -> Int32 { Int32(rng.int(in: 0...Int(reach))) }
      var box = GeoBoxE7(
        south: lat - side() + (rng.below(5) == 0 ? reach / 2 : 0), west: lon - side(),
        north: lat + side(), east: lon + side())
      box.north = max(box.north, box.south)
      places.append(Self.place(lat, lon, box: box))
    }
    let bytes = ViewportTableWriter.serialize(places)
    let table = try Self.table(bytes, placeCount: count)
    try table.verify()
    #expect(table.defaultHalfSize == ViewportTable.defaultHalfSize)
    var stored = 0
    for (rank, p) in places.enumerated() {
      let v = try table.viewport(of: rank, latitudeE7: p.latitudeE7, longitudeE7: p.longitudeE7)
      let d = ViewportTable.defaultBox(
        latitudeE7: p.latitudeE7, longitudeE7: p.longitudeE7, halfSize: table.defaultHalfSize)
      #expect(v.south <= d.south && v.west <= d.west && v.north >= d.north && v.east >= d.east)
      guard var g = p.viewport else {
        #expect(abs(v.south - d.south) < 1e-7 && abs(v.north - d.north) < 1e-7, "\(rank)")
        continue
      }
      if ViewportTableWriter.codes(of: p, halfSize: table.defaultHalfSize) != nil { stored += 1 }
      g.include((p.latitudeE7, p.longitudeE7))
      let lat = Double(p.latitudeE7) / 1e7
      let lon = Double(p.longitudeE7) / 1e7
      // Holds the geometry.
      #expect(v.south <= Double(g.south) / 1e7 && v.north >= Double(g.north) / 1e7, "\(rank)")
      #expect(v.west <= Double(g.west) / 1e7 && v.east >= Double(g.east) / 1e7, "\(rank)")
      // And reaches little past the larger of geometry and default box on each side.
      let slack = 3e-6
      #expect(lat - v.south <= max(lat - d.south, (lat - Double(g.south) / 1e7) * 1.125) + slack)
      #expect(v.north - lat <= max(d.north - lat, (Double(g.north) / 1e7 - lat) * 1.125) + slack)
      #expect(lon - v.west <= max(lon - d.west, (lon - Double(g.west) / 1e7) * 1.125) + slack)
      #expect(v.east - lon <= max(d.east - lon, (Double(g.east) / 1e7 - lon) * 1.125) + slack)
    }
    #expect(table.boxCount == stored)
    #expect(bytes.count == 16 + 12 * ((count + 63) / 64) + 4 * stored)
  }

  @Test func bytesMatchTheDocumentedLayout() throws {
    // A node, a building inside its default box, and a street 0.02° long (2,000 µ°
    // north, 1,000 µ° south, 5 µ° west, 15 µ° east of its point).
    let places = [
      Self.place(470_000_000, 95_000_000, box: nil),
      Self.place(
        470_000_000, 95_000_000,
        box: GeoBoxE7(south: 469_999_000, west: 94_999_000, north: 470_001_000, east: 95_001_000)),
      Self.place(
        470_000_000, 95_000_000,
        box: GeoBoxE7(south: 469_990_000, west: 94_999_950, north: 470_020_000, east: 95_000_150)),
    ]
    let bytes = ViewportTableWriter.serialize(places)
    // 1,000 µ°: 8 << 7 = 1,024 (code 8 << 3 = 64) is the first distance at least 1,000;
    // 2,000 µ°: (8 + 7) << 7 = 1,920 falls short, 8 << 8 = 2,048 is code 9 << 3 = 72; below
    // 16 µ° a code is its distance.
    #expect(ViewportTable.code(atLeast: 2000) == 72)
    #expect(ViewportTable.code(atLeast: 1000) == 64)
    #expect(
      bytes == [
        3, 0, 0, 0, 1, 0, 0, 0, 150, 0, 0, 0, 0, 0, 0, 0,
        0b100, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0,
        64, 72, 5, 15,
      ])
  }

  @Test func damagedSectionsAreRefusedNamingTheSection() throws {
    let places = (0..<130).map { i in
      Self.place(
        0, 0,
        box: i % 3 == 0 ? GeoBoxE7(south: -100_000, west: -100_000, north: 100_000, east: 0) : nil)
    }
    let good = ViewportTableWriter.serialize(places)
    try Self.table(good, placeCount: 130).verify()
    // Another place count.
    expectCorrupt("VIEWPORTS", reason: "PLACES has 131") {
      try Self.table(good, placeCount: 131)
    }
    // Truncated by a byte.
    expectCorrupt("VIEWPORTS", reason: "take") {
      try Self.table(Array(good.dropLast()), placeCount: 130)
    }
    // A presence bit cleared: the stored boxes no longer match the count.
    var bits = good
    bits[16 + 16] ^= 0b10
    expectCorrupt("VIEWPORTS", reason: "presence bits") {
      try Self.table(bits, placeCount: 130).verify()
    }
    // A presence bit past the last place (130 places: word 2 holds ranks 128 and 129).
    var past = good
    past[16 + 16] |= 0b100
    expectCorrupt("VIEWPORTS", reason: "past the last place") {
      try Self.table(past, placeCount: 130).verify()
    }
    // A count of boxes before a word that is not the count.
    var before = good
    before[16 + 24 + 4] &+= 1
    expectCorrupt("VIEWPORTS", reason: "stored boxes before rank 64") {
      try Self.table(before, placeCount: 130).verify()
    }
  }
}
