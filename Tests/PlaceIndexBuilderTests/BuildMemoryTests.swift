import Foundation
import OSMReader
import PlaceCore
import TestSupport
import Testing

@testable import PlaceIndexBuilder
@testable import PlaceIndexFormat

/// The compact stores behind the build's bounded memory (docs/LIMITS.md, "Build memory"):
/// candidates and assembled places as packed records in temporary files, and the interned
/// strings of the compile stage.
@Suite struct BuildMemoryTests {
  /// A place with every field the store keeps, texts non-ASCII and long (2-byte lengths).
  static func place(_ k: Int) -> AssembledPlace {
    let long = String(repeating: "Hauptstraße ", count: 20 + k % 3)
    var record = PlaceRecord(
      osmKind: UInt8(k % 3), osmID: Int64(k) * 1_000_003 + (k % 2 == 0 ? 1 << 59 : 0),
      latitudeE7: Int32(-899_999_999 + k), longitudeE7: Int32(1_799_999_999 - k),
      importance: UInt16(k % 65_536), typeList: 0, primaryText: k % 4 == 0 ? "" : "Zürich \(k)",
      secondaryParts: Array(repeating: "Teil \(k)", count: k % 4),
      countryCode: k % 5 == 0 ? "" : "CH",
      names: (0..<(k % 3)).map {
        LocalizedName(language: $0 == 0 ? "" : "ja", name: "チューリッヒ\($0)")
      },
      components: (0..<(k % 4)).map {
        AddressComponent(
          kind: AddressComponentKind(rawValue: UInt8($0 * 3))!, longText: $0 == 1 ? long : "L\($0)",
          shortText: "S\($0)")
      })
    record.nameWordCount = k % 300
    return AssembledPlace(
      record: record, types: ["cafe", "point_of_interest", "establishment"].suffix(1 + k % 3),
      terms: (0..<(k % 5)).map { "t\($0)" }, altTerms: k % 2 == 0 ? [] : [long],
      contextTerms: ["zürich", "ch"].prefix(k % 3).map { $0 })
  }

  @Test func placeStoreGivesBackEveryFieldAndTakesPatches() throws {
    let dir = try TestPaths.temporaryDirectory()
    let store = try PlaceStore(SpillBudget(SpillSettings(directory: dir.path)))
    let places = (0..<3_000).map(BuildMemoryTests.place)
    for p in places { try store.append(p) }
    try store.finish()
    #expect(store.count == places.count)
    store.patch(7, osmID: 42)
    store.patch(8, latitudeE7: 1, longitudeE7: -2)
    for (i, p) in places.enumerated() {
      var expected = p.record
      if i == 7 { expected.osmID = 42 }
      if i == 8 { (expected.latitudeE7, expected.longitudeE7) = (1, -2) }
      #expect(store.record(i) == expected)
      #expect(store.key(i) == (expected.importance, expected.osmKind, expected.osmID))
      #expect(store.types(i) == p.types)
      let terms = store.terms(i)
      #expect(terms.name == p.terms && terms.alternative == p.altTerms)
      #expect(terms.context == p.contextTerms)
      #expect(store.hasNames(i) == !p.record.names.isEmpty)
      #expect(store.countryCode(i) == p.record.countryCode)
      let numbers = store.numbers(i)
      #expect(numbers.osmID == expected.osmID && numbers.latitudeE7 == expected.latitudeE7)
      #expect(numbers.primaryText.isEmpty && numbers.names.isEmpty)
    }
    // A copy in another order holds the same places in that order.
    let order = (0..<Int32(places.count)).reversed().map { $0 }
    let copy = try store.reordered(order)
    #expect(copy.count == places.count)
    for (k, i) in order.enumerated() where k % 97 == 0 {
      #expect(copy.record(k) == store.record(Int(i)))
    }
    // Nothing of either store is left in the folder: their files were unlinked when created.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// Candidates out of order, repeated and removed: after finish, one per (kind, id) in
  /// (kind, id) order, the last one read, against a dictionary of what was appended.
  @Test func candidateStoreKeepsTheLastOfEachIDInOrder() throws {
    let dir = try TestPaths.temporaryDirectory()
    var random = SplitMix64(seed: 19)
    for inOrder in [true, false] {
      let store = try CandidateStore(SpillBudget(SpillSettings(directory: dir.path)))
      var expected: [[Int64]: String] = [:]
      var appended = 0
      for k in 0..<20_000 {
        let kind =
          inOrder
          ? OSMElementKind(rawValue: UInt8(k / 7_000))! : OSMElementKind.allCases[random.below(3)]
        let id = inOrder ? Int64(k) : Int64(random.below(5_000))
        let key = [Int64(kind.rawValue), id]
        if !inOrder, random.below(10) == 0 {
          store.remove(kind: kind, id: id)
          expected[key] = nil
          continue
        }
        let name = "n\(k) \(String(repeating: "é", count: k % 90))"
        try store.append(
          ExtractedElement(
            kind: kind, id: id, latitudeE7: Int32(k), longitudeE7: -Int32(k),
            tags: PackedTags([OSMTag(key: "name", value: name)]), isArea: k % 2 == 0))
        expected[key] = name
        appended += 1
      }
      try store.finish(inOrder: inOrder)
      #expect(appended > 10_000)
      #expect(store.count == expected.count)
      var previous: [Int64]? = nil
      var seen = 0
      for e in store.elements {
        let key = [Int64(e.kind.rawValue), e.id]
        if let previous { #expect(previous.lexicographicallyPrecedes(key)) }
        previous = key
        #expect(e.tags["name"] == expected[key])
        let k = Int(e.latitudeE7)
        #expect(e.longitudeE7 == -Int32(k) && e.isArea == (k % 2 == 0))
        #expect(e.tags["name"]?.hasPrefix("n\(k) ") == true)
        seen += 1
      }
      #expect(seen == expected.count)
    }
  }

  /// The interner finds every string it was given, numbers them in the order first seen and
  /// sorts them bytewise, as a Set of Swift strings does.
  @Test func byteInternerMatchesASetOfStrings() {
    var random = SplitMix64(seed: 7)
    let pieces = ["a", "é", "漢", " ", "Straße", "", "z", "\u{7F}", "ÿ"]
    var interner = ByteInterner()
    var firstSeen: [String] = []
    var index: [String: Int] = [:]
    for _ in 0..<30_000 {
      let s = (0..<random.below(6)).map { _ in pieces[random.below(pieces.count)] }.joined()
      let i = interner.insert(s)
      if index[s] == nil {
        index[s] = firstSeen.count
        firstSeen.append(s)
      }
      #expect(i == index[s])
    }
    #expect(firstSeen.count > 1_000 && interner.count == firstSeen.count)
    #expect(interner.find("not there") == nil && interner.find("") == index[""])
    let sorted = interner.sortedIndexes().map { firstSeen[Int($0)] }
    #expect(sorted == firstSeen.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    for (s, i) in index { #expect(Array(interner.string(i)) == Array(s.utf8)) }
  }

  /// A build that runs out of room for its temporary files at any point (reading, the
  /// candidates, the assembled places, the compile's copy in rank order) fails with
  /// `BuildError.temporaryFiles` and leaves nothing in the temporary or the output folder; with
  /// room enough, it builds the same bytes as without a limit.
  @Test func runningOutOfTemporarySpaceAnywhereIsACleanError() throws {
    let sample = try String(contentsOfFile: TestPaths.data + "/sample.osm", encoding: .utf8)
    let dir = try TestPaths.temporaryDirectory()
    let input = dir.appendingPathComponent("in.osm")
    try sample.write(to: input, atomically: true, encoding: .utf8)
    let spill = dir.appendingPathComponent("spill")
    try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
    func build(limit: Int64?, in out: URL) throws -> BuildReport {
      var options = IndexBuilder.Options(
        extract: input.path, output: out.appendingPathComponent("x.placeidx").path)
      options.temporaryDirectory = spill.path
      options.temporaryByteLimit = limit
      return try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(options)
    }
    let reference = dir.appendingPathComponent("reference")
    let report = try build(limit: nil, in: reference)
    #expect(report.places > 100)
    let bytes = try Data(contentsOf: reference.appendingPathComponent("x.placeidx"))
    var reasons: [String] = []
    var successes = 0
    var limits: [Int64] = [512]
    while limits.last! < 16 << 20 { limits.append(limits.last! * 5 / 4) }
    for limit in limits {
      let out = dir.appendingPathComponent("out-\(limit)")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      do {
        _ = try build(limit: limit, in: out)
        successes += 1
        #expect(try Data(contentsOf: out.appendingPathComponent("x.placeidx")) == bytes)
      } catch let e as BuildError {
        guard case .temporaryFiles(let folder, let reason) = e else {
          Issue.record("limit \(limit): \(e)")
          continue
        }
        reasons.append(reason)
        #expect(folder == spill.path && reason.contains("No space left on device"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
    }
    #expect(successes > 0)
    // The limit was met in each store: reading's, the candidates' and the places'.
    for purpose in ["node", "candidate", "place"] {
      #expect(reasons.contains { $0.contains("temporary \(purpose)") }, "\(purpose)")
    }
  }
}
