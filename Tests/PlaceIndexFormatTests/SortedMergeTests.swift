import TestSupport
import Testing

@testable import PlaceIndexFormat

/// The in-place merge that joins a record's tokens with its context's.
@Suite struct SortedMergeTests {
  /// Seeded: merging two sorted lists into a sorted tail gives the sorted concatenation, and
  /// leaves the head before the tail alone.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func mergingEqualsSortingTheTwoTogether(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var checked = 0
    for _ in 0..<500 {
      let head = (0..<Int(rng.next() % 4)).map { _ in Int(rng.next() % 1000) }
      let tail = (0..<Int(rng.next() % 12)).map { _ in Int(rng.next() % 50) }.sorted()
      let other = (0..<Int(rng.next() % 12)).map { _ in Int(rng.next() % 50) }.sorted()
      var merged = head + tail
      merged.mergeSortedTail(from: head.count, with: other)
      #expect(merged == head + (tail + other).sorted())
      checked += 1
    }
    #expect(checked == 500)
  }
}
