/// Joins way segments into closed rings, as multipolygon and boundary relations need.
enum RingAssembler {
  /// The closed rings that can be formed from `ways` by joining them end to end. Segments that
  /// do not close (members missing from a cut extract) are dropped.
  static func rings(from ways: [[(Int32, Int32)]]) -> [[(Int32, Int32)]] {
    var open: [[(Int32, Int32)]] = []
    var rings: [[(Int32, Int32)]] = []
    for w in ways where w.count >= 2 {
      if w.count >= 4 && w.first! == w.last! { rings.append(w) } else { open.append(w) }
    }
    // Greedy joining by shared end points.
    while var current = open.popLast() {
      var extended = true
      while extended && current.first! != current.last! {
        extended = false
        for (i, w) in open.enumerated() {
          if w.first! == current.last! {
            current.append(contentsOf: w.dropFirst())
          } else if w.last! == current.last! {
            current.append(contentsOf: w.reversed().dropFirst())
          } else if w.last! == current.first! {
            current = w + current.dropFirst()
          } else if w.first! == current.first! {
            current = w.reversed() + current.dropFirst()
          } else {
            continue
          }
          open.remove(at: i)
          extended = true
          break
        }
      }
      if current.count >= 4 && current.first! == current.last! { rings.append(current) }
    }
    return rings
  }
}
