/// A map from element id to a 64-bit value, written once in id order (as OSM files list their
/// elements) to a temporary file and then looked up: 16 bytes per element on disk, about
/// 1/32 byte per element on the heap.
///
/// Appending keeps the last value of an id that comes twice in a row (two extracts merged).
/// Ids out of order are sorted once, when ``freeze()`` is called: chunks of 65,536 records
/// are sorted in memory, then the runs are merged between two temporary files (a stable
/// merge sort, O(n log n), already ordered runs merged in one step), and of several records
/// with one id the last one read is kept. Lookups binary-search a heap table of every 256th id,
/// then one 4 KiB page of the file.
final class RecordLog {
  private let budget: SpillBudget
  private let purpose: String
  private var file: SpillFile
  private var pendingID: Int64 = 0
  private var pendingValue: Int64 = 0
  private var hasPending = false
  private var ordered = true
  private(set) var count = 0
  /// Records dropped because a later one had the same id.
  private(set) var duplicates = 0
  private var frozen: SortedRecords? = nil

  init(_ budget: SpillBudget, purpose: String) throws {
    self.budget = budget
    self.purpose = purpose
    file = try SpillFile(budget, purpose: purpose)
  }

  var isFrozen: Bool { frozen != nil }

  /// Adds a record; only before ``freeze()``.
  func append(id: Int64, value: Int64) throws {
    precondition(frozen == nil)
    if hasPending {
      if id == pendingID {
        pendingValue = value
        duplicates += 1
        return
      }
      if id < pendingID { ordered = false }
      try file.append(pendingID, pendingValue)
    }
    pendingID = id
    pendingValue = value
    hasPending = true
    count += 1
  }

  /// Ends the appends; sorts when the ids came out of order.
  func freeze(pageLimit: Int) throws {
    guard frozen == nil else { return }
    if hasPending { try file.append(pendingID, pendingValue) }
    hasPending = false
    var records = try file.map()
    var n = count
    if !ordered {
      let (sorted, spare) = try RecordSorter.sort(file, count: n, budget: budget, purpose: purpose)
      file = sorted
      _ = spare
      records = try file.map()
      n = RecordSorter.keepLast(records, count: n)
      duplicates += count - n
      count = n
    }
    frozen = SortedRecords(file: file, records: records, count: n, pageLimit: pageLimit)
  }

  /// The value of `id`, or nil; only after ``freeze()``.
  func value(of id: Int64) -> Int64? { frozen!.value(of: id) }
}

/// Frozen records: sorted by id, each id once.
final class SortedRecords {
  private let file: SpillFile
  private let base: UnsafeMutablePointer<Int64>?
  let count: Int
  /// The id of every 256th record (the first of each 4 KiB page).
  private let sparse: [Int64]
  private var pages: PageBudget

  init(file: SpillFile, records: UnsafeMutableRawBufferPointer, count: Int, pageLimit: Int) {
    self.file = file
    self.count = count
    base = records.baseAddress?.assumingMemoryBound(to: Int64.self)
    var sparse: [Int64] = []
    sparse.reserveCapacity((count + 255) / 256)
    var pages = PageBudget(pages: (count + 255) / 256, limit: pageLimit)
    var i = 0
    while i < count {
      // Every page is touched once here: within the budget, as the lookups are.
      if pages.touch(i / 256) { file.dropResidentPages() }
      sparse.append(Int64(littleEndian: base![2 * i]))
      i += 256
    }
    self.sparse = sparse
    self.pages = pages
  }

  func value(of id: Int64) -> Int64? {
    guard let base, count > 0 else { return nil }
    // The last page whose first id is <= id.
    var lo = 0
    var hi = sparse.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if sparse[mid] <= id { lo = mid + 1 } else { hi = mid }
    }
    guard lo > 0 else { return nil }
    let page = lo - 1
    if pages.touch(page) { file.dropResidentPages() }
    var l = page * 256
    var h = min(count, l + 256)
    while l < h {
      let mid = (l + h) >> 1
      if Int64(littleEndian: base[2 * mid]) < id { l = mid + 1 } else { h = mid }
    }
    guard l < count, Int64(littleEndian: base[2 * l]) == id else { return nil }
    return Int64(littleEndian: base[2 * l + 1])
  }
}

/// The external sort behind ``RecordLog``.
enum RecordSorter {
  static let chunk = 65_536

  /// Sorts the `count` records of `file` stably by id; returns the file holding the result and
  /// the other one (to be let go of).
  static func sort(_ file: SpillFile, count: Int, budget: SpillBudget, purpose: String) throws
    -> (SpillFile, SpillFile?)
  {
    let a = try file.map()
    guard let pa = a.baseAddress?.assumingMemoryBound(to: Int64.self) else { return (file, nil) }
    // 1. Each chunk sorted in memory, ties by position.
    var scratch: [(Int64, Int64, Int)] = []
    scratch.reserveCapacity(min(chunk, count))
    var start = 0
    while start < count {
      let end = min(count, start + chunk)
      scratch.removeAll(keepingCapacity: true)
      for i in start..<end {
        scratch.append((Int64(littleEndian: pa[2 * i]), pa[2 * i + 1], i))
      }
      scratch.sort { ($0.0, $0.2) < ($1.0, $1.2) }
      for (k, r) in scratch.enumerated() {
        pa[2 * (start + k)] = r.0.littleEndian
        pa[2 * (start + k) + 1] = r.1
      }
      start = end
      // Sequential passes hand their pages back every 64 MiB, as lookups do.
      if start % (64 * chunk) == 0 { file.dropResidentPages() }
    }
    // 2. Runs: chunks already in order with their neighbours count as one.
    var runs = [0]
    start = chunk
    while start < count {
      if Int64(littleEndian: pa[2 * start - 2]) > Int64(littleEndian: pa[2 * start]) {
        runs.append(start)
      }
      start += chunk
    }
    runs.append(count)
    if runs.count <= 2 { return (file, nil) }
    // 3. Pairs of runs merged from one file into the other until one run is left.
    let other = try SpillFile(budget, purpose: purpose + " (sorting)")
    try other.reserve(Int64(count) * 16)
    let b = try other.map()
    let pb = b.baseAddress!.assumingMemoryBound(to: Int64.self)
    var src = pa
    var dst = pb
    var inOther = false
    while runs.count > 2 {
      var next = [0]
      var r = 0
      while r + 1 < runs.count {
        let lo = runs[r]
        let mid = runs[r + 1]
        let hi = r + 2 < runs.count ? runs[r + 2] : mid
        merge(src, dst, lo, mid, hi) {
          file.dropResidentPages()
          other.dropResidentPages()
        }
        next.append(hi)
        r += 2
        if r % 64 == 0 {
          file.dropResidentPages()
          other.dropResidentPages()
        }
      }
      runs = next
      swap(&src, &dst)
      inOther.toggle()
    }
    file.dropResidentPages()
    other.dropResidentPages()
    return inOther ? (other, file) : (file, other)
  }

  /// Merges src[lo..<mid] and src[mid..<hi] into dst[lo..<hi]; ties from the left run first.
  private static func merge(
    _ src: UnsafeMutablePointer<Int64>, _ dst: UnsafeMutablePointer<Int64>, _ lo: Int,
    _ mid: Int, _ hi: Int, drop: () -> Void
  ) {
    var i = lo
    var j = mid
    var k = lo
    while i < mid && j < hi {
      // Every 4 Mi records (64 MiB of each file), the pages go back to the page cache.
      if k & 0x3F_FFFF == 0 && k > lo { drop() }
      if Int64(littleEndian: src[2 * j]) < Int64(littleEndian: src[2 * i]) {
        dst[2 * k] = src[2 * j]
        dst[2 * k + 1] = src[2 * j + 1]
        j += 1
      } else {
        dst[2 * k] = src[2 * i]
        dst[2 * k + 1] = src[2 * i + 1]
        i += 1
      }
      k += 1
    }
    while i < mid {
      dst[2 * k] = src[2 * i]
      dst[2 * k + 1] = src[2 * i + 1]
      i += 1
      k += 1
    }
    while j < hi {
      dst[2 * k] = src[2 * j]
      dst[2 * k + 1] = src[2 * j + 1]
      j += 1
      k += 1
    }
  }

  /// Of each run of equal ids in sorted records keeps the last; returns the count left.
  static func keepLast(_ records: UnsafeMutableRawBufferPointer, count: Int) -> Int {
    guard let p = records.baseAddress?.assumingMemoryBound(to: Int64.self), count > 0 else {
      return 0
    }
    var out = 0
    for i in 0..<count {
      let id = p[2 * i]
      if i + 1 < count && p[2 * (i + 1)] == id { continue }
      p[2 * out] = id
      p[2 * out + 1] = p[2 * i + 1]
      out += 1
    }
    return out
  }
}
