// The grid and curve of the GEO section: the globe as 65536 × 65536 cells,
//   x = floor((longitude + 180) / 360 · 65536), y = floor((latitude + 90) / 180 · 65536),
// clamped to 0...65535 (cells of about 610 × 305 m at the equator), numbered along a Hilbert
// curve of order 16. Every aligned square of 2^k × 2^k cells is one run of 4^k numbers, so a
// region becomes a few number ranges.

/// Cell numbers along the order-16 Hilbert curve over the globe.
package enum HilbertCurve {
  /// Cells per side.
  package static let side: Int64 = 1 << 16

  /// The cell column of longitude `e7` (1e-7 degrees).
  @inline(__always)
  package static func x(longitudeE7 e7: Int64) -> Int64 {
    min(max((e7 + 1_800_000_000) * side / 3_600_000_000, 0), side - 1)
  }

  /// The cell row of latitude `e7` (1e-7 degrees).
  @inline(__always)
  package static func y(latitudeE7 e7: Int64) -> Int64 {
    min(max((e7 + 900_000_000) * side / 1_800_000_000, 0), side - 1)
  }

  /// The curve position of the cell holding a point.
  package static func key(latitudeE7: Int64, longitudeE7: Int64) -> UInt32 {
    key(x: x(longitudeE7: longitudeE7), y: y(latitudeE7: latitudeE7))
  }

  /// The curve position of cell (`x`, `y`).
  package static func key(x: Int64, y: Int64) -> UInt32 {
    var x = x
    var y = y
    var d: Int64 = 0
    var s = side / 2
    while s > 0 {
      let rx: Int64 = (x & s) > 0 ? 1 : 0
      let ry: Int64 = (y & s) > 0 ? 1 : 0
      d += s * s * ((3 * rx) ^ ry)
      if ry == 0 {
        if rx == 1 {
          x = side - 1 - x
          y = side - 1 - y
        }
        swap(&x, &y)
      }
      s /= 2
    }
    return UInt32(d)
  }

  /// The cell at curve position `key`: the inverse of ``key(x:y:)``.
  package static func cell(of key: UInt32) -> (x: Int64, y: Int64) {
    var t = Int64(key)
    var x: Int64 = 0
    var y: Int64 = 0
    var s: Int64 = 1
    while s < side {
      let rx = 1 & (t / 2)
      let ry = 1 & (t ^ rx)
      if ry == 0 {
        if rx == 1 {
          x = s - 1 - x
          y = s - 1 - y
        }
        swap(&x, &y)
      }
      x += s * rx
      y += s * ry
      t /= 4
      s *= 2
    }
    return (x, y)
  }

  /// The box of degrees of the square of 256 × 256 cells (1.40625° of longitude by 0.703125°
  /// of latitude) whose keys start with `square` (a key's top 16 bits): every point whose
  /// key starts so lies in it (at its south and west edges or above them, below its north and
  /// east ones).
  package static func box(ofSquare square: UInt16)
    -> (south: Double, north: Double, west: Double, east: Double)
  {
    let (x, y) = cell(of: UInt32(square) << 16)
    let (x0, y0) = (Double(x & ~255), Double(y & ~255))
    let (dx, dy) = (360 / Double(side), 180 / Double(side))
    return (y0 * dy - 90, (y0 + 256) * dy - 90, x0 * dx - 180, (x0 + 256) * dx - 180)
  }

  /// Sorted, merged curve ranges (half-open) that together cover every cell of the box of
  /// columns `x0...x1` and rows `y0...y1`; squares at the box's edge are taken whole once they
  /// are at most a quarter of the box's larger side, so the count stays small.
  package static func ranges(x0: Int64, x1: Int64, y0: Int64, y1: Int64) -> [Range<UInt64>] {
    guard x0 <= x1, y0 <= y1 else { return [] }
    let extent = max(x1 - x0, y1 - y0) + 1
    var minimum: Int64 = 1
    while minimum * 4 < extent { minimum *= 2 }
    var out: [Range<UInt64>] = []
    func cover(_ nx: Int64, _ ny: Int64, _ s: Int64) {
      guard nx <= x1, ny <= y1, nx + s - 1 >= x0, ny + s - 1 >= y0 else { return }
      let inside = nx >= x0 && nx + s - 1 <= x1 && ny >= y0 && ny + s - 1 <= y1
      if inside || s <= minimum {
        let size = UInt64(s * s)
        let start = UInt64(key(x: nx, y: ny)) / size * size
        out.append(start..<(start + size))
        return
      }
      let h = s / 2
      cover(nx, ny, h)
      cover(nx + h, ny, h)
      cover(nx, ny + h, h)
      cover(nx + h, ny + h, h)
    }
    cover(0, 0, side)
    out.sort { $0.lowerBound < $1.lowerBound }
    var merged: [Range<UInt64>] = []
    for r in out {
      if let last = merged.last, last.upperBound >= r.lowerBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
      } else {
        merged.append(r)
      }
    }
    return merged
  }
}
