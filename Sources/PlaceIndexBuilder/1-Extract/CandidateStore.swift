import OSMReader
import PlaceIndexFormat

/// The place candidates of an extract as packed records in a temporary file (``SpillFile``),
/// in the order read: 16 bytes of heap per candidate (its key and where it lies) instead of
/// the element, its tag array and a dictionary entry (about 300 bytes).
///
/// A record: kind (u8), flags (u8: 1 an area, 2 a box follows), id (i64), latitude,
/// longitude (i32), [the box: south, west, north, east (i32)], the packed tags' length
/// (varint) and bytes (``PackedTags``). An id that comes again within a kind adds a
/// later entry (a candidate, or a removal when the later element is none); ``finish(inOrder:)``
/// sorts the entries by (kind, id) when the file was out of order and keeps the last of each.
final class CandidateStore {
  private let file: SpillFile
  /// (kind, id) of each entry, and its record's offset (-1: a removal).
  private var entries: [(kind: UInt8, id: Int64, offset: Int64)] = []
  private var scratch: [UInt8] = []
  private var base: UnsafeMutableRawPointer? = nil
  private var pages = PageBudget(pages: 0, limit: 1)
  /// Pages of the mapped file kept resident at most (64 MiB).
  static let pageLimit = 16_384

  init(_ budget: SpillBudget) throws {
    file = try SpillFile(budget, purpose: "candidate")
  }

  /// Number of entries (after ``finish(inOrder:)``: of candidates).
  var count: Int { entries.count }

  /// Appends a candidate.
  func append(_ e: ExtractedElement) throws {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(e.kind.rawValue)
    scratch.append((e.isArea ? 1 : 0) | (e.box == nil ? 0 : 2))
    for k in 0..<8 {
      scratch.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: e.id) >> (8 * k)))
    }
    let lat = UInt32(bitPattern: e.latitudeE7)
    let lon = UInt32(bitPattern: e.longitudeE7)
    for k in 0..<4 { scratch.append(UInt8(truncatingIfNeeded: lat >> (8 * k))) }
    for k in 0..<4 { scratch.append(UInt8(truncatingIfNeeded: lon >> (8 * k))) }
    if let b = e.box {
      for v in [b.south, b.west, b.north, b.east] {
        let u = UInt32(bitPattern: v)
        for k in 0..<4 { scratch.append(UInt8(truncatingIfNeeded: u >> (8 * k))) }
      }
    }
    PackedTags.append(bytes: e.tags.packed, to: &scratch)
    entries.append((e.kind.rawValue, e.id, file.size))
    try scratch.withUnsafeBytes { try file.append($0.baseAddress!, count: $0.count) }
  }

  /// Notes that the element (kind, id) read now is no candidate: an earlier candidate with its
  /// id is removed.
  func remove(kind: OSMElementKind, id: Int64) {
    entries.append((kind.rawValue, id, -1))
  }

  /// Ends the appends: when the ids came out of order, sorts the entries by (kind, id) and
  /// keeps the last of each (the later element wins; a removal removes); maps the file.
  func finish(inOrder: Bool) throws {
    if !inOrder {
      // Stable: the index breaks ties, so the later entry of an id comes last.
      var order = entries.indices.map { Int32($0) }
      order.sort {
        let a = entries[Int($0)]
        let b = entries[Int($1)]
        return (a.kind, a.id, $0) < (b.kind, b.id, $1)
      }
      var kept: [(kind: UInt8, id: Int64, offset: Int64)] = []
      for (k, i) in order.enumerated() {
        let e = entries[Int(i)]
        if k + 1 < order.count {
          let n = entries[Int(order[k + 1])]
          if n.kind == e.kind && n.id == e.id { continue }
        }
        if e.offset >= 0 { kept.append(e) }
      }
      entries = kept
    } else {
      entries.removeAll { $0.offset < 0 }
    }
    let mapping = try file.map()
    base = mapping.baseAddress
    pages = PageBudget(pages: (mapping.count + 4095) / 4096, limit: CandidateStore.pageLimit)
  }

  /// Candidate `i` (after ``finish(inOrder:)``).
  func element(_ i: Int) -> ExtractedElement {
    let start = Int(entries[i].offset)
    let at = base! + start
    if pages.touch(start >> 12) { file.dropResidentPages() }
    let flags = at.load(fromByteOffset: 1, as: UInt8.self)
    var box: GeoBoxE7? = nil
    if flags & 2 != 0 {
      func i32(_ k: Int) -> Int32 {
        Int32(littleEndian: at.loadUnaligned(fromByteOffset: 18 + 4 * k, as: Int32.self))
      }
      box = GeoBoxE7(south: i32(0), west: i32(1), north: i32(2), east: i32(3))
    }
    var offset = box == nil ? 18 : 34
    var n = 0
    var shift = 0
    while true {
      let b = at.load(fromByteOffset: offset, as: UInt8.self)
      offset += 1
      n |= Int(b & 0x7F) << shift
      if b < 0x80 { break }
      shift += 7
    }
    let end = start + offset + n
    var page = (start >> 12) + 1
    while page <= (end - 1) >> 12 {
      if pages.touch(page) { file.dropResidentPages() }
      page += 1
    }
    let tags = PackedTags(packed: UnsafeRawBufferPointer(start: at + offset, count: n))
    return ExtractedElement(
      kind: OSMElementKind(rawValue: at.load(as: UInt8.self))!,
      id: Int64(littleEndian: at.loadUnaligned(fromByteOffset: 2, as: Int64.self)),
      latitudeE7: Int32(littleEndian: at.loadUnaligned(fromByteOffset: 10, as: Int32.self)),
      longitudeE7: Int32(littleEndian: at.loadUnaligned(fromByteOffset: 14, as: Int32.self)),
      tags: tags, isArea: flags & 1 != 0, box: box)
  }

  var elements: Elements { Elements(store: self) }

  /// Lets the kernel take back the mapped pages read so far (they stay in the file).
  func releasePages() {
    file.dropResidentPages()
    pages = PageBudget(pages: pages.pageCount, limit: CandidateStore.pageLimit)
  }

  /// The candidates in (kind, id) order, decoded one at a time; past the last, the mapped
  /// pages are let go (the stage after them needs the memory, not the candidates).
  struct Elements: Sequence {
    let store: CandidateStore
    func makeIterator() -> AnyIterator<ExtractedElement> {
      var i = 0
      return AnyIterator {
        guard i < store.count else {
          store.releasePages()
          return nil
        }
        defer { i += 1 }
        return store.element(i)
      }
    }
  }
}
