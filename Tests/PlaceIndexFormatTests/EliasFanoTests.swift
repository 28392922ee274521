import Foundation
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// Elias–Fano sequences (NEAR LISTS' lists): seeded sets of every density read back whole,
/// from any value on and by forward seeks, as the sets themselves say; damage is refused.
@Suite("Elias–Fano sequences")
struct EliasFanoTests {
  /// `values` encoded, behind 3 bytes of something else (a list does not start a section).
  func encoded(_ values: [Int], universe: Int) -> [UInt8] {
    [1, 2, 3] + EliasFanoWriter.encode(values, universe: universe)
  }

  /// `body` with the sequence at byte 3 of `bytes`.
  func open<T>(_ bytes: [UInt8], _ body: (EliasFano) throws -> T) throws -> T {
    try bytes.withUnsafeBytes { raw in
      try body(try EliasFano(ByteReader(raw, section: "TEST"), at: 3, limit: bytes.count))
    }
  }

  /// A seeded set of about `density` × `universe` values below `universe`.
  func randomSet(_ rng: inout SplitMix64, universe: Int, density: Double) -> [Int] {
    (0..<universe).filter { _ in Double(rng.next() % 1_000_000) / 1_000_000 < density }
  }

  @Test(
    "seeded sets read back whole, from any value and by forward seeks",
    arguments: [(1, 0.5), (2, 0.01), (3, 0.9), (4, 0.001), (5, 0.1), (6, 1.0)])
  func setsReadBack(seed: Int, density: Double) throws {
    var rng = SplitMix64(seed: UInt64(seed))
    var checked = 0
    for universe in [1, 2, 63, 64, 65, 1000, 20_000] {
      let values = randomSet(&rng, universe: universe, density: density)
      try open(encoded(values, universe: universe)) { list in
        #expect(list.count == values.count)
        try list.verify(universe: universe)
        var all: [Int] = []
        var c = try list.cursor(from: 0)
        while let v = try c.next() { all.append(v) }
        #expect(all == values, "universe \(universe)")
        for (i, v) in values.enumerated() where i % 7 == 0 { #expect(try list.value(i) == v) }
        // From random values: the first value at least each.
        for _ in 0..<50 {
          let from = Int(rng.next() % UInt64(universe + 2))
          var c = try list.cursor(from: from)
          #expect(try c.next() == values.first { $0 >= from }, "from \(from)")
          checked += 1
        }
        // Forward seeks, as a ring's GEO ranges are read: each lands on the first value at
        // least its target, never going back.
        var targets = (0..<20).map { _ in Int(rng.next() % UInt64(universe + 1)) }
        targets.sort()
        var s = try list.cursor(from: 0)
        for t in targets {
          try s.seek(to: t)
          #expect(try s.peek() == values.first { $0 >= t }, "seek to \(t)")
          checked += 1
        }
      }
    }
    #expect(checked > 300)
  }

  @Test("the encoding's size is about 2 + log2(u / k) bits a value")
  func sizeFollowsTheDensity() throws {
    var rng = SplitMix64(seed: 9)
    for (universe, density) in [(1_000_000, 0.01), (1_000_000, 0.3)] {
      let values = randomSet(&rng, universe: universe, density: density)
      let bits = Double(8 * EliasFanoWriter.encode(values, universe: universe).count)
      let bound = Double(values.count) * (3 + log2(Double(universe) / Double(values.count)))
      #expect(bits < bound, "\(values.count) values: \(bits) bits")
    }
  }

  @Test("a damaged sequence is refused by verify, naming what is wrong")
  func damageIsRefused() throws {
    var rng = SplitMix64(seed: 4)
    let values = randomSet(&rng, universe: 5000, density: 0.05)
    let good = encoded(values, universe: 5000)
    let (highStart, start) = try open(good) { ($0.highStart, $0.start) }
    // A bit more in the high bits: one value too many, or values out of order.
    var extra = good
    extra[highStart + 8] ^= 0x10
    // A sample that points elsewhere.
    var sample = good
    sample[start + EliasFano.headerSize + 4] ^= 0x01
    // A universe the values pass.
    for (bytes, universe) in [(extra, 5000), (sample, 5000), (good, values.last!)] {
      #expect(throws: IndexFormatError.self) {
        try open(bytes) { try $0.verify(universe: universe) }
      }
    }
    // A header whose count the high bits cannot hold, or that runs past its end.
    var counted = good
    counted[3 + 4] = 0xFF
    counted[3 + 5] = 0xFF
    #expect(throws: IndexFormatError.self) { try open(counted) { _ in () } }
  }
}
