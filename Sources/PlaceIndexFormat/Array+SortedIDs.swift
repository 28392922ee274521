extension Array where Element == Int {
  /// Merges the sorted `other` into the sorted tail `self[start...]`, which stays sorted
  /// (repeats kept, as sorting the two together would). In place, from the back: no buffer.
  ///
  /// A record's own name tokens and its context's, a context's tokens and its parent's.
  @inline(__always)
  mutating func mergeSortedTail(from start: Int, with other: [Int]) {
    guard !other.isEmpty else { return }
    var i = count - 1
    var j = other.count - 1
    append(contentsOf: other)
    var k = count - 1
    while j >= 0 {
      if i >= start && self[i] > other[j] {
        self[k] = self[i]
        i -= 1
      } else {
        self[k] = other[j]
        j -= 1
      }
      k -= 1
    }
  }
}
