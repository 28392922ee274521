import OSMReader

/// Node positions in three flat arrays (id, latitude, longitude), 16 bytes per node.
///
/// Extracts list nodes by ascending id, so appends keep the arrays sorted and lookups are a
/// binary search. An out-of-order id marks the store unsorted; it is sorted once on first lookup.
final class NodeStore {
  private var ids: [Int64] = []
  private var lats: [Int32] = []
  private var lons: [Int32] = []
  private var sorted = true
  /// Whether lookups have started; out-of-order nodes after that go to `late`.
  private var frozen = false
  /// Nodes that arrived out of order after lookups started (rare: unsorted files).
  private var late: [Int64: (Int32, Int32)] = [:]
  /// Ids seen twice (the later position wins after sorting).
  private(set) var duplicates = 0

  var count: Int { ids.count + late.count }

  func append(id: Int64, latitudeE7: Int32, longitudeE7: Int32) {
    if frozen, let last = ids.last, id <= last {
      // Sorting again on every lookup would make unsorted files quadratic.
      if late.updateValue((latitudeE7, longitudeE7), forKey: id) != nil { duplicates += 1 }
      return
    }
    if let last = ids.last, id <= last {
      if id == last {
        duplicates += 1
        lats[lats.count - 1] = latitudeE7
        lons[lons.count - 1] = longitudeE7
        return
      }
      sorted = false
    }
    ids.append(id)
    lats.append(latitudeE7)
    lons.append(longitudeE7)
  }

  private func sortIfNeeded() {
    guard !sorted else { return }
    let order = ids.indices.sorted { ids[$0] < ids[$1] }
    ids = order.map { ids[$0] }
    lats = order.map { lats[$0] }
    lons = order.map { lons[$0] }
    sorted = true
  }

  /// Lets go of every position (the store is empty after).
  func release() {
    ids = []
    lats = []
    lons = []
    late = [:]
    sorted = true
  }

  /// The position of node `id` in 1e-7 degrees, or nil when the extract lacks it.
  func position(of id: Int64) -> (Int32, Int32)? {
    sortIfNeeded()
    frozen = true
    if !late.isEmpty, let p = late[id] { return p }
    var lo = 0
    var hi = ids.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if ids[mid] < id { lo = mid + 1 } else { hi = mid }
    }
    guard lo < ids.count, ids[lo] == id else { return nil }
    return (lats[lo], lons[lo])
  }
}
