/// Way geometries (resolved node positions), kept in temporary files for assembling relations
/// later: the points in one file (8 bytes each, after a 16-byte header holding their count), the id → offset table
/// in a ``RecordLog`` (16 bytes per way).
///
/// A way id that comes again keeps its last geometry, in or out of order, with no slow path:
/// out-of-order ids are sorted once at ``freeze()``. Ways after the freeze (a way listed after
/// a relation) go to a small dictionary checked first.
final class WayStore {
  private let index: RecordLog
  private let points: SpillFile
  private var mapped: UnsafeMutableRawBufferPointer? = nil
  private var pages = PageBudget(pages: 0, limit: 1)
  private var late: [Int64: [(Int32, Int32)]] = [:]
  private var lateDuplicates = 0
  let pageLimit: Int

  init(_ budget: SpillBudget, pageLimit: Int = NodeStore.defaultPageLimit) throws {
    index = try RecordLog(budget, purpose: "way index")
    points = try SpillFile(budget, purpose: "way geometry")
    self.pageLimit = pageLimit
  }

  var count: Int { index.count + late.count }
  /// Way ids that came more than once (the later geometry is kept).
  var duplicates: Int { index.duplicates + lateDuplicates }

  func append(id: Int64, points p: [(Int32, Int32)]) throws {
    if index.isFrozen {
      if late.updateValue(p, forKey: id) != nil || index.value(of: id) != nil {
        lateDuplicates += 1
      }
      return
    }
    try index.append(id: id, value: points.size)
    try points.append(Int64(p.count), 0)
    if !p.isEmpty {
      try p.withUnsafeBytes { try points.append($0.baseAddress!, count: $0.count) }
    }
  }

  /// Ends the appends (sorting the index if needed); lookups may follow.
  func freeze() throws {
    guard !index.isFrozen else { return }
    try index.freeze(pageLimit: pageLimit)
    let m = try points.map()
    mapped = m
    pages = PageBudget(pages: (m.count + 4095) / 4096, limit: pageLimit)
  }

  var isFrozen: Bool { index.isFrozen }

  /// The points of way `id`, or nil when the extract lacks it (only after ``freeze()``).
  func points(of id: Int64) -> [(Int32, Int32)]? {
    if !late.isEmpty, let p = late[id] { return p }
    guard let offset = index.value(of: id), let m = mapped, let base = m.baseAddress else {
      return nil
    }
    let o = Int(offset)
    let n = Int(Int64(littleEndian: base.load(fromByteOffset: o, as: Int64.self)))
    var drop = false
    for page in (o / 4096)...((o + 16 + 8 * n - 1) / 4096) where pages.touch(page) { drop = true }
    if drop { points.dropResidentPages() }
    var out: [(Int32, Int32)] = []
    out.reserveCapacity(n)
    for k in 0..<n {
      let lat = Int32(littleEndian: base.load(fromByteOffset: o + 16 + 8 * k, as: Int32.self))
      let lon = Int32(littleEndian: base.load(fromByteOffset: o + 20 + 8 * k, as: Int32.self))
      out.append((lat, lon))
    }
    return out
  }
}
