import Foundation
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// The Hilbert curve and the GEO section's region lookup.
@Suite struct GeoTableTests {
  /// The property the lookup relies on: every aligned square of 2^k cells is one run of 4^k
  /// curve positions.
  @Test(arguments: [1, 2, 3, 5])
  func alignedSquaresAreContiguousRuns(k: Int) {
    var rng = SplitMix64(seed: UInt64(k))
    let s = Int64(1) << k
    for _ in 0..<50 {
      let x0 = Int64(rng.next() % UInt64(HilbertCurve.side / s)) * s
      let y0 = Int64(rng.next() % UInt64(HilbertCurve.side / s)) * s
      var keys: [UInt32] = []
      for x in x0..<(x0 + s) {
        for y in y0..<(y0 + s) { keys.append(HilbertCurve.key(x: x, y: y)) }
      }
      keys.sort()
      #expect(Set(keys).count == keys.count)
      #expect(keys.last! - keys.first! == UInt32(s * s - 1))
      #expect(keys.first! % UInt32(s * s) == 0)
    }
  }

  @Test func neighbouringPositionsAreNeighbouringCells() {
    // Walk the first 4096 positions of the curve: each step moves to an adjacent cell.
    var cell: [UInt32: (Int64, Int64)] = [:]
    for x in Int64(0)..<64 {
      for y in Int64(0)..<64 { cell[HilbertCurve.key(x: x, y: y)] = (x, y) }
    }
    for d in UInt32(0)..<4095 {
      let (a, b) = (cell[d]!, cell[d + 1]!)
      #expect(abs(a.0 - b.0) + abs(a.1 - b.1) == 1, "step \(d)")
    }
  }

  /// Seeded property test: ``HilbertCurve/cell(of:)`` is the inverse of the key, at the
  /// curve's ends and at random positions.
  @Test(arguments: [21, 22])
  func cellOfAKeyIsTheCellItCameFrom(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let side = HilbertCurve.side
    var cells: [(Int64, Int64)] = [(0, 0), (side - 1, 0), (0, side - 1), (side - 1, side - 1)]
    for _ in 0..<2000 {
      cells.append((Int64(rng.next() % UInt64(side)), Int64(rng.next() % UInt64(side))))
    }
    for (x, y) in cells {
      let key = HilbertCurve.key(x: x, y: y)
      let back = HilbertCurve.cell(of: key)
      #expect(back.x == x && back.y == y, "cell (\(x), \(y)) key \(key)")
    }
  }

  /// Seeded property test: a point lies in the box of its key's square.
  @Test(arguments: [23, 24])
  func aPointLiesInItsSquaresBox(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var points: [(Int64, Int64)] = [
      (900_000_000, 1_800_000_000), (-900_000_000, -1_800_000_000), (0, 0),
    ]
    for _ in 0..<2000 {
      points.append(
        (
          Int64(rng.next() % 1_800_000_001) - 900_000_000,
          Int64(rng.next() % 3_600_000_001) - 1_800_000_000
        ))
    }
    for (lat, lon) in points {
      let key = HilbertCurve.key(latitudeE7: lat, longitudeE7: lon)
      let box = HilbertCurve.box(ofSquare: UInt16(key >> 16))
      let (la, lo) = (Double(lat) / 1e7, Double(lon) / 1e7)
      #expect(la >= box.south && la <= box.north && lo >= box.west && lo <= box.east)
      #expect(box.north - box.south == 0.703125 && box.east - box.west == 1.40625)
    }
  }

  /// Seeded property test: every place whose square GEO's blocks tell lies in it, and most
  /// places' squares are told (the blocks of a crowd span one square).
  @Test(arguments: [13, 14])
  func placeSquaresHoldTheirPlaces(seed: UInt64) throws {
    let (content, geo, file) = try Self.scatter(seed: seed)
    defer { withExtendedLifetime(file) {} }
    let squares = try geo.placeSquares()
    #expect(squares.ids.count == content.places.count)
    #expect(Set(squares.squares).count == squares.squares.count)
    var told = 0
    for (i, p) in content.places.enumerated() where squares.ids[i] != PlaceSquares.unknown {
      told += 1
      let key = HilbertCurve.key(
        latitudeE7: Int64(p.latitudeE7), longitudeE7: Int64(p.longitudeE7))
      #expect(UInt16(key >> 16) == squares.squares[Int(squares.ids[i])], "place \(i)")
    }
    // The two clusters and the crowd (3 places in 4) lie in few squares.
    #expect(told >= content.places.count / 2)
  }

  /// 3,000 places: two clusters (one on the antimeridian), a scatter over the globe and a
  /// crowd in one cell; and their GEO section, which reads the file's bytes: the caller keeps
  /// the file alive while it uses the section.
  private static func scatter(seed: UInt64) throws -> (IndexContent, GeoTable, IndexFile) {
    var rng = SplitMix64(seed: seed)
    func random(_ range: ClosedRange<Int64>) -> Int64 {
      range.lowerBound + Int64(rng.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
    var content = IndexContent()
    for i in 0..<3000 {
      // Two clusters (one on the antimeridian), a scatter over the globe, and a crowd.
      let (lat, lon): (Int64, Int64)
      switch i % 4 {
      // Many places in one cell: blocks that start with the same key.
      case 3: (lat, lon) = (471_400_000 + Int64(i % 7), 95_250_000)
      case 0: (lat, lon) = (random(471_000_000...472_000_000), random(95_000_000...96_000_000))
      case 1:
        (lat, lon) = (
          random((-170_000_000)...(-160_000_000)), random(1_795_000_000...1_800_000_000)
        )
      default:
        (lat, lon) = (random(-900_000_000...900_000_000), random(-1_800_000_000...1_800_000_000))
      }
      content.places.append(
        PlaceRecord(
          osmKind: 0, osmID: Int64(i), latitudeE7: Int32(lat), longitudeE7: Int32(lon),
          importance: 0, typeList: 0, primaryText: "p", secondaryParts: [], countryCode: "",
          names: [], components: []))
      content.placeTerms.append(["p"])
      content.placeContextTerms.append([])
    }
    content.typeNames = ["route"]
    content.typeLists = [[0]]
    let file = try open(content, path: "geo-\(seed)")
    let sections = try OpenedSections(file)
    let (gs, gb) = try file.requiredBytes(.geo)
    let geo = try GeoTable(gb, fileOffset: gs.offset, places: sections.places)
    try geo.verify()
    return (content, geo, file)
  }

  /// Seeded property test: the candidates of a box include every place inside it.
  @Test(arguments: [11, 12])
  func candidatesCoverEveryPlaceInTheBox(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed &+ 100)
    func random(_ range: ClosedRange<Int64>) -> Int64 {
      range.lowerBound + Int64(rng.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
    let (content, geo, file) = try Self.scatter(seed: seed)
    defer { withExtendedLifetime(file) {} }
    var boxes: [(Int64, Int64, Int64, Int64)] = [
      (471_400_000, 471_500_000, 95_200_000, 95_300_000),
      (471_400_000, 471_400_003, 95_250_000, 95_250_000),  // half the crowd
      (-170_000_000, -160_000_000, 1_799_000_000, -1_799_000_000),  // across the antimeridian
    ]
    for _ in 0..<40 {
      let south = random(-900_000_000...890_000_000)
      let west = random(-1_800_000_000...1_790_000_000)
      boxes.append(
        (south, south + random(1000...50_000_000), west, west + random(1000...90_000_000)))
    }
    var nonEmpty = 0
    for (south, north, west, east) in boxes {
      let inside = content.places.indices.filter {
        let p = content.places[$0]
        let lat = Int64(p.latitudeE7)
        let lon = Int64(p.longitudeE7)
        let inLon = west <= east ? (lon >= west && lon <= east) : (lon >= west || lon <= east)
        return lat >= south && lat <= north && inLon
      }
      guard
        let got = try geo.candidates(
          southE7: south, northE7: north, westE7: west, eastE7: min(east, 1_800_000_000),
          limit: 10_000)
      else {
        Issue.record("no candidates for a 10,000 limit")
        continue
      }
      #expect(got == got.sorted() && Set(got).count == got.count)
      #expect(Set(inside).isSubset(of: got), "box \(south) \(north) \(west) \(east)")
      if !inside.isEmpty { nonEmpty += 1 }
    }
    #expect(nonEmpty >= 3)
    // A box around the first cluster holds about 1000 places: a limit of 100 gives nil.
    #expect(
      try geo.candidates(
        southE7: 471_000_000, northE7: 472_000_000, westE7: 95_000_000, eastE7: 96_000_000,
        limit: 100) == nil)
  }
}
