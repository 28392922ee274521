import PlaceCore
import Testing

@testable import PlaceIndexFormat

/// TERMS: each place's tokens by rank (TermLists.swift), the inverse of POSTINGS.
@Suite struct TermListsTests {
  typealias Lists = (name: [Int], alternative: [Int], context: [Int])

  /// The section for `places`, written in the writer's two passes.
  func section(_ places: [Lists], commonFrom: Int, own: @escaping (Int) -> Bool) -> [UInt8] {
    var w = TermListsWriter(isOwn: own, commonFrom: commonFrom)
    for p in places { w.count(name: p.name, context: p.context) }
    for p in places { w.append(name: p.name, alternative: p.alternative, context: p.context) }
    return w.bytes
  }

  /// Every place's lists read back, each part as a sorted array.
  func readBack(_ bytes: [UInt8], places: Int, tokens: Int) throws -> [Lists] {
    let mapped = MappedBytes(copying: bytes)
    let table = try TermLists(mapped.buffer, fileOffset: 0, placeCount: places, tokenCount: tokens)
    let shared = try table.decodeShared()
    var out: [Lists] = []
    var t = PlaceTerms()
    for rank in 0..<places {
      try table.terms(of: rank, into: &t)
      let fromSection = t.tokens
      try table.terms(of: rank, into: &t, shared: shared)
      #expect(t.tokens == fromSection, "place \(rank): decoded shared lists differ")
      let ints = t.tokens.map(Int.init)
      out.append(
        (
          ints[..<t.nameEnd].sorted(), ints[t.nameEnd..<t.alternativeEnd].sorted(),
          ints[t.alternativeEnd...].sorted()
        ))
    }
    return out
  }

  static let goldenPlaces: [Lists] = [
    ([2, 150], [], [1, 7, 9]), ([2, 151], [4], [1, 7]), ([3], [], [1, 7, 9, 50]),
    ([], [], [1, 60]), ([], [], [1, 60]),
  ]

  /// Golden bytes: the documented layout for five places, with tokens from 100 on a name's
  /// own (housenumbers) and a context token common from 3 places: a shared name with an own
  /// number, an alternative name, a context's rest in the record and as a shared list.
  @Test func bytesMatchTheDocumentedLayout() throws {
    let bytes = section(Self.goldenPlaces, commonFrom: 3) { $0 >= 100 }
    // Context token counts: 1 in 5 places, 7 in 3, 9 and 60 in 2, 50 in 1: the common lists
    // are [1, 7] (3 places) and [1] (2); the rests [9], [9, 50] (one place each) and [60]
    // (2). Shared, most used first, ties by content: 0 [1, 7], 1 [1], 2 [2] (two names),
    // 3 [60]; [3], [9] and [9, 50] have one place each and stay in their records.
    var shared: [UInt8] = [4, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0]  // count, G, groups, blocks
    shared += [2, 1, 6, 1, 1, 1, 2, 1, 60]
    var expected: [UInt8] = [UInt8(shared.count), 0, 0, 0] + shared
    expected += [5, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23, 0]  // block 1 at byte 23
    // Place 0: own 1, rest in the record, shared name: 1 << 4 | 1 << 2 | 2 = 22; name list
    // 2; one rest token; own 150 (96 01); rest 9; common list 0.
    expected += [22, 2, 1, 0x96, 0x01, 9, 0]
    // Place 1: 1 << 4 | 2 | 1 = 19; name list 2; one alternative token; own 151; 4; list 0.
    expected += [19, 2, 1, 0x97, 0x01, 4, 0]
    // Place 2: its name [3] is no other's: own 1, rest in the record (2 tokens): 20; 2; own
    // 3; rest 9, gap 41; list 0.
    expected += [20, 2, 3, 9, 41, 0]
    // Places 3 and 4: no name, a shared rest: 2 << 2 = 8; common list 1; rest list 3.
    expected += [8, 1, 3, 8, 1, 3]
    #expect(bytes == expected)
    let back = try readBack(bytes, places: 5, tokens: 200)
    #expect(back.map { $0.name } == Self.goldenPlaces.map(\.name))
    #expect(back.map { $0.alternative } == Self.goldenPlaces.map(\.alternative))
    #expect(back.map { $0.context } == Self.goldenPlaces.map(\.context))
  }

  /// Seeded property test: random disjoint lists come back as written, whatever is shared.
  @Test(arguments: [1, 7, 64, 300])
  func listsRoundTrip(count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count) &* 77)
    let tokens = 500
    // A few areas and streets, so that lists repeat.
    let areas = (0..<4).map { _ in Set((0..<3).map { _ in rng.below(40) }) }
    let places: [Lists] = (0..<count).map { _ in
      var used = Set<Int>()
      func draw(_ n: Int, from range: Range<Int>) -> [Int] {
        var out = Set<Int>()
        for _ in 0..<n {
          let t = range.lowerBound + rng.below(range.count)
          if !used.contains(t) { out.insert(t) }
        }
        used.formUnion(out)
        return out.sorted()
      }
      let name = draw(rng.below(4), from: 40..<tokens)
      let alternative = rng.below(3) == 0 ? draw(1 + rng.below(3), from: 40..<tokens) : []
      var context = Set(areas[rng.below(areas.count)]).subtracting(used)
      context.formUnion(draw(rng.below(3), from: 0..<tokens))
      return (name, alternative, context.subtracting(name).subtracting(alternative).sorted())
    }
    for commonFrom in [1, 2, 64] {
      let bytes = section(places, commonFrom: commonFrom) { $0 >= 400 }
      let back = try readBack(bytes, places: count, tokens: tokens)
      #expect(back.map(\.name) == places.map(\.name), "commonFrom \(commonFrom)")
      #expect(back.map(\.alternative) == places.map(\.alternative))
      #expect(back.map(\.context) == places.map(\.context))
    }
  }

  /// Damaged records are refused as a corrupt TERMS section, not read past their bounds.
  @Test(
    arguments: [
      // A name token repeated (gap 0).
      ([UInt8]([2 << 4, 5, 0, 0]), "out of order"),
      // A token past the dictionary.
      ([1 << 4, 0xC8, 0x01, 0], "out of range"),
      // A context list id past the shared lists.
      ([0, 9], "out of range"),
      // The context's rest kind 3.
      ([3 << 2, 0], "rest kind 3"),
      // Truncated: the head promises three own tokens.
      ([3 << 4, 1], "past the end"),
    ] as [([UInt8], String)])
  func damagedRecordsAreRefused(record: [UInt8], reason: String) throws {
    var shared = RecordTableWriter()
    shared.append([1, 1])
    var places = RecordTableWriter()
    places.append(record)
    let table = shared.bytes
    var w = ByteWriter()
    w.u32(UInt32(table.count))
    w.append(table)
    w.append(places.bytes)
    let mapped = MappedBytes(copying: w.bytes)
    let terms = try TermLists(mapped.buffer, fileOffset: 0, placeCount: 1, tokenCount: 100)
    var t = PlaceTerms()
    expectCorrupt("TERMS", reason: reason) { try terms.terms(of: 0, into: &t) }
    expectCorrupt("TERMS") { try terms.verify { _, _ in } }
  }

  /// A section whose places table holds another number of places than the index is refused at
  /// open.
  @Test func aPlaceCountMismatchIsRefused() throws {
    let bytes = section(Self.goldenPlaces, commonFrom: 3) { $0 >= 100 }
    let mapped = MappedBytes(copying: bytes)
    expectCorrupt("TERMS", reason: "5 places' terms for 6 places") {
      try TermLists(mapped.buffer, fileOffset: 0, placeCount: 6, tokenCount: 200)
    }
    expectCorrupt("TERMS", reason: "does not fit") {
      try TermLists(
        MappedBytes(copying: [0xFF, 0, 0, 0, 1]).buffer, fileOffset: 0, placeCount: 0,
        tokenCount: 1)
    }
  }
}
