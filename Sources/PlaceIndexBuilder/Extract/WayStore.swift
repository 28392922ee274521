/// Way geometries (resolved node positions) in flat arrays, for assembling relations later.
final class WayStore {
  private var ids: [Int64] = []
  private var starts: [Int] = [0]
  private var lats: [Int32] = []
  private var lons: [Int32] = []
  private var sorted = true

  var count: Int { ids.count }

  func append(id: Int64, points: [(Int32, Int32)]) {
    if let last = ids.last, id <= last { sorted = false }
    ids.append(id)
    for p in points {
      lats.append(p.0)
      lons.append(p.1)
    }
    starts.append(lats.count)
  }

  /// Lets go of every geometry (the store is empty after).
  func release() {
    ids = []
    starts = [0]
    lats = []
    lons = []
    sorted = true
  }

  /// The points of way `id`, or nil when the extract lacks it.
  func points(of id: Int64) -> [(Int32, Int32)]? {
    let index: Int?
    if sorted {
      var lo = 0
      var hi = ids.count
      while lo < hi {
        let mid = (lo + hi) >> 1
        if ids[mid] < id { lo = mid + 1 } else { hi = mid }
      }
      index = lo < ids.count && ids[lo] == id ? lo : nil
    } else {
      index = ids.firstIndex(of: id)
    }
    guard let i = index else { return nil }
    return (starts[i]..<starts[i + 1]).map { (lats[$0], lons[$0]) }
  }
}
