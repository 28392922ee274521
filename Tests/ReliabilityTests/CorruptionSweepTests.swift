import Foundation
import PlaceIndex
import PlaceIndexBuilder
import PlaceIndexFormat
import TestSupport
import Testing

/// Seeded one-bit and one-byte corruptions in every part of real indexes (the sample and
/// manhattan-lower-east-side-2020, both built here with IndexBuilder): the header, the section
/// table and each section. No corrupted copy may ever answer: opening it (which checks every
/// checksum) must throw a typed error, the checksum error of the very section for damage inside
/// one; and opened with `.skip`, `verify()` must name the damage.
@Suite("Corruption in every section")
struct CorruptionSweepTests {
  /// Corruptions per part of the file and kind (bit, byte).
  static let perPart = 6

  /// The manhattan extract's index, built once.
  static let manhattanIndex: Result<[UInt8], Error> = Result {
    let dir = try TestPaths.temporaryDirectory()
    let output = dir.appendingPathComponent("manhattan.placeidx").path
    _ = try IndexBuilder(tables: FuzzHarness.tables).build(
      IndexBuilder.Options(
        extract: TestPaths.osm("manhattan-lower-east-side-2020.osm").path, output: output))
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
  }

  /// The parts of `bytes`: name and byte range.
  static func parts(_ bytes: [UInt8]) throws -> [(name: String, range: Range<Int>)] {
    let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: "sweep")
    let tableEnd = IndexLayout.headerSize + IndexLayout.sectionEntrySize * file.sections.count
    return [
      ("HEADER", 0..<IndexLayout.headerSize), ("SECTION TABLE", IndexLayout.headerSize..<tableEnd),
    ]
      + file.sections.filter { $0.length > 0 }.map {
        ($0.name, $0.offset..<($0.offset + $0.length))
      }
  }

  /// Runs the sweep over `bytes`; returns the failures and the number of copies probed.
  static func sweep(_ bytes: [UInt8], seed: UInt64) throws -> (failures: [String], probes: Int) {
    var rng = SplitMix64(seed: seed)
    var failures: [String] = []
    var probes = 0
    let parts = try parts(bytes)
    #expect(parts.count == 2 + SectionKind.allCases.count, "\(parts.map(\.name))")
    for part in parts {
      for kind in ["bit", "byte"] {
        for _ in 0..<perPart {
          var copy = bytes
          let offset = part.range.lowerBound + rng.below(part.range.count)
          if kind == "bit" {
            copy[offset] ^= 1 << UInt8(rng.below(8))
          } else {
            copy[offset] = copy[offset] &+ UInt8(rng.int(in: 1...255))
          }
          probes += 1
          let what = "\(kind) at \(offset) in \(part.name)"
          let checked = FuzzHarness.probeIndex(copy)
          switch checked.openError {
          case nil:
            failures.append("\(what): opened and answered \(checked.answers.count) requests")
          case .index(_, .checksumMismatch(let section), _)? where part.name != "HEADER":
            if section != part.name { failures.append("\(what): checksum error in \(section)") }
          case .index? where part.name == "HEADER":
            break  // a checksum, version or magic error: each names the header's fault
          case let e?:
            failures.append("\(what): \(e), not the checksum error of \(part.name)")
          }
          let skipped = FuzzHarness.probeIndex(copy, verification: .skip)
          if skipped.opened && skipped.verifyError == nil {
            failures.append("\(what): opened with .skip and passed verify()")
          }
        }
      }
    }
    return (failures, probes)
  }

  @Test("the sample index: every section, one-bit and one-byte corruptions")
  func sample() throws {
    let (failures, probes) = try Self.sweep(FuzzHarness.sampleIndexBytes, seed: 0x5EED_0001)
    #expect(probes == (2 + SectionKind.allCases.count) * 2 * Self.perPart)
    #expect(failures.isEmpty, "\(failures.prefix(10))")
  }

  @Test(
    "manhattan-lower-east-side-2020: every section, one-bit and one-byte corruptions",
    .enabled(if: TestPaths.sharedOSMAvailable, "needs the shared OSM extracts"))
  func manhattan() throws {
    let bytes = try Self.manhattanIndex.get()
    #expect(bytes.count > 50_000)
    let (failures, probes) = try Self.sweep(bytes, seed: 0x5EED_0002)
    #expect(probes == (2 + SectionKind.allCases.count) * 2 * Self.perPart)
    #expect(failures.isEmpty, "\(failures.prefix(10))")
  }
}
