import Foundation
import PlaceIndexFormat
import Testing

@testable import PlaceIndex

/// PREFIX UNIONS (format 7.1): a union section written for the sample's ranges of two tokens
/// or more (the builder holds only ranges of ``PrefixUnionsWriter/minimumTokens``, which the
/// small sample has none of) passes `verify`, and searches over it answer exactly as the
/// sample without it, which reads every range token by token; a union that is not the union of
/// its tokens' lists, or an entry out of order, is refused with its named fault.
@Suite("PREFIX UNIONS: the unions of heavy prefixes")
struct PrefixUnionsRulesTests {
  /// The sample's tokens (in id order) and each token's lists (name, alternative, context).
  static func sampleLists() throws -> (tokens: [String], lists: [[[UInt32]]]) {
    let index = FuzzHarness.sampleClient.indexes[0]
    var tokens: [String] = []
    try index.tokens.forEach { _, t in tokens.append(String(decoding: t, as: UTF8.self)) }
    var lists: [[[UInt32]]] = []
    try index.postings.forEachList(of: 0..<index.postings.tokenCount) {
      (_, l) throws(IndexFormatError) in
      var parts: [[UInt32]] = []
      for part in PostingsPart.allCases {
        var c = l[part]
        var places: [UInt32] = []
        while let p = try c.next() { places.append(UInt32(p)) }
        parts.append(places)
      }
      lists.append(parts)
    }
    return (tokens, lists)
  }

  /// The sample with a PREFIX UNIONS section for `ranges`, each token's lists changed by
  /// `change` before the unions are taken.
  static func withUnions(
    _ ranges: [Range<Int>], change: (Int, inout [[UInt32]]) -> Void = { _, _ in }
  ) throws -> [UInt8] {
    var (_, lists) = try sampleLists()
    for t in lists.indices { change(t, &lists[t]) }
    let section = PrefixUnionsWriter.serialize(ranges) { t in
      (lists[t][0][...], lists[t][1][...], lists[t][2][...])
    }
    return try CorruptIndexTests.replacingSection(
      .prefixUnions, of: FuzzHarness.sampleIndexBytes
    ) { _ in section }
  }

  static func open(_ bytes: [UInt8]) throws -> LoadedIndex {
    try LoadedIndex(file: IndexFile(bytes: MappedBytes(copying: bytes), path: "unions"))
  }

  /// The fault `verifyFormat` names for `bytes`, or nil when it passes.
  static func fault(_ bytes: [UInt8]) throws -> (section: String, fault: IndexFault)? {
    let index = try open(bytes)
    do throws(IndexFormatError) {
      try index.verifyFormat()
      return nil
    } catch {
      guard case .fault(_, let section, _, let f) = error else {
        Issue.record("verifyFormat threw \(error), not a named fault")
        return nil
      }
      return (section, f)
    }
  }

  @Test("the sample's ranges of 2 tokens or more as unions: verified, and the same answers")
  func unionsAnswerAsTheTokensOneByOne() throws {
    let (tokens, _) = try Self.sampleLists()
    let ranges = PrefixUnionsWriter.ranges(tokens, minimum: 2)
    #expect(ranges.count > 20, "\(ranges.count) ranges")
    let bytes = try Self.withUnions(ranges)
    #expect(try Self.fault(bytes) == nil)
    let withUnions = try Self.open(bytes)
    #expect(withUnions.postings.unions.count == ranges.count)
    let plain = FuzzHarness.sampleClient
    let unions = PlacesClient(indexes: [withUnions])
    // Every prefix of every token, one and two words, with and without an origin.
    var queries = Set<String>()
    for t in tokens {
      for n in 1...min(4, t.count) { queries.insert(String(t.prefix(n))) }
    }
    let words = queries.sorted()
    for (i, w) in words.enumerated() where i % 7 == 0 {
      queries.insert("\(w) \(words[(i * 31) % words.count])")
    }
    var answered = 0
    var read = 0
    for q in queries.sorted() {
      for origin in [nil, Coordinate(latitude: 47.14, longitude: 9.52)] {
        let request = AutocompleteRequest(query: q, filter: AutocompleteFilter(origin: origin))
        let a = try plain.autocompleteSuggestions(for: request)
        let b = try unions.autocompleteSuggestions(for: request)
        #expect(a == b, "\(q)")
        if !a.isEmpty { answered += 1 }
        read += 1
      }
    }
    #expect(read > 300 && answered > read / 2, "\(answered) of \(read) answered")
    // A range held as a union costs its sum without a walk, as the walk counts it.
    for r in ranges {
      var sum = 0
      try withUnions.postings.forEachList(of: r) { (_, l) throws(IndexFormatError) in
        sum += l.name.count + l.alternative.count + l.context.count
      }
      #expect(try withUnions.postings.length(of: r) == sum)
    }
  }

  @Test("a union missing a place, or holding one more, is refused naming the entry and part")
  func unionsThatAreNotTheUnionAreRefused() throws {
    let (tokens, lists) = try Self.sampleLists()
    let ranges = PrefixUnionsWriter.ranges(tokens, minimum: 2)
    // The first range whose first token has a name list: that token loses its first place
    // (a place no other token of the range names, or one more would be kept) or gains one.
    let entry = try #require(ranges.firstIndex { !lists[$0.lowerBound][0].isEmpty })
    let token = ranges[entry].lowerBound
    let others = Set(ranges[entry].dropFirst().flatMap { lists[$0][0] })
    let lost = try #require(
      lists[token][0].first { !others.contains($0) }, "a place only the first token names")
    let missing = try Self.withUnions(ranges) { t, l in
      if t == token { l[0].removeAll { $0 == lost } }
    }
    let f = try #require(try Self.fault(missing))
    #expect(f.section == "PREFIX UNIONS")
    // The sum is checked first: it lacks the place too.
    #expect(
      f.fault
        == .prefixUnionMismatch(
          entry: entry, part: "sum", stored: sumOf(ranges[entry], lists) - 1,
          union: sumOf(ranges[entry], lists)))
    // A place added to the context union only (its sum kept): the list is refused.
    let placeCount = FuzzHarness.sampleClient.indexes[0].placeCount
    let union = Set(ranges[entry].flatMap { lists[$0][2] })
    let extra = try #require((0..<UInt32(placeCount)).first { !union.contains($0) })
    var changed = lists
    changed[token][2] = (changed[token][2] + [extra]).sorted()
    changed[token][0] = Array(changed[token][0].dropLast())
    let replaced = try Self.withUnions(ranges) { t, l in l = changed[t] }
    let g = try #require(try Self.fault(replaced))
    #expect(g.section == "PREFIX UNIONS")
    guard case .prefixUnionMismatch(let e, let part, _, _) = g.fault else {
      Issue.record("\(g.fault)")
      return
    }
    #expect(e == entry && part != "sum", "\(g.fault)")
  }

  @Test("entries out of order, repeated or of one token are refused")
  func entriesOutOfOrderAreRefused() throws {
    let (tokens, _) = try Self.sampleLists()
    let ranges = PrefixUnionsWriter.ranges(tokens, minimum: 2)
    #expect(ranges.count >= 2)
    let swapped = [ranges[1], ranges[0]] + ranges.dropFirst(2)
    let f = try #require(try Self.fault(try Self.withUnions(swapped)))
    #expect(
      f.fault
        == .prefixUnionOutOfOrder(
          entry: 1, first: ranges[0].lowerBound, end: ranges[0].upperBound))
    let repeated = [ranges[0], ranges[0]]
    let g = try #require(try Self.fault(try Self.withUnions(repeated)))
    #expect(
      g.fault
        == .prefixUnionOutOfOrder(
          entry: 1, first: ranges[0].lowerBound, end: ranges[0].upperBound))
    let single = [0..<1]
    let h = try #require(try Self.fault(try Self.withUnions(single)))
    #expect(h.fault == .prefixUnionOutOfOrder(entry: 0, first: 0, end: 1))
  }
}

/// The postings of `range`'s tokens, summed over their parts.
private func sumOf(_ range: Range<Int>, _ lists: [[[UInt32]]]) -> Int {
  range.reduce(0) { $0 + lists[$1].reduce(0) { $0 + $1.count } }
}
