import PlaceCore
import Testing

@testable import PlaceIndex

/// The near-first search's set of seen places against a plain `Set`, over ranks clustered in
/// a few pages and spread over a file's whole range of ranks.
@Suite struct SeenPlacesTests {
  @Test(arguments: [(1, 12), (2, 30)])
  func holdsWhatASetHolds(seed: UInt64, spreadBits: Int) {
    var random = SplitMix64(seed: seed)
    var seen = SeenPlaces()
    var reference = Set<Int>()
    var pages = Set<Int>()
    for step in 0..<20_000 {
      // Half the ranks near a few centres, half anywhere below 2^spreadBits.
      let rank =
        step % 2 == 0
        ? Int(random.next() % 8) << 14 + Int(random.next() % 5_000)
        : Int(random.next() % (1 << UInt64(spreadBits)))
      let probe = Int(random.next() % (1 << UInt64(spreadBits)))
      #expect(seen.contains(probe) == reference.contains(probe), "rank \(probe)")
      seen.insert(rank)
      reference.insert(rank)
      pages.insert(rank >> SeenPlaces.pageBits)
      #expect(seen.contains(rank))
    }
    for rank in reference { #expect(seen.contains(rank)) }
    #expect(pages.count > 8, "\(pages.count) pages")
  }
}
