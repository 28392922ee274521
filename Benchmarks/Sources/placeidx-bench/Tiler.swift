import Foundation

/// The synthetic-scale generator: `factor` copies of an uncompressed OSM XML extract, laid side
/// by side on a grid (coordinates shifted by the extract's own extent plus a 10% gap) with fresh
/// ids (each copy's ids and references offset by a multiple of the largest id), in the order
/// OSM files keep: all nodes, then all ways, then all relations. Names, tags and structure are
/// the extract's own, so every copy builds into the same places at another position.
///
/// The text is rewritten attribute by attribute (`id`, `ref`, `lat`, `lon` values, either
/// quote style); everything else is copied byte for byte. Coordinates are shifted in fixed
/// point (1e-7 degrees), so a copy's positions are exact.
enum Tiler {
  enum Attribute {
    case id, ref, lat, lon
  }

  struct Extent {
    var maxID: Int64 = 0
    var minLat = Int64.max
    var maxLat = Int64.min
    var minLon = Int64.max
    var maxLon = Int64.min
  }

  /// Writes `factor` copies of `input` to `output`; returns the bytes written.
  @discardableResult
  static func tile(input: String, factor: Int, output: String) throws -> Int {
    guard factor >= 1 else { throw HarnessError("the factor must be at least 1") }
    guard let data = FileManager.default.contents(atPath: input) else {
      throw HarnessError("cannot read \(input)")
    }
    let bytes = [UInt8](data)
    return try bytes.withUnsafeBufferPointer { b in
      try tile(b, factor: factor, output: output)
    }
  }

  private static func tile(_ b: UnsafeBufferPointer<UInt8>, factor: Int, output: String) throws
    -> Int
  {
    guard let end = find(b, "</osm", from: 0) else {
      throw HarnessError("not an OSM XML file (no </osm>)")
    }
    let firstNode = findElement(b, "node", from: 0, before: end)
    let firstWay = findElement(b, "way", from: firstNode ?? 0, before: end)
    let firstRelation = findElement(b, "relation", from: firstWay ?? firstNode ?? 0, before: end)
    let bodyStart = [firstNode, firstWay, firstRelation].compactMap { $0 }.min() ?? end
    let nodes = (firstNode ?? bodyStart)..<(firstWay ?? firstRelation ?? end)
    let ways = (firstWay ?? nodes.upperBound)..<(firstRelation ?? end)
    let relations = (firstRelation ?? end)..<end

    var extent = Extent()
    scan(b, bodyStart..<end) { attribute, value in
      guard let v = parse(b, value, attribute) else { return }
      switch attribute {
      case .id, .ref: extent.maxID = max(extent.maxID, abs(v))
      case .lat:
        extent.minLat = min(extent.minLat, v)
        extent.maxLat = max(extent.maxLat, v)
      case .lon:
        extent.minLon = min(extent.minLon, v)
        extent.maxLon = max(extent.maxLon, v)
      }
    }
    guard extent.minLat <= extent.maxLat else { throw HarnessError("the extract has no nodes") }
    let stride = extent.maxID + 1
    let height = max(10_000, (extent.maxLat - extent.minLat) * 11 / 10)
    let width = max(10_000, (extent.maxLon - extent.minLon) * 11 / 10)
    let columns = Int((Double(factor).squareRoot()).rounded(.up))
    // Rows go towards the equator, so the copies stay far from the poles.
    let rowSign: Int64 = extent.minLat > 0 ? -1 : 1

    _ = FileManager.default.createFile(atPath: output, contents: nil)
    guard let out = FileHandle(forWritingAtPath: output) else {
      throw HarnessError("cannot write \(output)")
    }
    defer { try? out.close() }
    var written = 0
    func write(_ chunk: [UInt8]) throws {
      try out.write(contentsOf: chunk)
      written += chunk.count
    }
    try write(Array(b[0..<bodyStart]))
    for section in [nodes, ways, relations] where !section.isEmpty {
      for k in 0..<factor {
        let row = Int64(k / columns)
        let column = Int64(k % columns)
        try write(
          transform(
            b, section, idOffset: Int64(k) * stride, dLat: rowSign * row * height,
            dLon: column * width))
      }
    }
    try write(Array(b[end..<b.count]))
    return written
  }

  /// The section's bytes with every id and ref offset and every coordinate shifted.
  static func transform(
    _ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, idOffset: Int64, dLat: Int64, dLon: Int64
  ) -> [UInt8] {
    if idOffset == 0 && dLat == 0 && dLon == 0 { return Array(b[range]) }
    var out: [UInt8] = []
    out.reserveCapacity(range.count + range.count / 8)
    var last = range.lowerBound
    scan(b, range) { attribute, value in
      guard let v = parse(b, value, attribute) else { return }
      out.append(contentsOf: b[last..<value.lowerBound])
      switch attribute {
      case .id, .ref: appendInteger(v >= 0 ? v + idOffset : v - idOffset, to: &out)
      case .lat: appendFixed(v + dLat, to: &out)
      case .lon: appendFixed(v + dLon, to: &out)
      }
      last = value.upperBound
    }
    out.append(contentsOf: b[last..<range.upperBound])
    return out
  }

  /// Calls `visit` with each `id`, `ref`, `lat` and `lon` attribute value's byte range.
  static func scan(
    _ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ visit: (Attribute, Range<Int>) -> Void
  ) {
    var i = range.lowerBound
    let end = range.upperBound
    while i < end - 5 {
      let c = b[i]
      guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else {
        i += 1
        continue
      }
      let a = b[i + 1]
      var attribute: Attribute?
      var nameLength = 0
      if a == UInt8(ascii: "i"), b[i + 2] == UInt8(ascii: "d") {
        attribute = .id
        nameLength = 2
      } else if a == UInt8(ascii: "r"), b[i + 2] == UInt8(ascii: "e"), b[i + 3] == UInt8(ascii: "f")
      {
        attribute = .ref
        nameLength = 3
      } else if a == UInt8(ascii: "l"), b[i + 2] == UInt8(ascii: "a"), b[i + 3] == UInt8(ascii: "t")
      {
        attribute = .lat
        nameLength = 3
      } else if a == UInt8(ascii: "l"), b[i + 2] == UInt8(ascii: "o"), b[i + 3] == UInt8(ascii: "n")
      {
        attribute = .lon
        nameLength = 3
      }
      let eq = i + 1 + nameLength
      guard let attribute, eq + 1 < end, b[eq] == UInt8(ascii: "="),
        b[eq + 1] == 0x22 || b[eq + 1] == 0x27
      else {
        i += 1
        continue
      }
      let quote = b[eq + 1]
      let start = eq + 2
      var j = start
      while j < end && b[j] != quote { j += 1 }
      visit(attribute, start..<j)
      i = j
    }
  }

  /// An id as an integer, a coordinate in 1e-7 degrees; nil when the text is not a number.
  static func parse(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ a: Attribute) -> Int64? {
    var i = r.lowerBound
    guard i < r.upperBound else { return nil }
    var negative = false
    if b[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var whole: Int64 = 0
    var digits = 0
    while i < r.upperBound, b[i] >= 0x30, b[i] <= 0x39, digits < 18 {
      whole = whole * 10 + Int64(b[i] - 0x30)
      digits += 1
      i += 1
    }
    guard digits > 0 else { return nil }
    switch a {
    case .id, .ref:
      return i == r.upperBound ? (negative ? -whole : whole) : nil
    case .lat, .lon:
      var fraction: Int64 = 0
      var places = 0
      if i < r.upperBound, b[i] == UInt8(ascii: ".") {
        i += 1
        while i < r.upperBound, b[i] >= 0x30, b[i] <= 0x39 {
          if places < 7 {
            fraction = fraction * 10 + Int64(b[i] - 0x30)
            places += 1
          }
          i += 1
        }
      }
      guard i == r.upperBound else { return nil }
      while places < 7 {
        fraction *= 10
        places += 1
      }
      let v = whole * 10_000_000 + fraction
      return negative ? -v : v
    }
  }

  static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
    out.append(contentsOf: Array(String(v).utf8))
  }

  /// Writes 1e-7 degrees as a decimal with 7 places.
  static func appendFixed(_ v: Int64, to out: inout [UInt8]) {
    if v < 0 { out.append(UInt8(ascii: "-")) }
    let m = abs(v)
    out.append(contentsOf: Array(String(m / 10_000_000).utf8))
    out.append(UInt8(ascii: "."))
    var f = m % 10_000_000
    var digits = [UInt8](repeating: 0x30, count: 7)
    for k in stride(from: 6, through: 0, by: -1) {
      digits[k] = 0x30 + UInt8(f % 10)
      f /= 10
    }
    out.append(contentsOf: digits)
  }

  /// The offset of `pattern` at or after `from`.
  static func find(_ b: UnsafeBufferPointer<UInt8>, _ pattern: String, from: Int) -> Int? {
    let p = Array(pattern.utf8)
    guard let first = p.first, b.count >= p.count else { return nil }
    var i = from
    while i <= b.count - p.count {
      if b[i] == first {
        var k = 1
        while k < p.count && b[i + k] == p[k] { k += 1 }
        if k == p.count { return i }
      }
      i += 1
    }
    return nil
  }

  /// The offset of the first `<name` start tag (followed by a space, `>` or `/`) before `limit`.
  static func findElement(
    _ b: UnsafeBufferPointer<UInt8>, _ name: String, from: Int, before limit: Int
  ) -> Int? {
    var i = from
    while let at = find(b, "<" + name, from: i), at < limit {
      let next = at + 1 + name.utf8.count
      if next < b.count {
        let c = b[next]
        if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">")
          || c == UInt8(ascii: "/")
        {
          return at
        }
      }
      i = at + 1
    }
    return nil
  }
}
