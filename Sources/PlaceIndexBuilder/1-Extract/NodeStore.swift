/// Node positions, id → (latitude, longitude) in 1e-7 degrees, kept in a temporary file
/// (``RecordLog``: 16 bytes per node on disk, a few bits per node on the heap).
///
/// Nodes are appended while reading and looked up once the first way comes (``freeze()``).
/// A node id that comes again keeps its last position; out-of-order ids are sorted at the
/// freeze. Nodes that arrive after the freeze (files that list a node after a way) go to a
/// small dictionary checked first.
final class NodeStore {
  private let log: RecordLog
  private var late: [Int64: (Int32, Int32)] = [:]
  private var lateDuplicates = 0
  /// Pages of the mapped file kept resident while ways look nodes up at random.
  let pageLimit: Int

  init(_ budget: SpillBudget, pageLimit: Int = NodeStore.defaultPageLimit) throws {
    log = try RecordLog(budget, purpose: "node location")
    self.pageLimit = pageLimit
  }

  /// 64 MiB of 4 KiB pages per mapped file: what a tiled or regional extract's ways look up
  /// at a time is far less (the nodes of one area), and pages handed back are read again from
  /// the page cache, not from disk.
  static let defaultPageLimit = 16_384

  /// Nodes stored (each id once).
  var count: Int { log.count + late.count }
  /// Node ids that came more than once (the later position is kept).
  var duplicates: Int { log.duplicates + lateDuplicates }

  static func pack(_ lat: Int32, _ lon: Int32) -> Int64 {
    Int64(bitPattern: UInt64(UInt32(bitPattern: lat)) << 32 | UInt64(UInt32(bitPattern: lon)))
  }

  func append(id: Int64, latitudeE7: Int32, longitudeE7: Int32) throws {
    if log.isFrozen {
      if late.updateValue((latitudeE7, longitudeE7), forKey: id) != nil || log.value(of: id) != nil
      {
        lateDuplicates += 1
      }
      return
    }
    try log.append(id: id, value: NodeStore.pack(latitudeE7, longitudeE7))
  }

  /// Ends the appends in order (sorting if needed); lookups may follow.
  func freeze() throws { try log.freeze(pageLimit: pageLimit) }

  /// The position of node `id` in 1e-7 degrees, or nil when the extract lacks it (only after
  /// ``freeze()``).
  func position(of id: Int64) -> (Int32, Int32)? {
    if !late.isEmpty, let p = late[id] { return p }
    guard let v = log.value(of: id) else { return nil }
    let u = UInt64(bitPattern: v)
    return (
      Int32(bitPattern: UInt32(truncatingIfNeeded: u >> 32)),
      Int32(bitPattern: UInt32(truncatingIfNeeded: u))
    )
  }
}
