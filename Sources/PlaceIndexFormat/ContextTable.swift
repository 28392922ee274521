// CONTEXTS section layout: an item table (ItemTable.swift) whose items are address contexts,
// the part of a record that places on the same street or in the same town share. Each item
// (all varints; "sid" = string id in STRINGS, "text ref" as in TextRef.swift):
//   parent id + 1                   0 = none; else a context (with no parent itself) whose
//                                   secondary parts and components follow this one's, and
//                                   whose country applies when this one's is 0
//   zigzag latitude, zigzag longitude   reference point in 1e-7 degrees; records store their
//                                       position as the difference from it
//   sid+1 of the ISO country code   (0 = unknown, or the parent's)
//   n, then n text refs             secondary text parts, most specific first
//   n, then n address components: (kind << 1) | s, sid of the long text, and when s = 1 the
//                                   sid of the short text (s = 0: the same as the long text)
// The writer gives each place a context for its street part under a parent for its area part
// (country, admin components, the secondary parts after the street's): the places of a town
// share one parent. Contexts that records point to come first, the most used first (small
// ids); parents follow. The reference point is the median latitude and the median longitude
// of the context's places.

import PlaceCore

/// Reads the shared address contexts of places.
package struct ContextTable: @unchecked Sendable {
  let items: ItemTable<LengthPrefixed>
  let stringCount: Int
  /// Number of contexts.
  package var count: Int { items.count }

  /// Reads the section header; the counts bound the ids inside items.
  package init(
    _ bytes: UnsafeRawBufferPointer, fileOffset: Int, stringCount: Int
  ) throws(IndexFormatError) {
    items = try ItemTable(ByteReader(bytes, section: "CONTEXTS", fileOffset: fileOffset))
    self.stringCount = stringCount
  }

  /// Reads context `id` up to its country: returns its parent, reference point and country
  /// (sid+1), and the reader positioned at the secondary parts.
  @inline(__always)
  private func head(_ id: Int) throws(IndexFormatError) -> (
    ByteReader, parent: Int?, latitude: Int64, longitude: Int64, country: Int
  ) {
    var r = try items.item(id)
    let at = r.offset
    let parent = try r.varint(below: count + 1)
    guard parent != id + 1 else { throw r.fault("context \(id) is its own parent", at: at) }
    let point = (try r.zigzag(), try r.zigzag())
    let country = try r.varint(below: stringCount + 1)
    return (r, parent == 0 ? nil : parent - 1, point.0, point.1, country)
  }

  /// The parent `parent`'s reader at its secondary parts and its country; it must have no
  /// parent itself.
  private func parentHead(_ parent: Int) throws(IndexFormatError) -> (ByteReader, Int) {
    let (r, grandparent, _, _, country) = try head(parent)
    guard grandparent == nil else { throw r.fault("parent context \(parent) has a parent", at: 0) }
    return (r, country)
  }

  /// Reads context `id`'s country (or its parent's) into `m`; returns its reference point.
  func match(_ id: Int, into m: inout PlaceMatch) throws(IndexFormatError) -> (
    latitude: Int64, longitude: Int64
  ) {
    var (_, parent, latitude, longitude, country) = try head(id)
    if let parent, country == 0 {
      (_, country) = try parentHead(parent)
    }
    m.countryCode = country == 0 ? nil : country - 1
    return (latitude, longitude)
  }

  /// Reads context `id`'s secondary parts and address components, its parent's after its own.
  func details(_ id: Int) throws(IndexFormatError) -> (
    secondary: [TextRef], components: [(kind: AddressComponentKind, long: Int, short: Int?)]
  ) {
    var (r, parent, _, _, _) = try head(id)
    var secondary: [TextRef] = []
    var components: [(kind: AddressComponentKind, long: Int, short: Int?)] = []
    try readDetails(&r, into: &secondary, &components)
    if let parent {
      var (p, _) = try parentHead(parent)
      try readDetails(&p, into: &secondary, &components)
    }
    return (secondary, components)
  }

  /// Reads n text refs and n components to the end of the item.
  private func readDetails(
    _ r: inout ByteReader, into secondary: inout [TextRef],
    _ components: inout [(kind: AddressComponentKind, long: Int, short: Int?)]
  ) throws(IndexFormatError) {
    for _ in 0..<(try r.varint(below: 64)) {
      secondary.append(try r.textRef(stringCount: stringCount))
    }
    for _ in 0..<(try r.varint(below: 64)) {
      components.append(try r.component(stringCount: stringCount))
    }
    guard r.remaining == 0 else { throw r.fault("\(r.remaining) bytes after the context") }
  }

  /// Every context's matching data (reference point, country), decoded once, so that a query
  /// reads arrays instead of walking items for each candidate. `importance` (every place's,
  /// by rank) is kept beside them.
  package func decodeAll(importance: [UInt16]) throws(IndexFormatError) -> DecodedContexts {
    var latitude: [Int64] = []
    var longitude: [Int64] = []
    var country: [Int] = []
    latitude.reserveCapacity(count)
    longitude.reserveCapacity(count)
    country.reserveCapacity(count)
    var parents: [Int: Int] = [:]
    for id in 0..<count {
      var (_, parent, lat, lon, cc) = try head(id)
      latitude.append(lat)
      longitude.append(lon)
      if let parent, cc == 0 {
        if let known = parents[parent] {
          cc = known
        } else {
          (_, cc) = try parentHead(parent)
          parents[parent] = cc
        }
      }
      country.append(cc)
    }
    return DecodedContexts(
      latitude: latitude, longitude: longitude, country: country, importance: importance)
  }

  /// Decodes every context.
  package func verify() throws(IndexFormatError) {
    try items.forEach { (i, _) throws(IndexFormatError) in _ = try details(i) }
  }
}

extension ByteReader {
  /// Reads one address component: (kind << 1) | s, sid long text, [sid short text].
  mutating func component(stringCount: Int) throws(IndexFormatError) -> (
    kind: AddressComponentKind, long: Int, short: Int?
  ) {
    let at = offset
    let head = try varint()
    guard let k = AddressComponentKind(rawValue: UInt8(clamping: head >> 1)) else {
      throw fault("unknown address component kind \(head >> 1)", at: at)
    }
    let long = try varint(below: stringCount)
    return (k, long, head & 1 == 1 ? try varint(below: stringCount) : nil)
  }
}
