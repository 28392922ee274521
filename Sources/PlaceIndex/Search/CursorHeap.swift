/// A binary min-heap of postings cursors by their next place: (head value, cursor) pairs, for
/// the searches that read many lists as one stream in rank order (``PostingsMerger``).
struct CursorHeap {
  var entries: [(value: Int, cursor: Int)] = []

  /// Orders the whole heap.
  mutating func heapify() {
    var i = entries.count / 2
    while i > 0 {
      i -= 1
      siftDown(i)
    }
  }

  /// The least head, or nil when every list has ended.
  @inline(__always)
  var top: (value: Int, cursor: Int)? { entries.first }

  /// Gives the top cursor its next place `value`, or removes it when its list ended (nil).
  @inline(__always)
  mutating func replaceTop(_ value: Int?) {
    if let value {
      entries[0].value = value
    } else {
      let end = entries.removeLast()
      if entries.isEmpty { return }
      entries[0] = end
    }
    siftDown(0)
  }

  /// Adds a cursor whose next place is `value`.
  mutating func push(_ value: Int, _ cursor: Int) {
    var i = entries.count
    entries.append((value, cursor))
    while i > 0 {
      let parent = (i - 1) / 2
      if entries[parent].value <= value { break }
      entries[i] = entries[parent]
      i = parent
    }
    entries[i] = (value, cursor)
  }

  /// Calls `body` with each cursor whose head is the least (a heap's least entries form a
  /// subtree at its top).
  func forEachAtTop(_ body: (_ cursor: Int) -> Void) {
    guard let least = entries.first?.value else { return }
    func visit(_ i: Int) {
      guard i < entries.count, entries[i].value == least else { return }
      body(entries[i].cursor)
      visit(2 * i + 1)
      visit(2 * i + 2)
    }
    visit(0)
  }

  /// Restores the heap order below `start`.
  private mutating func siftDown(_ start: Int) {
    let count = entries.count
    var i = start
    let item = entries[i]
    while true {
      var child = 2 * i + 1
      if child >= count { break }
      if child + 1 < count && entries[child + 1].value < entries[child].value { child += 1 }
      if entries[child].value >= item.value { break }
      entries[i] = entries[child]
      i = child
    }
    entries[i] = item
  }
}
