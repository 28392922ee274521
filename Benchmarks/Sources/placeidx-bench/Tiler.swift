import Foundation

/// The synthetic-scale generator: `factor` copies of an uncompressed OSM XML extract on a grid
/// of whole-degree shifts (2° of latitude between rows, 3° of longitude between columns;
/// positions that would put a node past ±85° latitude or ±180° longitude are skipped), with
/// fresh ids (copy × 10^10 + id, references alike), in the order OSM files keep: all nodes,
/// then all ways, then all relations.
///
/// Three of every four copies (all but copies 0, 4, 8, …) get other proper names: each word of
/// a name-like tag value (`name`, `name:*`, the alternative names, `addr:street`, `addr:place`,
/// `addr:city`) is replaced by a made-up word of the same length drawn from the word and the
/// copy, except the words common in the extract (street types, category words, "the", "de":
/// every word found in at least ``commonWordCount`` name values) and a known street-type
/// suffix ("…strasse", "…gasse"), which stay. The same word gets the same replacement across a
/// copy, so a street and the addresses on it still agree; the token dictionary grows with the
/// copies as a real region's does.
///
/// The extract is read once into a template (literal bytes between the values to rewrite);
/// each copy is then written straight from it to a stream, so a 200× tiling never has to be
/// on disk.
enum Tiler {
  enum Attribute: UInt8 {
    case id, ref, lat, lon, name
  }

  /// Longitude and latitude steps of the grid, in 1e-7 degrees.
  static let latStep: Int64 = 20_000_000
  static let lonStep: Int64 = 30_000_000
  static let idStride: Int64 = 10_000_000_000
  static let commonWordCount = 8
  static let maxLat: Int64 = 850_000_000
  static let maxLon: Int64 = 1_800_000_000

  static let nameKeys: Set<String> = [
    "name", "alt_name", "old_name", "short_name", "official_name", "loc_name", "int_name",
    "addr:street", "addr:place", "addr:city",
  ]
  static let keptSuffixes = [
    "strasse", "straße", "gasse", "weg", "platz", "allee", "ring", "steig", "brücke", "bach",
  ]

  struct Hole {
    var attribute: Attribute
    var start: Int
    var end: Int
    var value: Int64
  }

  /// One section of the extract (nodes, ways or relations) as literal bytes and holes.
  struct Section {
    var range: Range<Int>
    var holes: [Hole] = []
  }

  /// The extract parsed once: its bytes, sections, extent and common words.
  final class Template {
    let bytes: [UInt8]
    let header: Range<Int>
    let footer: Range<Int>
    var sections: [Section]
    var minLat = Int64.max
    var maxLat = Int64.min
    var minLon = Int64.max
    var maxLon = Int64.min
    var maxID: Int64 = 0
    var common: Set<[UInt8]> = []

    init(_ bytes: [UInt8]) throws {
      self.bytes = bytes
      let b = bytes
      let (header, sections, footer) = try b.withUnsafeBufferPointer { p in
        guard let end = Tiler.find(p, "</osm", from: 0) else {
          throw HarnessError("not an OSM XML file (no </osm>)")
        }
        let firstNode = Tiler.findElement(p, "node", from: 0, before: end)
        let firstWay = Tiler.findElement(p, "way", from: firstNode ?? 0, before: end)
        let firstRelation = Tiler.findElement(
          p, "relation", from: firstWay ?? firstNode ?? 0, before: end)
        let bodyStart = [firstNode, firstWay, firstRelation].compactMap { $0 }.min() ?? end
        let nodes = (firstNode ?? bodyStart)..<(firstWay ?? firstRelation ?? end)
        let ways = (firstWay ?? nodes.upperBound)..<(firstRelation ?? end)
        let relations = (firstRelation ?? end)..<end
        return (0..<bodyStart, [nodes, ways, relations], end..<p.count)
      }
      self.header = header
      self.footer = footer
      self.sections = sections.map { Section(range: $0) }
      var frequency: [[UInt8]: Int] = [:]
      b.withUnsafeBufferPointer { p in
        for s in self.sections.indices {
          var holes: [Hole] = []
          Tiler.scan(p, self.sections[s].range) { attribute, r in
            if attribute == .name {
              var seen = Set<[UInt8]>()
              Tiler.words(p, r) { w in
                let lower = Tiler.lowercased(p, w)
                if seen.insert(lower).inserted { frequency[lower, default: 0] += 1 }
              }
              holes.append(Hole(attribute: .name, start: r.lowerBound, end: r.upperBound, value: 0))
              return
            }
            guard let v = Tiler.parse(p, r, attribute) else { return }
            switch attribute {
            case .id, .ref: maxID = max(maxID, abs(v))
            case .lat:
              minLat = min(minLat, v)
              maxLat = max(maxLat, v)
            case .lon:
              minLon = min(minLon, v)
              maxLon = max(maxLon, v)
            case .name: break
            }
            holes.append(
              Hole(attribute: attribute, start: r.lowerBound, end: r.upperBound, value: v))
          }
          self.sections[s].holes = holes
        }
      }
      common = Set(frequency.filter { $0.value >= Tiler.commonWordCount }.keys)
    }
  }

  /// The (latitude, longitude) shift of each of `factor` copies, in 1e-7 degrees: grid
  /// positions in rings around the original, nearest first, within ±85° / ±180°.
  static func shifts(_ t: Template, factor: Int) throws -> [(Int64, Int64)] {
    var out: [(Int64, Int64)] = []
    var ring = 0
    while out.count < factor {
      var any = false
      for r in -ring...ring {
        for c in -ring...ring where max(abs(r), abs(c)) == ring {
          let dLat = Int64(r) * latStep
          let dLon = Int64(c) * lonStep
          guard t.minLat + dLat >= -maxLat, t.maxLat + dLat <= maxLat,
            t.minLon + dLon >= -maxLon, t.maxLon + dLon <= maxLon
          else { continue }
          any = true
          if out.count < factor { out.append((dLat, dLon)) }
        }
      }
      if !any && ring > 0 {
        throw HarnessError("only \(out.count) copies of the extract fit on the globe")
      }
      ring += 1
    }
    return out
  }

  /// Writes `factor` copies of `input` to `output`; returns the bytes written.
  @discardableResult
  static func tile(input: String, factor: Int, output: String) throws -> Int {
    // createFile replaces what is there by renaming a new file onto it: a device such as
    // /dev/stdout would become a regular file ('-' is standard output).
    if let type = try? FileManager.default.attributesOfItem(atPath: output)[.type]
      as? FileAttributeType, type != .typeRegular
    {
      throw HarnessError("\(output) is not a regular file (write to standard output with -)")
    }
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    guard let out = FileHandle(forWritingAtPath: output) else {
      throw HarnessError("cannot write \(output)")
    }
    defer { try? out.close() }
    return try tile(template: try template(input), factor: factor, to: out)
  }

  /// The template of an uncompressed extract.
  static func template(_ input: String) throws -> Template {
    guard let data = FileManager.default.contents(atPath: input) else {
      throw HarnessError("cannot read \(input)")
    }
    return try Template([UInt8](data))
  }

  /// Writes `factor` copies to `out` (a file or a pipe); returns the bytes written. With
  /// `copies`, only those copies of the `factor` (a shard of the tiling: the same ids,
  /// coordinates and names as in the whole).
  static func tile(
    template t: Template, factor: Int, copies: Range<Int>? = nil, to out: FileHandle
  ) throws -> Int {
    guard factor >= 1 else { throw HarnessError("the factor must be at least 1") }
    guard t.minLat <= t.maxLat else { throw HarnessError("the extract has no nodes") }
    let shifts = try shifts(t, factor: factor)
    var written = 0
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 22)
    func flush() throws {
      try out.write(contentsOf: buffer)
      written += buffer.count
      buffer.removeAll(keepingCapacity: true)
    }
    try t.bytes.withUnsafeBufferPointer { b in
      buffer.append(contentsOf: b[t.header])
      for section in t.sections where !section.range.isEmpty {
        for (k, shift) in shifts.enumerated() where copies?.contains(k) ?? true {
          var replacements: [[UInt8]: [UInt8]] = [:]
          var last = section.range.lowerBound
          for h in section.holes {
            buffer.append(contentsOf: b[last..<h.start])
            let v = h.value
            switch h.attribute {
            case .id, .ref:
              let offset = Int64(k) * idStride
              appendInteger(v >= 0 ? v + offset : v - offset, to: &buffer)
            case .lat: appendFixed(v + shift.0, to: &buffer)
            case .lon: appendFixed(v + shift.1, to: &buffer)
            case .name:
              if k % 4 == 0 {
                buffer.append(contentsOf: b[h.start..<h.end])
              } else {
                rename(
                  b, h.start..<h.end, copy: k, common: t.common, cache: &replacements, to: &buffer)
              }
            }
            last = h.end
            if buffer.count >= 1 << 22 { try flush() }
          }
          buffer.append(contentsOf: b[last..<section.range.upperBound])
          try flush()
        }
      }
      buffer.append(contentsOf: b[t.footer])
    }
    try flush()
    return written
  }

  /// Calls `visit` with each `id`, `ref`, `lat` and `lon` attribute value's byte range, and
  /// with the `v` value of each tag whose `k` is a name key (``nameKeys``, `name:*`).
  static func scan(
    _ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ visit: (Attribute, Range<Int>) -> Void
  ) {
    var i = range.lowerBound
    let end = range.upperBound
    var nameKey = false
    while i < end - 5 {
      let c = b[i]
      guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else {
        i += 1
        continue
      }
      let a = b[i + 1]
      var attribute: Attribute?
      var nameLength = 0
      var isKey = false
      var isValue = false
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
      } else if a == UInt8(ascii: "k") {
        isKey = true
        nameLength = 1
      } else if a == UInt8(ascii: "v") {
        isValue = true
        nameLength = 1
      }
      let eq = i + 1 + nameLength
      guard attribute != nil || isKey || isValue, eq + 1 < end, b[eq] == UInt8(ascii: "="),
        b[eq + 1] == 0x22 || b[eq + 1] == 0x27
      else {
        i += 1
        continue
      }
      let quote = b[eq + 1]
      let start = eq + 2
      var j = start
      while j < end && b[j] != quote { j += 1 }
      if isKey {
        let key = String(decoding: b[start..<j], as: UTF8.self)
        nameKey = nameKeys.contains(key) || key.hasPrefix("name:")
      } else if isValue {
        if nameKey { visit(.name, start..<j) }
        nameKey = false
      } else if let attribute {
        visit(attribute, start..<j)
      }
      i = j
    }
  }

  /// Calls `body` with each word of a value: runs of ASCII letters and non-ASCII bytes,
  /// leaving out character references (`&amp;`).
  static func words(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ body: (Range<Int>) -> Void)
  {
    var i = r.lowerBound
    while i < r.upperBound {
      if b[i] == UInt8(ascii: "&") {
        while i < r.upperBound && b[i] != UInt8(ascii: ";") { i += 1 }
        i += 1
        continue
      }
      guard isWordByte(b[i]) else {
        i += 1
        continue
      }
      var j = i
      while j < r.upperBound && isWordByte(b[j]) { j += 1 }
      body(i..<j)
      i = j
    }
  }

  static func isWordByte(_ c: UInt8) -> Bool {
    (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c >= 0x80
  }

  static func lowercased(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> [UInt8] {
    b[r].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
  }

  /// Writes the value with its uncommon words replaced for copy `copy`.
  static func rename(
    _ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, copy: Int, common: Set<[UInt8]>,
    cache: inout [[UInt8]: [UInt8]], to out: inout [UInt8]
  ) {
    var last = r.lowerBound
    words(b, r) { w in
      out.append(contentsOf: b[last..<w.lowerBound])
      last = w.upperBound
      let lower = lowercased(b, w)
      if w.count <= 2 || common.contains(lower) {
        out.append(contentsOf: b[w])
        return
      }
      if let done = cache[lower] {
        appendCased(done, like: b[w.lowerBound], to: &out)
        return
      }
      // A known street-type suffix stays ("Landstrasse" → "Kelomstrasse").
      var keep = 0
      for s in keptSuffixes {
        let suffix = Array(s.utf8)
        if lower.count > suffix.count + 2, lower.suffix(suffix.count).elementsEqual(suffix) {
          keep = suffix.count
          break
        }
      }
      let stem = lower.count - keep
      var random = SeededRandom(seed: fnv1a(lower) ^ (UInt64(copy) &* 0x9E37_79B9_7F4A_7C15))
      let consonants = Array("bcdfghklmnprstvz".utf8)
      let vowels = Array("aeiou".utf8)
      var made: [UInt8] = []
      made.reserveCapacity(lower.count)
      for k in 0..<max(3, min(stem, 12)) {
        made.append(
          k % 2 == 0 ? consonants[random.below(consonants.count)] : vowels[random.below(5)])
      }
      made.append(contentsOf: lower.suffix(keep))
      cache[lower] = made
      appendCased(made, like: b[w.lowerBound], to: &out)
    }
    out.append(contentsOf: b[last..<r.upperBound])
  }

  static func appendCased(_ word: [UInt8], like first: UInt8, to out: inout [UInt8]) {
    let upper = (first >= 0x41 && first <= 0x5A) || first >= 0x80
    if upper, let c = word.first, c >= 0x61, c <= 0x7A {
      out.append(c - 0x20)
      out.append(contentsOf: word.dropFirst())
    } else {
      out.append(contentsOf: word)
    }
  }

  static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for c in bytes {
      h ^= UInt64(c)
      h = h &* 0x100_0000_01b3
    }
    return h
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
    case .name:
      return nil
    }
  }

  static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
    if v < 0 { out.append(UInt8(ascii: "-")) }
    var m = v.magnitude
    var divisor: UInt64 = 1
    while divisor <= m / 10 { divisor *= 10 }
    repeat {
      out.append(0x30 + UInt8(m / divisor))
      m %= divisor
      divisor /= 10
    } while divisor > 0
  }

  /// Writes 1e-7 degrees as a decimal with 7 places.
  static func appendFixed(_ v: Int64, to out: inout [UInt8]) {
    if v < 0 { out.append(UInt8(ascii: "-")) }
    let m = abs(v)
    appendInteger(m / 10_000_000, to: &out)
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
