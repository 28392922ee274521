import PlaceCore

/// A place record with its strings still as ids: what the query path decodes per candidate.
package struct PlaceEntry: Sendable {
  /// 0 node, 1 way, 2 relation.
  package var osmKind: UInt8
  /// The OSM id.
  package var osmID: Int64
  /// Latitude in 1e-7 degrees.
  package var latitudeE7: Int32
  /// Longitude in 1e-7 degrees.
  package var longitudeE7: Int32
  /// Higher is more important.
  package var importance: UInt16
  /// Type list id.
  package var typeList: Int
  /// Words in the primary text.
  package var nameWordCount: Int
  /// The primary text.
  package var primaryText: TextRef
  /// The secondary parts.
  package var secondaryParts: [TextRef]
  /// String id of the country code, or nil.
  package var countryCode: Int?
  /// (language sid, name sid) pairs.
  package var names: [(language: Int, name: Int)]
  /// (kind, long sid, short sid or nil).
  package var components: [(kind: AddressComponentKind, long: Int, short: Int?)]
}

/// The part of a place record used to rank and filter it: numbers, no strings. (Which words
/// it carries, the postings tell.)
package struct PlaceMatch: Sendable {
  /// Latitude in 1e-7 degrees.
  package var latitudeE7: Int32 = 0
  /// Longitude in 1e-7 degrees.
  package var longitudeE7: Int32 = 0
  /// Higher is more important.
  package var importance: UInt16 = 0
  /// Type list id.
  package var typeList = 0
  /// Words in the primary text.
  package var nameWordCount = 0
  /// String id of the country code, or nil.
  package var countryCode: Int?
  /// Whether the record lists alternative names.
  var hasNames = false

  /// An empty match.
  package init() {}
}

/// Reads place records by rank.
package struct PlaceTable: @unchecked Sendable {
  let records: RecordTable
  /// The shared address contexts the records point into.
  package let contexts: ContextTable
  /// The places' importance (IMPORTANCE), which the records do not repeat.
  package let importance: ImportanceTable
  /// The places' OSM elements (PLACE IDS), which the records do not repeat either.
  package let ids: PlaceIDTable
  /// Number of places.
  package var count: Int { records.count }
  let stringCount: Int
  let typeListCount: Int

  /// Reads the section header; the counts bound the ids inside records.
  package init(
    _ bytes: UnsafeRawBufferPointer, fileOffset: Int, contexts: ContextTable,
    importance: (bytes: UnsafeRawBufferPointer, fileOffset: Int),
    ids: (bytes: UnsafeRawBufferPointer, fileOffset: Int), stringCount: Int, typeListCount: Int
  ) throws(IndexFormatError) {
    records = try RecordTable(ByteReader(bytes, section: "PLACES", fileOffset: fileOffset))
    self.contexts = contexts
    self.importance = try ImportanceTable(
      importance.bytes, fileOffset: importance.fileOffset, placeCount: records.count)
    self.ids = try PlaceIDTable(ids.bytes, fileOffset: ids.fileOffset, placeCount: records.count)
    self.stringCount = stringCount
    self.typeListCount = typeListCount
  }

  /// A reader at record `index`: its block's start, past the records before it.
  @inline(__always)
  private func record(_ index: Int) throws(IndexFormatError) -> ByteReader {
    var (r, before) = try records.blockStart(index)
    for _ in 0..<before { try skip(&r) }
    return r
  }

  /// Moves `r` past the record it is at, decoding only the fields that say which fields
  /// follow (``verify()`` checks them all).
  @inline(__always)
  private func skip(_ r: inout ByteReader) throws(IndexFormatError) {
    // Context, latitude, longitude.
    for _ in 0..<3 { try r.skipVarint() }
    let flags = try flags(&r).flags
    var written = true
    if flags & 2 == 2 { written = try r.varint() & 3 == 0 }
    if written, try r.varint() & 1 == 1 { try r.skipVarint() }
    if flags & 1 == 1 {
      for _ in 0..<(2 * (try r.varint(below: 1024))) { try r.skipVarint() }
    }
  }

  /// Reads the type list and flags varint, and the flags after it when they are escaped.
  @inline(__always)
  private func flags(_ r: inout ByteReader) throws(IndexFormatError) -> (typeList: Int, flags: Int)
  {
    let typeAndFlags = try r.varint(below: typeListCount << 5)
    let flags = typeAndFlags & 31 < 31 ? typeAndFlags & 31 : try r.varint(below: 1 << 18)
    return (typeAndFlags >> 5, flags)
  }

  /// Reads the record's fields after the street number: the written primary text, if its
  /// shape says so, and the alternative names (into `names`). Returns the shape and the
  /// written text.
  private func tail(
    _ r: inout ByteReader, hasNames: Bool, number: Int?, names: inout [(Int, Int)]
  ) throws(IndexFormatError) -> (PrimaryShape, TextRef?) {
    let at = r.offset
    guard let shape = PrimaryShape(rawValue: (number ?? 0) & 3) else {
      throw r.fault("primary text shape 3 is not 0, 1 or 2", at: at)
    }
    let written = shape == .written ? try r.textRef(stringCount: stringCount) : nil
    let n = hasNames ? try r.varint(below: 1024) : 0
    for _ in 0..<n {
      let pair = (try r.varint(below: stringCount), try r.varint(below: stringCount))
      names.append(pair)
    }
    return (shape, written)
  }

  /// Decodes the part of record `index` that ranking and filters need (no strings);
  /// `contexts` (the view of ``decodeAll()``) spares the walk through the CONTEXTS items and
  /// the search of IMPORTANCE.
  package func match(
    _ index: Int, into m: inout PlaceMatch, contexts: DecodedContexts.View? = nil
  )
    throws(IndexFormatError)
  {
    var r = try record(index)
    _ = try head(&r, index, into: &m, decoded: contexts)
  }

  /// Decodes the numbers of record `index`, which `r` is at, and its context's; moves `r` to
  /// the primary text and returns the context id and the street number's varint
  /// ((sid << 2) | shape).
  @inline(__always)
  private func head(
    _ r: inout ByteReader, _ index: Int, into m: inout PlaceMatch,
    decoded: DecodedContexts.View? = nil
  ) throws(IndexFormatError) -> (context: Int, number: Int?) {
    let context = try r.varint(below: contexts.count)
    let refLat: Int64
    let refLon: Int64
    if let d = decoded, context < d.count {
      (refLat, refLon) = d.load(context, into: &m)
    } else {
      (refLat, refLon) = try contexts.match(context, into: &m)
    }
    let at = r.offset
    // Hostile deltas must not overflow: the sums are checked before the range.
    let (lat, latOverflow) = refLat.addingReportingOverflow(try r.zigzag())
    let (lon, lonOverflow) = refLon.addingReportingOverflow(try r.zigzag())
    guard !latOverflow, !lonOverflow, lat.magnitude <= 900_000_000, lon.magnitude <= 1_800_000_000
    else {
      throw r.fault("coordinate (\(lat), \(lon)) out of range", at: at)
    }
    m.latitudeE7 = Int32(lat)
    m.longitudeE7 = Int32(lon)
    if let d = decoded, index < d.importance.count {
      m.importance = d.importance[index]
    } else {
      m.importance = try importance.importance(of: index)
    }
    let (typeList, flags) = try self.flags(&r)
    m.typeList = typeList
    m.nameWordCount = flags >> 2
    m.hasNames = flags & 1 == 1
    let number = flags & 2 == 2 ? try r.varint(below: stringCount << 2) : nil
    return (context, number)
  }

  /// The importance of place `index`: from `decoded` when given, else from IMPORTANCE.
  @inline(__always)
  package func importance(of index: Int, decoded: DecodedContexts.View? = nil)
    throws(IndexFormatError) -> UInt16
  {
    if let d = decoded, index >= 0, index < d.importance.count { return d.importance[index] }
    return try importance.importance(of: index)
  }

  /// Decodes record `index` whole.
  package func entry(_ index: Int) throws(IndexFormatError) -> PlaceEntry {
    var r = try record(index)
    return try entry(&r, index)
  }

  /// Decodes record `index`, which `r` is at, whole, moving `r` past it.
  private func entry(_ r: inout ByteReader, _ index: Int) throws(IndexFormatError) -> PlaceEntry {
    var m = PlaceMatch()
    let (context, numberField) = try head(&r, index, into: &m)
    let at = r.offset
    let number = numberField.map { $0 >> 2 }
    var names: [(Int, Int)] = []
    let (shape, written) = try tail(
      &r, hasNames: m.hasNames, number: numberField, names: &names)
    var (secondary, components) = try contexts.details(context)
    let primary: TextRef
    if let written {
      primary = written
    } else {
      // The street and the number, in the order the shape says.
      guard let number, let street = components.first(where: { $0.kind == .route })?.long else {
        throw r.fault("the primary text is its street and number, but it has no street", at: at)
      }
      primary = shape == .streetNumber ? TextRef(street, number) : TextRef(number, street)
    }
    if let number { components.insert((.streetNumber, number, nil), at: 0) }
    let element = try ids.element(index)
    return PlaceEntry(
      osmKind: element.kind, osmID: element.id, latitudeE7: m.latitudeE7,
      longitudeE7: m.longitudeE7,
      importance: m.importance, typeList: m.typeList, nameWordCount: m.nameWordCount,
      primaryText: primary, secondaryParts: secondary, countryCode: m.countryCode,
      names: names, components: components)
  }

  /// Every context's matching data and every place's importance, decoded once, for
  /// ``match(_:into:contexts:)`` to read instead of walking items.
  package func decodeAll() throws(IndexFormatError) -> DecodedContexts {
    try contexts.decodeAll(importance: importance.decodeAll())
  }

  /// Decodes every record, in order: each must end where the next begins.
  package func verify() throws(IndexFormatError) {
    try importance.verify()
    try records.forEach { (i, r) throws(IndexFormatError) in _ = try entry(&r, i) }
  }
}

/// How a record with a street number gives its primary text: written out, or as its street
/// (the first route component) and number, which the index holds anyway.
enum PrimaryShape: Int {
  /// A text reference follows.
  case written = 0
  /// "Kanalstrasse 18": the street, a space, the number.
  case streetNumber = 1
  /// "124 South Memorial Drive": the number, a space, the street.
  case numberStreet = 2

  /// The shape of `p`'s primary text, given the number its record stores.
  static func of(_ p: PlaceRecord, number: String?) -> PrimaryShape {
    guard let number, let street = p.components.first(where: { $0.kind == .route })?.longText
    else { return .written }
    if p.primaryText == street + " " + number { return .streetNumber }
    if p.primaryText == number + " " + street { return .numberStreet }
    return .written
  }
}

/// Writes the PLACES and CONTEXTS sections.
package enum PlaceTableWriter {
  /// The two sections' bytes for `places` (in rank order), with strings and tokens already
  /// registered, and each record's name word count (for NAME WORDS).
  package static func serialize<Places: RandomAccessCollection<PlaceRecord>>(
    _ places: Places, strings: StringTableBuilder
  ) -> (places: [UInt8], contexts: [UInt8], nameWords: [Int]) where Places.Index == Int {
    func ref(_ text: String, _ splitter: TextSplitter) -> TextRef {
      let (head, tail) = splitter.split(text)
      return TextRef(strings.id(head), tail.map(strings.id))
    }
    let contexts = ContextTableWriter(places, strings: strings)
    var records = RecordTableWriter()
    var nameWords: [Int] = []
    nameWords.reserveCapacity(places.count)
    for (i, p) in places.enumerated() {
      nameWords.append(p.nameWordCount)
      let context = Int(contexts.placeContext[i])
      let (refLat, refLon) = contexts.reference[context]
      let (number, _) = hoistedNumber(p)
      let shape = PrimaryShape.of(p, number: number)
      let splitter = TextSplitter(parts: Set(p.components.map(\.longText)))
      var w = ByteWriter()
      w.varint(context)
      w.zigzag(Int64(p.latitudeE7) - Int64(refLat))
      w.zigzag(Int64(p.longitudeE7) - Int64(refLon))
      let flags = p.nameWordCount << 2 | (number == nil ? 0 : 2) | (p.names.isEmpty ? 0 : 1)
      w.varint(p.typeList << 5 | min(flags, 31))
      if flags >= 31 { w.varint(flags) }
      if let number { w.varint(strings.id(number) << 2 | shape.rawValue) }
      if shape == .written { w.textRef(ref(p.primaryText, splitter)) }
      if !p.names.isEmpty { w.varint(p.names.count) }
      for n in p.names {
        w.varint(strings.id(n.language))
        w.varint(strings.id(n.name))
      }
      records.append(w.bytes)
    }
    return (records.bytes, contexts.bytes, nameWords)
  }

  /// The street number the record stores itself (the first component, when it is one with no
  /// short form) and the components its context stores.
  static func hoistedNumber(_ p: PlaceRecord) -> (String?, ArraySlice<AddressComponent>) {
    if let first = p.components.first, first.kind == .streetNumber,
      first.shortText == first.longText
    {
      return (first.longText, p.components.dropFirst())
    }
    return (nil, p.components[...])
  }

  /// Registers every string a record references.
  package static func registerStrings(of p: PlaceRecord, in strings: inout StringTableBuilder) {
    let splitter = TextSplitter(parts: Set(p.components.map(\.longText)))
    for text in [p.primaryText] + p.secondaryParts {
      let (head, tail) = splitter.split(text)
      strings.insert(head)
      if let tail { strings.insert(tail) }
    }
    if !p.countryCode.isEmpty { strings.insert(p.countryCode) }
    for n in p.names {
      strings.insert(n.language)
      strings.insert(n.name)
    }
    for c in p.components {
      strings.insert(c.longText)
      strings.insert(c.shortText)
    }
  }
}
