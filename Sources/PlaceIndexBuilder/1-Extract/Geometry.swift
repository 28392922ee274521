/// Representative points of ways and areas.
enum Geometry {
  /// The representative point of a way: the area centroid of a closed ring, else the point
  /// halfway along the line. Coordinates in 1e-7 degrees.
  static func representativePoint(_ points: [(Int32, Int32)]) -> (Int32, Int32)? {
    guard let first = points.first else { return nil }
    if points.count == 1 { return first }
    let closed = points.count >= 4 && points.first! == points.last!
    if closed, let c = ringCentroid(points) { return c }
    // Halfway along the polyline (planar, fine at way scale).
    var lengths: [Double] = []
    var total = 0.0
    for i in 1..<points.count {
      let dy = Double(points[i].0) - Double(points[i - 1].0)
      let dx = Double(points[i].1) - Double(points[i - 1].1)
      let l = (dx * dx + dy * dy).squareRoot()
      lengths.append(l)
      total += l
    }
    if total == 0 { return first }
    var walked = 0.0
    for i in 1..<points.count {
      let l = lengths[i - 1]
      if walked + l >= total / 2 {
        let t = l == 0 ? 0 : (total / 2 - walked) / l
        let lat = Double(points[i - 1].0) + t * (Double(points[i].0) - Double(points[i - 1].0))
        let lon = Double(points[i - 1].1) + t * (Double(points[i].1) - Double(points[i - 1].1))
        return (Int32(lat.rounded()), Int32(lon.rounded()))
      }
      walked += l
    }
    return points.last
  }

  /// The area centroid of a closed ring, or nil when its area is zero.
  static func ringCentroid(_ ring: [(Int32, Int32)]) -> (Int32, Int32)? {
    // Relative to the first point to keep the products small.
    let y0 = Double(ring[0].0)
    let x0 = Double(ring[0].1)
    var area = 0.0
    var cx = 0.0
    var cy = 0.0
    for i in 0..<(ring.count - 1) {
      let xa = Double(ring[i].1) - x0
      let ya = Double(ring[i].0) - y0
      let xb = Double(ring[i + 1].1) - x0
      let yb = Double(ring[i + 1].0) - y0
      let cross = xa * yb - xb * ya
      area += cross
      cx += (xa + xb) * cross
      cy += (ya + yb) * cross
    }
    guard abs(area) > 1e-9 else { return nil }
    return (Int32((cy / (3 * area) + y0).rounded()), Int32((cx / (3 * area) + x0).rounded()))
  }
}

extension Geometry {
  /// The center of the bounding box of `points`, or nil when there are none.
  static func boundingBoxCenter(_ points: [(Int32, Int32)]) -> (Int32, Int32)? {
    guard let first = points.first else { return nil }
    var minLat = first.0
    var maxLat = first.0
    var minLon = first.1
    var maxLon = first.1
    for p in points {
      minLat = min(minLat, p.0)
      maxLat = max(maxLat, p.0)
      minLon = min(minLon, p.1)
      maxLon = max(maxLon, p.1)
    }
    return (
      Int32((Int64(minLat) + Int64(maxLat)) / 2), Int32((Int64(minLon) + Int64(maxLon)) / 2)
    )
  }
}
