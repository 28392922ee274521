// CONTEXTS section layout: an item table (ItemTable.swift) whose items are address contexts,
// the part of a record that places on the same street or in the same town share. Each item
// (all varints; "sid" = string id in STRINGS, "text ref" as in TextRef.swift):
//   zigzag latitude, zigzag longitude   reference point in 1e-7 degrees; records store their
//                                       position as the difference from it
//   n, then n name token ids        sorted; first absolute, then gaps: name tokens that every
//                                   place of the context has (a street's words for the
//                                   addresses on it); records store only the others
//   n, then n context token ids     the same, for terms of the address, admin areas, category
//   sid+1 of the ISO country code   (0 = unknown)
//   n, then n text refs             secondary text parts, most specific first
//   n, then n address components: (kind << 1) | s, sid of the long text, and when s = 1 the
//                                   sid of the short text (s = 0: the same as the long text)
// The writer stores each distinct context once, the most used first (small ids); the
// reference point is the position of the context's first place by rank.

/// Reads the shared address contexts of places.
public struct ContextTable: @unchecked Sendable {
  let items: ItemTable
  let stringCount: Int
  let tokenCount: Int
  /// Number of contexts.
  public var count: Int { items.count }

  /// Reads the section header; the counts bound the ids inside items.
  public init(
    _ bytes: UnsafeRawBufferPointer, fileOffset: Int, stringCount: Int, tokenCount: Int
  ) throws {
    items = try ItemTable(ByteReader(bytes, section: "CONTEXTS", fileOffset: fileOffset))
    self.stringCount = stringCount
    self.tokenCount = tokenCount
  }

  /// Reads context `id`'s shared name tokens, context tokens and country code into `m`;
  /// returns its reference point.
  func match(_ id: Int, into m: inout PlaceMatch) throws -> (latitude: Int64, longitude: Int64) {
    var r = try items.item(id)
    let point = (try r.zigzag(), try r.zigzag())
    try r.sortedIDs(below: tokenCount, into: &m.tokens)
    try r.sortedIDs(below: tokenCount, into: &m.contextTokens)
    let cc = try r.varint(below: stringCount + 1)
    m.countryCode = cc == 0 ? nil : cc - 1
    return point
  }

  /// Reads context `id`'s secondary parts and address components.
  func details(_ id: Int) throws -> (
    secondary: [TextRef], components: [(kind: AddressComponentKind, long: Int, short: Int?)]
  ) {
    var r = try items.item(id)
    _ = (try r.zigzag(), try r.zigzag())
    var tokens: [Int] = []
    try r.sortedIDs(below: tokenCount, into: &tokens)
    try r.sortedIDs(below: tokenCount, into: &tokens)
    _ = try r.varint(below: stringCount + 1)
    let nSecondary = try r.varint(below: 64)
    var secondary: [TextRef] = []
    secondary.reserveCapacity(nSecondary)
    for _ in 0..<nSecondary { secondary.append(try r.textRef(stringCount: stringCount)) }
    let nComponents = try r.varint(below: 64)
    var components: [(kind: AddressComponentKind, long: Int, short: Int?)] = []
    components.reserveCapacity(nComponents)
    for _ in 0..<nComponents { components.append(try r.component(stringCount: stringCount)) }
    guard r.remaining == 0 else { throw r.fault("\(r.remaining) bytes after the context") }
    return (secondary, components)
  }

  /// Decodes every context.
  public func verify() throws {
    try items.forEach { i, _ in _ = try details(i) }
  }
}

extension ByteReader {
  /// Reads n, then n strictly increasing ids below `limit` (first absolute, then gaps).
  @inline(__always)
  mutating func sortedIDs(below limit: Int, into ids: inout [Int]) throws {
    ids.removeAll(keepingCapacity: true)
    let n = try varint(below: limit + 1)
    var last = -1
    for _ in 0..<n {
      let at = offset
      let gap = try varint(below: limit + 1)
      let t = last < 0 ? gap : last + gap
      guard t < limit, last < 0 || gap > 0 else { throw fault("ids not increasing", at: at) }
      ids.append(t)
      last = t
    }
  }

  /// Reads one address component: (kind << 1) | s, sid long text, [sid short text].
  mutating func component(stringCount: Int) throws -> (
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

extension ByteWriter {
  /// Appends n, then the sorted distinct `ids` (first absolute, then gaps).
  mutating func sortedIDs(_ ids: [Int]) {
    let sorted = ids.sorted()
    varint(sorted.count)
    var last = -1
    for t in sorted {
      precondition(t > last, "ids must be distinct")
      varint(last < 0 ? t : t - last)
      last = t
    }
  }
}
