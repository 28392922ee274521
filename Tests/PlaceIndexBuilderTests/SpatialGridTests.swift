import Foundation
import OSMReader
import TestSupport
import Testing

@testable import PlaceIndexBuilder

/// The admin stage's grids (areas, ring edges, settlements) give the answers of the loops over
/// every area and settlement they replace, on seeded random inputs.
@Suite struct SpatialGridTests {
  /// A random star-shaped ring of `n` points around (lat, lon), radius up to `r` (1e-7 deg).
  func ring(
    _ random: inout SplitMix64, lat: Int32, lon: Int32, r: Int32, n: Int
  ) -> [(Int32, Int32)] {
    var points: [(Int32, Int32)] = []
    for k in 0..<n {
      let angle = 2 * Double.pi * Double(k) / Double(n)
      let radius = Double(r) * (0.3 + 0.7 * Double(random.below(1000)) / 1000)
      let y = Int64(lat) + Int64(radius * sin(angle))
      let x = Int64(lon) + Int64(radius * cos(angle))
      points.append((Int32(clamping: y), Int32(clamping: x)))
    }
    points.append(points[0])
    return points
  }

  func randomPoint(_ random: inout SplitMix64, near: (Int32, Int32)?, spread: Int32)
    -> (Int32, Int32)
  {
    if let near {
      let dy = Int64(random.below(Int(spread) * 2)) - Int64(spread)
      let dx = Int64(random.below(Int(spread) * 2)) - Int64(spread)
      return (
        Int32(clamping: max(-900_000_000, min(900_000_000, Int64(near.0) + dy))),
        Int32(clamping: max(-1_800_000_000, min(1_799_999_999, Int64(near.1) + dx)))
      )
    }
    return (
      Int32(Int64(random.below(1_700_000_000)) - 850_000_000),
      Int32(Int64(random.below(3_599_999_999)) - 1_800_000_000)
    )
  }

  /// 120 random areas in clusters, nested and overlapping, a few very large ones (the big
  /// list) and rings of many edges (edge bands), and the clusters' centres.
  func randomAreas(_ random: inout SplitMix64) -> ([AreaElement], [(Int32, Int32)]) {
    let levels = ["2", "4", "6", "8", "10"]
    var areas: [AreaElement] = []
    var centres: [(Int32, Int32)] = []
    for k in 0..<120 {
      // Clusters of nested and overlapping areas, a few very large ones (the big list) and
      // rings of many edges (edge bands).
      let centre =
        k % 10 == 0 || centres.isEmpty
        ? randomPoint(&random, near: nil, spread: 0)
        : randomPoint(&random, near: centres[random.below(centres.count)], spread: 3_000_000)
      centres.append(centre)
      let radius = Int32(k % 37 == 0 ? 300_000_000 : 100_000 + random.below(5_000_000))
      let edges = k % 3 == 0 ? 200 + random.below(800) : 5 + random.below(40)
      var rings = [ring(&random, lat: centre.0, lon: centre.1, r: radius, n: edges)]
      if k % 7 == 0 {
        rings.append(ring(&random, lat: centre.0, lon: centre.1, r: radius / 2, n: 30))
      }
      areas.append(
        AreaElement(
          kind: .relation, id: Int64(k),
          tags: [
            "boundary": "administrative", "admin_level": levels[random.below(levels.count)],
            "name": "Area \(k)",
          ], rings: rings))
    }
    return (areas, centres)
  }

  @Test func gridsAnswerAsTheLoopsOverEveryAreaAndSettlement() throws {
    let tables = try BuildTables(directory: TestPaths.data)
    for seed: UInt64 in [1, 2, 3] {
      var random = SplitMix64(seed: seed)
      let (areas, centres) = randomAreas(&random)
      var elements: [ExtractedElement] = []
      let kinds = ["city", "town", "village", "hamlet", "isolated_dwelling"]
      for k in 0..<3_000 {
        // Settlements clustered near the areas, some near the antimeridian and the poles.
        let p: (Int32, Int32)
        switch k % 20 {
        case 0: p = randomPoint(&random, near: (0, 1_799_000_000), spread: 3_000_000)
        case 1: p = randomPoint(&random, near: (880_000_000, 0), spread: 50_000_000)
        default:
          p = randomPoint(&random, near: centres[random.below(centres.count)], spread: 4_000_000)
        }
        let tags = [
          OSMTag(key: "place", value: kinds[random.below(kinds.count)]),
          OSMTag(key: "name", value: "Settlement \(k)"),
        ]
        elements.append(
          ExtractedElement(
            kind: .node, id: Int64(k), latitudeE7: p.0, longitudeE7: p.1, tags: PackedTags(tags),
            isArea: false))
      }
      let resolver = AdminResolver(areas: areas, elements: elements, countries: tables.countries)
      #expect(resolver.areaCount == areas.count)
      #expect(resolver.edgeBands.contains { $0 != nil })
      var insideSome = 0
      var nearSome = 0
      for k in 0..<3_000 {
        let p =
          k % 5 == 0
          ? randomPoint(&random, near: nil, spread: 0)
          : randomPoint(&random, near: centres[random.below(centres.count)], spread: 4_000_000)
        let grid = resolver.containingAreas(p.0, p.1)
        let scan = resolver.containingAreasByScan(p.0, p.1)
        #expect(grid == scan, "seed \(seed) point \(p)")
        if !scan.isEmpty { insideSome += 1 }
        let a = resolver.nearestSettlement(latitudeE7: p.0, longitudeE7: p.1)
        let b = resolver.nearestSettlementByScan(latitudeE7: p.0, longitudeE7: p.1)
        #expect(a?.name == b?.name, "seed \(seed) point \(p)")
        if b != nil { nearSome += 1 }
      }
      // Both kinds of answer were exercised, not just "nothing here".
      #expect(insideSome > 500, "\(insideSome)")
      #expect(nearSome > 500, "\(nearSome)")
      // The ring-edge bands agree with the plain even-odd test on each area's own box.
      for (i, a) in resolver.areas.enumerated() {
        guard let bands = resolver.edgeBands[i] else { continue }
        for _ in 0..<50 {
          let lat = a.minLat + Int32(random.below(Int(a.maxLat - a.minLat) + 1))
          let lon = a.minLon + Int32(random.below(Int(Int64(a.maxLon) - Int64(a.minLon)) + 1))
          #expect(bands.contains(lat, lon) == a.contains(lat, lon))
        }
      }
    }
  }

  /// A boundary cut by the extract's edge is placed in the areas that hold all of its points
  /// (those on closed areas' borders aside) as by the loop over every area, though only the
  /// areas near its first point off the borders are tried (at country scale there are
  /// thousands of areas and of cut boundaries).
  @Test func cutBoundariesAreHeldAsByTheLoopOverEveryArea() throws {
    let tables = try BuildTables(directory: TestPaths.data)
    for seed: UInt64 in [4, 5, 6] {
      var random = SplitMix64(seed: seed)
      let (areas, centres) = randomAreas(&random)
      let vertices = areas.flatMap { $0.rings.flatMap { $0 } }
      var boundaries: [BoundaryWays] = []
      for k in 0..<400 {
        // Short arcs near the clusters, some starting with points on the areas' rings (which
        // count neither inside nor outside), some made of such points only.
        var points: [(Int32, Int32)] = []
        let onBorder = k % 4 == 0 ? 1 + random.below(5) : 0
        for _ in 0..<onBorder { points.append(vertices[random.below(vertices.count)]) }
        if k % 17 != 0 {
          let start = randomPoint(
            &random, near: centres[random.below(centres.count)], spread: 4_000_000)
          for _ in 0..<(1 + random.below(6)) {
            points.append(randomPoint(&random, near: start, spread: 200_000))
          }
        }
        boundaries.append(
          BoundaryWays(
            id: Int64(1_000 + k), tags: ["boundary": "administrative", "admin_level": "4"],
            wayIDs: [Int64(k)], openPoints: points))
      }
      let resolver = AdminResolver(
        areas: areas, elements: [], countries: tables.countries, boundaries: boundaries)
      var held = 0
      for b in boundaries where !b.openPoints.isEmpty {
        let grid = resolver.containingAreas(b)
        let scan = resolver.containingAreasByScan(b)
        #expect(grid == scan, "seed \(seed) boundary \(b.id)")
        if !scan.isEmpty { held += 1 }
      }
      // Boundaries held by some area were met, not only ones held by none.
      #expect(held > 50, "\(held)")
    }
  }
}
