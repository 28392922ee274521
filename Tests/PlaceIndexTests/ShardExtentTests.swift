import Foundation
import TestSupport
import Testing

@testable import PlaceIndex

/// The bounds a client uses to skip shards never exclude a place that could enter.
@Suite struct ShardExtentTests {
  /// A box and points inside it, drawn from `random`.
  func box(_ random: inout SplitMix64) -> (ShardExtent, [Coordinate]) {
    var e = ShardExtent()
    e.south = random.double(in: -80...70)
    e.north = e.south + random.double(in: 0...10)
    e.west = random.double(in: -180...170)
    e.east = e.west + random.double(in: 0...10)
    e.isEmpty = false
    let inside = (0..<40).map { _ in
      Coordinate(
        latitude: random.double(in: e.south...e.north),
        longitude: random.double(in: e.west...e.east))
    }
    return (e, inside)
  }

  @Test func theLeastDistanceIsAtMostTheDistanceToAnyPlaceInTheBox() {
    var random = SplitMix64(seed: 27)
    var checked = 0
    var positive = 0
    for _ in 0..<400 {
      let (extent, inside) = box(&random)
      let point = Coordinate(
        latitude: random.double(in: -89...89), longitude: random.double(in: -180...180))
      let bound = extent.leastDistance(from: point)
      if bound > 0 { positive += 1 }
      for p in inside {
        #expect(bound <= point.distance(to: p), "\(point) to \(p) in \(extent)")
        checked += 1
      }
      // A point inside the box has no positive bound.
      #expect(extent.leastDistance(from: inside[0]) == 0)
    }
    #expect(checked == 16_000)
    #expect(positive > 300)
  }

  @Test func aRegionMeetsTheBoxesOfThePlacesInIt() {
    var random = SplitMix64(seed: 28)
    var met = 0
    for _ in 0..<400 {
      let (extent, inside) = box(&random)
      let near = inside[random.below(inside.count)]
      let center = Coordinate(
        latitude: max(-89, min(89, near.latitude + random.double(in: -3...3))),
        longitude: near.longitude + random.double(in: -3...3))
      let region = CoordinateRegion.circle(
        center: center, radiusMeters: random.double(in: 1...500_000))
      if inside.contains(where: { region.contains($0) }) {
        #expect(extent.mayMeet(region), "\(region) holds a place of \(extent)")
        met += 1
      }
    }
    #expect(met > 50)
    #expect(
      !ShardExtent().mayMeet(
        .circle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 1)))
  }
}
