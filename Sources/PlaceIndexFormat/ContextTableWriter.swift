import PlaceCore

/// Groups places into the shared contexts of the CONTEXTS section and writes it.
///
/// A place's context splits into an area part (country, the secondary parts after the last one
/// that names its street, and the admin components) and a street part (the rest). Places with
/// the same area part share a parent context holding it; places with the same street part and
/// parent share a context holding the rest and a reference point (the median of their
/// positions).
struct ContextTableWriter {
  /// The context id of each place.
  private(set) var placeContext: [Int32] = []
  /// Reference point of each context id.
  private(set) var reference: [(latitude: Int32, longitude: Int32)] = []
  /// The section bytes.
  private(set) var bytes: [UInt8] = []

  /// The component kinds that belong to a street, not to an area.
  static let streetKinds: Set<AddressComponentKind> = [.streetNumber, .route, .subpremise]

  /// Groups `places` (in rank order); their strings are registered in `strings`. Keeps a few
  /// bytes per place (its context, its position) and each distinct context's bytes once.
  init<Places: RandomAccessCollection<PlaceRecord>>(_ places: Places, strings: StringTableBuilder)
  where Places.Index == Int {
    // One pass: each place's area part (its parent) and street part; places with the same
    // parent and street part share a child, numbered in the order first seen.
    var parents = ByteInterner()
    // A child's key: varint(parent + 1, or 0), then its street part.
    var children = ByteInterner()
    var childParent: [Int32] = []
    var placeChild: [Int32] = []
    var latitudes: [Int32] = []
    var longitudes: [Int32] = []
    placeChild.reserveCapacity(places.count)
    latitudes.reserveCapacity(places.count)
    longitudes.reserveCapacity(places.count)
    for p in places {
      latitudes.append(p.latitudeE7)
      longitudes.append(p.longitudeE7)
      let (_, components) = PlaceTableWriter.hoistedNumber(p)
      let splitter = TextSplitter(parts: Set(p.components.map(\.longText)))
      let refs = p.secondaryParts.map { text -> TextRef in
        let (head, tail) = splitter.split(text)
        return TextRef(strings.id(head), tail.map(strings.id))
      }
      let streetIDs = Set(
        components.filter { Self.streetKinds.contains($0.kind) }.map { strings.id($0.longText) })
      // Street components must come first and the secondary parts that name the street
      // before the others, so that child + parent gives the original order back.
      let streetComponents = components.prefix { Self.streetKinds.contains($0.kind) }
      let areaComponents = components.dropFirst(streetComponents.count)
      let lastStreetPart = refs.lastIndex {
        streetIDs.contains($0.first) || $0.second.map(streetIDs.contains) == true
      }
      let streetParts = refs.prefix(lastStreetPart.map { $0 + 1 } ?? 0)
      let areaParts = refs.dropFirst(streetParts.count)
      let cc = p.countryCode.isEmpty ? 0 : strings.id(p.countryCode) + 1
      let splittable = !areaComponents.contains { Self.streetKinds.contains($0.kind) }
      var parent: Int? = nil
      if splittable, cc != 0 || !areaParts.isEmpty || !areaComponents.isEmpty {
        var a = ByteWriter()
        a.varint(cc)
        Self.append(parts: areaParts, components: areaComponents, to: &a, strings: strings)
        parent = parents.insert(a.bytes)
      }
      var k = ByteWriter()
      k.varint(parent.map { $0 + 1 } ?? 0)
      if parent == nil {
        k.varint(cc)
        Self.append(parts: refs[...], components: components, to: &k, strings: strings)
      } else {
        k.varint(0)
        Self.append(parts: streetParts, components: streetComponents, to: &k, strings: strings)
      }
      let child = children.insert(k.bytes)
      if child == childParent.count { childParent.append(Int32(parent ?? -1)) }
      placeChild.append(Int32(child))
    }
    // Each child's places' positions, grouped by child (in rank order within each).
    var starts = [Int](repeating: 0, count: children.count + 1)
    for c in placeChild { starts[Int(c) + 1] += 1 }
    for c in starts.indices.dropFirst() { starts[c] += starts[c - 1] }
    var next = starts
    var groupedLat = [Int32](repeating: 0, count: placeChild.count)
    var groupedLon = [Int32](repeating: 0, count: placeChild.count)
    for (i, c) in placeChild.enumerated() {
      groupedLat[next[Int(c)]] = latitudes[i]
      groupedLon[next[Int(c)]] = longitudes[i]
      next[Int(c)] += 1
    }
    next = []
    latitudes = []
    longitudes = []
    func members(_ c: Int) -> Int { starts[c + 1] - starts[c] }
    // The most used contexts get the smallest ids (1-byte varints in the records); parents
    // follow the contexts that records point to.
    let order = (0..<children.count).sorted {
      members($0) != members($1) ? members($0) > members($1) : $0 < $1
    }
    var newID = [Int32](repeating: 0, count: children.count)
    for (id, c) in order.enumerated() { newID[c] = Int32(id) }
    // The reference point: the median latitude and the median longitude of the context's
    // places, which make the records' differences from it smallest.
    func median(_ values: inout [Int32], _ c: Int) -> Int32 {
      values[starts[c]..<starts[c + 1]].sort()
      return values[starts[c] + (members(c) - 1) / 2]
    }
    var table = ItemTableWriter()
    reference.reserveCapacity(children.count)
    for c in order {
      let point = (median(&groupedLat, c), median(&groupedLon, c))
      let parent = childParent[c]
      var w = ByteWriter()
      w.varint(parent < 0 ? 0 : children.count + Int(parent) + 1)
      w.zigzag(Int64(point.0))
      w.zigzag(Int64(point.1))
      // The key without its parent varint: the street part.
      let key = children.string(c)
      var skip = key.startIndex
      while key[skip] & 0x80 != 0 { skip += 1 }
      w.append(key[(skip + 1)...])
      table.append(w.bytes)
      reference.append(point)
    }
    for base in 0..<parents.count {
      var w = ByteWriter()
      w.varint(0)
      w.zigzag(0)
      w.zigzag(0)
      w.append(parents.string(base))
      table.append(w.bytes)
    }
    placeContext = placeChild.map { newID[Int($0)] }
    bytes = table.bytes
  }

  /// Appends n and the text refs, then n and the components.
  private static func append(
    parts: ArraySlice<TextRef>, components: ArraySlice<AddressComponent>, to w: inout ByteWriter,
    strings: StringTableBuilder
  ) {
    w.varint(parts.count)
    for r in parts { w.textRef(r) }
    w.varint(components.count)
    for x in components {
      let hasShort = x.shortText != x.longText
      w.varint(Int(x.kind.rawValue) << 1 | (hasShort ? 1 : 0))
      w.varint(strings.id(x.longText))
      if hasShort { w.varint(strings.id(x.shortText)) }
    }
  }
}
