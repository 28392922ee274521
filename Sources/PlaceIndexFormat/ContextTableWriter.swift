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
  private(set) var placeContext: [Int] = []
  /// Reference point of each context id.
  private(set) var reference: [(latitude: Int32, longitude: Int32)] = []
  /// The section bytes.
  private(set) var bytes: [UInt8] = []

  /// The component kinds that belong to a street, not to an area.
  static let streetKinds: Set<AddressComponentKind> = [.streetNumber, .route, .subpremise]

  /// Groups `places` (in rank order); their strings are registered in `strings`.
  init<Places: RandomAccessCollection<PlaceRecord>>(_ places: Places, strings: StringTableBuilder)
  where Places.Index == Int {
    // Pass 1: each place's area key and street part.
    var parentOf: [[UInt8]: Int] = [:]
    var parentBase: [[UInt8]] = []
    var split: [(parent: Int?, street: [UInt8])] = []
    // Each place's position, for the reference points (read here, not again from `places`).
    var latitudes: [Int32] = []
    var longitudes: [Int32] = []
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
        if let id = parentOf[a.bytes] {
          parent = id
        } else {
          parent = parentBase.count
          parentOf[a.bytes] = parentBase.count
          parentBase.append(a.bytes)
        }
      }
      var s = ByteWriter()
      if parent == nil {
        s.varint(cc)
        Self.append(parts: refs[...], components: components, to: &s, strings: strings)
      } else {
        s.varint(0)
        Self.append(parts: streetParts, components: streetComponents, to: &s, strings: strings)
      }
      split.append((parent, s.bytes))
    }
    // Pass 2: group by parent and street part.
    var childOf: [[UInt8]: Int] = [:]
    var children: [(parent: Int?, first: Int)] = []
    var placeChild: [Int] = []
    for i in places.indices {
      let parent = split[i].parent
      var k = ByteWriter()
      k.varint(parent.map { $0 + 1 } ?? 0)
      k.append(split[i].street)
      if let c = childOf[k.bytes] {
        placeChild.append(c)
      } else {
        childOf[k.bytes] = children.count
        placeChild.append(children.count)
        children.append((parent, i))
      }
    }
    // Each context's places, by rank.
    var members = [[Int]](repeating: [], count: children.count)
    for (i, c) in placeChild.enumerated() { members[c].append(i) }
    // The most used contexts get the smallest ids (1-byte varints in the records); parents
    // follow the contexts that records point to.
    let order = children.indices.sorted {
      members[$0].count != members[$1].count ? members[$0].count > members[$1].count : $0 < $1
    }
    var newID = [Int](repeating: 0, count: children.count)
    for (id, c) in order.enumerated() { newID[c] = id }
    // The reference point: the median latitude and the median longitude of the context's
    // places, which make the records' differences from it smallest.
    func median(_ values: [Int32]) -> Int32 { values.sorted()[(values.count - 1) / 2] }
    var table = ItemTableWriter()
    for k in order {
      let c = children[k]
      let point = (
        median(members[k].map { latitudes[$0] }),
        median(members[k].map { longitudes[$0] })
      )
      var w = ByteWriter()
      w.varint(c.parent.map { children.count + $0 + 1 } ?? 0)
      w.zigzag(Int64(point.0))
      w.zigzag(Int64(point.1))
      w.append(split[c.first].street)
      table.append(w.bytes)
      reference.append(point)
    }
    for base in parentBase {
      var w = ByteWriter()
      w.varint(0)
      w.zigzag(0)
      w.zigzag(0)
      w.append(base)
      table.append(w.bytes)
    }
    placeContext = placeChild.map { newID[$0] }
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
