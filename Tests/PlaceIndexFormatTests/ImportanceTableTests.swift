import Foundation
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// The IMPORTANCE section: runs of equal importance by rank.
@Suite struct ImportanceTableTests {
  static func places(_ importance: [UInt16]) -> [PlaceRecord] {
    importance.enumerated().map { i, v in
      PlaceRecord(
        osmKind: 0, osmID: Int64(i), latitudeE7: 0, longitudeE7: 0, importance: v, typeList: 0,
        primaryText: "p", secondaryParts: [], countryCode: "", names: [], components: [])
    }
  }

  /// Reads `bytes` as the section of `placeCount` places.
  static func table(_ bytes: [UInt8], placeCount: Int) throws -> ImportanceTable {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
    buffer.copyMemory(from: bytes.withUnsafeBytes { $0 })
    return try ImportanceTable(
      UnsafeRawBufferPointer(buffer), fileOffset: 100, placeCount: placeCount)
  }

  static func section(_ firsts: [UInt32], _ values: [UInt16]) -> [UInt8] {
    var w = ByteWriter()
    w.u32(UInt32(firsts.count))
    for f in firsts { w.u32(f) }
    for v in values { w.u16(v) }
    return w.bytes
  }

  @Test(arguments: [1, 2, 3, 4, 5])
  func everyRankReadsBackItsImportance(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let count = rng.int(in: 1...3000)
    // Mostly descending with repeats, as ranks give them; every third seed in any order.
    var values = (0..<count).map { _ in UInt16(rng.int(in: 0...Int(1 + seed * 20))) }
    if seed % 3 != 0 { values.sort(by: >) }
    let bytes = ImportanceTableWriter.serialize(Self.places(values))
    let table = try Self.table(bytes, placeCount: count)
    try table.verify()
    #expect(try table.decodeAll() == values)
    for rank in 0..<count { #expect(try table.importance(of: rank) == values[rank]) }
    // One run per change of value, 6 bytes each after the count.
    let runs = 1 + zip(values, values.dropFirst()).filter { $0 != $1 }.count
    #expect(bytes.count == 4 + 6 * runs)
  }

  @Test func bytesMatchTheDocumentedLayout() throws {
    let bytes = ImportanceTableWriter.serialize(Self.places([900, 900, 40, 40, 40, 7]))
    #expect(bytes == Self.section([0, 2, 5], [900, 40, 7]))
    #expect(
      bytes == [3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0x84, 0x03, 40, 0, 7, 0])
  }

  @Test func noPlacesNoRuns() throws {
    let bytes = ImportanceTableWriter.serialize([])
    #expect(bytes == [0, 0, 0, 0])
    let table = try Self.table(bytes, placeCount: 0)
    #expect(try table.decodeAll().isEmpty)
    expectCorrupt("IMPORTANCE") { try table.importance(of: 0) }
  }

  @Test func malformedSectionsAreRefusedAtOpen() throws {
    // Length: the runs do not fill the section.
    var short = Self.section([0, 2], [9, 8])
    short.removeLast()
    expectCorrupt("IMPORTANCE") { try Self.table(short, placeCount: 4) }
    // A run count far beyond the bytes.
    expectCorrupt("IMPORTANCE") {
      try Self.table([0xFF, 0xFF, 0xFF, 0xFF, 0, 0], placeCount: 4)
    }
    // No runs for places, runs for no places.
    expectCorrupt("IMPORTANCE") { try Self.table([0, 0, 0, 0], placeCount: 3) }
    expectCorrupt("IMPORTANCE") {
      try Self.table(Self.section([0], [1]), placeCount: 0)
    }
    // The first run must start at rank 0.
    do {
      _ = try Self.table(Self.section([1, 2], [9, 8]), placeCount: 4)
      Issue.record("a first run at rank 1 was accepted")
    } catch let IndexFormatError.corrupt(_, section, offset, reason) {
      #expect(section == "IMPORTANCE" && offset == 104)
      #expect(reason.contains("rank 1"))
    }
  }

  @Test(arguments: [[0, 3, 3], [0, 5, 2], [0, 2, 4]])
  func verifyNamesTheRunThatDoesNotIncrease(firsts: [UInt32]) throws {
    // Opening checks only the length and the first run; verify checks every run, and
    // reading stays in bounds either way.
    let table = try Self.table(Self.section(firsts, [9, 8, 7]), placeCount: 4)
    #expect(try table.decodeAll().count == 4)
    do {
      try table.verify()
      Issue.record("runs starting at \(firsts) for 4 places passed verify")
    } catch let IndexFormatError.corrupt(_, section, offset, _) {
      #expect(section == "IMPORTANCE")
      #expect(offset == 100 + 4 + 4 * (firsts.firstIndex { $0 >= 4 } ?? 2))
    }
  }
}
