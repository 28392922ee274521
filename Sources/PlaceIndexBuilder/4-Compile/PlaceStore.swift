import PlaceCore
import PlaceIndexFormat

/// The assembled places as packed byte records in a temporary file (``SpillFile``), for the
/// compile stage to read back one at a time: a place costs its bytes on disk and 8 bytes of
/// offset on the heap, instead of its record, texts and terms as Swift values (about 1.3 kB).
///
/// Record layout: kind (u8), id (i64), latitude, longitude (i32), importance (u16), whether
/// a viewport is known (u8), the viewport's south, west, north, east (i32, zero when none),
/// all little-endian at fixed offsets (so that ``patch(_:osmID:)`` can rewrite them in place), then
/// varints and length-prefixed UTF-8: the primary text's word count, the primary text, the
/// secondary parts, the country code, the names (language, name), the components (kind, long,
/// short), the types, the name terms, the alternative-name terms and the context terms (each
/// list after its count).
final class PlaceStore {
  private let file: SpillFile
  private var offsets: [Int64] = []
  private var scratch: [UInt8] = []
  private var base: UnsafeMutableRawPointer? = nil
  private var pages = PageBudget(pages: 0, limit: 1)
  /// Pages of the mapped file kept resident at most (64 MiB), as the node and way files do.
  static let pageLimit = 16_384
  static let headerSize = 36

  /// Number of places.
  var count: Int { offsets.count }

  init(_ budget: SpillBudget) throws {
    file = try SpillFile(budget, purpose: "place")
  }

  /// Appends a place; only before ``finish()``.
  func append(_ p: AssembledPlace) throws {
    precondition(base == nil)
    scratch.removeAll(keepingCapacity: true)
    let r = p.record
    scratch.append(r.osmKind)
    put(UInt64(bitPattern: r.osmID), bytes: 8)
    put(UInt64(UInt32(bitPattern: r.latitudeE7)), bytes: 4)
    put(UInt64(UInt32(bitPattern: r.longitudeE7)), bytes: 4)
    put(UInt64(r.importance), bytes: 2)
    scratch.append(r.viewport == nil ? 0 : 1)
    let box = r.viewport ?? GeoBoxE7(south: 0, west: 0, north: 0, east: 0)
    for v in [box.south, box.west, box.north, box.east] {
      put(UInt64(UInt32(bitPattern: v)), bytes: 4)
    }
    varint(r.nameWordCount)
    text(r.primaryText)
    list(r.secondaryParts)
    text(r.countryCode)
    varint(r.names.count)
    for n in r.names {
      text(n.language)
      text(n.name)
    }
    varint(r.components.count)
    for c in r.components {
      scratch.append(c.kind.rawValue)
      text(c.longText)
      text(c.shortText)
    }
    list(p.types)
    list(p.terms)
    list(p.altTerms)
    list(p.contextTerms)
    offsets.append(file.size)
    try scratch.withUnsafeBytes { try file.append($0.baseAddress!, count: $0.count) }
  }

  /// Ends the appends and maps the file for reading (and for ``patch(_:osmID:)``).
  func finish() throws {
    guard base == nil else { return }
    let mapping = try file.map()
    base = mapping.baseAddress
    pages = PageBudget(pages: (mapping.count + 4095) / 4096, limit: PlaceStore.pageLimit)
  }

  /// Sets place `i`'s element id (a street that took a smaller way id of the ways it merged).
  func patch(_ i: Int, osmID: Int64) {
    let at = reader(i).at
    at.storeBytes(of: osmID.littleEndian, toByteOffset: 1, as: Int64.self)
  }

  /// Sets place `i`'s position.
  func patch(_ i: Int, latitudeE7: Int32, longitudeE7: Int32) {
    let at = reader(i).at
    at.storeBytes(of: latitudeE7.littleEndian, toByteOffset: 9, as: Int32.self)
    at.storeBytes(of: longitudeE7.littleEndian, toByteOffset: 13, as: Int32.self)
  }

  /// Sets place `i`'s viewport (a street's, around the ways it merged).
  func patch(_ i: Int, viewport box: GeoBoxE7) {
    let at = reader(i).at
    at.storeBytes(of: 1, toByteOffset: 19, as: UInt8.self)
    for (k, v) in [box.south, box.west, box.north, box.east].enumerated() {
      at.storeBytes(of: v.littleEndian, toByteOffset: 20 + 4 * k, as: Int32.self)
    }
  }

  /// The rank key of place `i`: importance, kind and id.
  func key(_ i: Int) -> (importance: UInt16, kind: UInt8, id: Int64) {
    let at = reader(i).at
    return (
      UInt16(littleEndian: at.loadUnaligned(fromByteOffset: 17, as: UInt16.self)),
      at.load(as: UInt8.self),
      Int64(littleEndian: at.loadUnaligned(fromByteOffset: 1, as: Int64.self))
    )
  }

  /// A store of the places `order` names, in that order: read one after another, as the
  /// compile's passes do, the file's pages are read once per pass instead of once per place.
  ///
  /// The records are read with `pread`, not through the mapping: taken at random, each
  /// would make resident a block of pages (or a larger page-cache folio) around it, far past
  /// the budget before it is counted.
  func reordered(_ order: [Int32]) throws -> PlaceStore {
    let copy = try PlaceStore(file.budget)
    copy.offsets.reserveCapacity(order.count)
    file.dropResidentPages()
    pages = PageBudget(pages: pages.pageCount, limit: PlaceStore.pageLimit)
    var buffer = [UInt8](repeating: 0, count: 4096)
    for i in order {
      let start = offsets[Int(i)]
      let end = Int(i) + 1 < offsets.count ? offsets[Int(i) + 1] : file.size
      let n = Int(end - start)
      if buffer.count < n { buffer = [UInt8](repeating: 0, count: n) }
      try buffer.withUnsafeMutableBytes { b in
        try file.read(into: b.baseAddress!, count: n, at: start)
        copy.offsets.append(copy.file.size)
        try copy.file.append(b.baseAddress!, count: n)
      }
    }
    try copy.finish()
    return copy
  }

  /// Place `i`'s record (type list 0).
  func record(_ i: Int) -> PlaceRecord {
    var r = reader(i)
    var record = numbers(r)
    r.offset = PlaceStore.headerSize
    record.nameWordCount = r.varint()
    record.primaryText = r.text()
    record.secondaryParts = r.list()
    record.countryCode = r.text()
    let nameCount = r.varint()
    record.names.reserveCapacity(nameCount)
    for _ in 0..<nameCount {
      let language = r.text()
      record.names.append(LocalizedName(language: language, name: r.text()))
    }
    let componentCount = r.varint()
    record.components.reserveCapacity(componentCount)
    for _ in 0..<componentCount {
      let kind = AddressComponentKind(rawValue: r.byte())!
      let long = r.text()
      record.components.append(
        AddressComponent(kind: kind, longText: long, shortText: r.text()))
    }
    touch(i, end: r.offset)
    return record
  }

  /// Place `i`'s record with its numbers only: element, position and importance.
  func numbers(_ i: Int) -> PlaceRecord { numbers(reader(i)) }

  private func numbers(_ r: Reader) -> PlaceRecord {
    var record = PlaceRecord(
      osmKind: r.at.load(as: UInt8.self),
      osmID: Int64(littleEndian: r.at.loadUnaligned(fromByteOffset: 1, as: Int64.self)),
      latitudeE7: Int32(littleEndian: r.at.loadUnaligned(fromByteOffset: 9, as: Int32.self)),
      longitudeE7: Int32(littleEndian: r.at.loadUnaligned(fromByteOffset: 13, as: Int32.self)),
      importance: UInt16(littleEndian: r.at.loadUnaligned(fromByteOffset: 17, as: UInt16.self)),
      typeList: 0, primaryText: "", secondaryParts: [], countryCode: "", names: [],
      components: [])
    if r.at.load(fromByteOffset: 19, as: UInt8.self) != 0 {
      func i32(_ k: Int) -> Int32 {
        Int32(littleEndian: r.at.loadUnaligned(fromByteOffset: 20 + 4 * k, as: Int32.self))
      }
      record.viewport = GeoBoxE7(south: i32(0), west: i32(1), north: i32(2), east: i32(3))
    }
    return record
  }

  /// A reader past place `i`'s primary text and secondary parts, at its country code.
  private func country(_ i: Int) -> Reader {
    var r = reader(i)
    r.offset = PlaceStore.headerSize
    _ = r.varint()
    r.skipText()
    r.skipList()
    return r
  }

  /// Place `i`'s country code ("" when unknown).
  func countryCode(_ i: Int) -> String {
    var r = country(i)
    return r.text()
  }

  /// Whether place `i` lists alternative names.
  func hasNames(_ i: Int) -> Bool {
    var r = country(i)
    r.skipText()
    return r.varint() > 0
  }

  /// A reader at place `i`'s types.
  private func types(at i: Int) -> Reader {
    var r = country(i)
    r.skipText()
    for _ in 0..<r.varint() {
      r.skipText()
      r.skipText()
    }
    for _ in 0..<r.varint() {
      r.offset += 1
      r.skipText()
      r.skipText()
    }
    return r
  }

  /// Place `i`'s types, primary first.
  func types(_ i: Int) -> [String] {
    var r = types(at: i)
    return r.list()
  }

  /// Place `i`'s terms: of its primary name, only of its alternative names, of its context.
  func terms(_ i: Int) -> (name: [String], alternative: [String], context: [String]) {
    var r = types(at: i)
    r.skipList()
    let name = r.list()
    let alternative = r.list()
    let context = r.list()
    touch(i, end: r.offset)
    return (name, alternative, context)
  }

  /// A reader at place `i`'s record, its first page counted against the budget.
  private func reader(_ i: Int) -> Reader {
    let start = Int(offsets[i])
    if pages.touch(start >> 12) { file.dropResidentPages() }
    return Reader(at: base! + start)
  }

  /// Counts the pages after the first that place `i`'s record spans, `end` bytes long.
  private func touch(_ i: Int, end: Int) {
    let start = Int(offsets[i])
    var page = (start >> 12) + 1
    while page <= (start + end - 1) >> 12 {
      if pages.touch(page) { file.dropResidentPages() }
      page += 1
    }
  }

  private func put(_ v: UInt64, bytes: Int) {
    for k in 0..<bytes { scratch.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
  }

  private func varint(_ value: Int) {
    var v = UInt64(value)
    while v >= 0x80 {
      scratch.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    scratch.append(UInt8(v))
  }

  private func text(_ s: String) {
    varint(s.utf8.count)
    scratch.append(contentsOf: s.utf8)
  }

  private func list(_ texts: [String]) {
    varint(texts.count)
    for t in texts { text(t) }
  }

  /// Reads one record of the mapped file.
  private struct Reader {
    let at: UnsafeMutableRawPointer
    var offset = 0

    init(at: UnsafeMutableRawPointer) { self.at = at }

    mutating func byte() -> UInt8 {
      defer { offset += 1 }
      return at.load(fromByteOffset: offset, as: UInt8.self)
    }

    mutating func varint() -> Int {
      var v = 0
      var shift = 0
      while true {
        let b = byte()
        v |= Int(b & 0x7F) << shift
        if b < 0x80 { return v }
        shift += 7
      }
    }

    mutating func text() -> String {
      let n = varint()
      defer { offset += n }
      return String(
        decoding: UnsafeRawBufferPointer(start: at + offset, count: n), as: UTF8.self)
    }

    mutating func skipText() { offset += varint() }

    mutating func skipList() {
      for _ in 0..<varint() { skipText() }
    }

    mutating func list() -> [String] {
      let n = varint()
      var out: [String] = []
      out.reserveCapacity(n)
      for _ in 0..<n { out.append(text()) }
      return out
    }
  }
}
