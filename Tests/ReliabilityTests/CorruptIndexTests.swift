import Foundation
import PlaceIndex
import PlaceIndexFormat
import Testing

/// Corrupted copies of a real index (the sample, built with IndexBuilder): every truncation
/// length and bit flips at thousands of offsets give a typed error from opening or `verify()`,
/// or, where the flip lands in bytes no structure uses, the same answers as the intact index.
/// Queries and details run on every copy that opens, verified or not: they must throw a typed
/// error or answer, never crash.
///
/// The sweeps run in child processes (exit tests) so that a crash fails its own test.
@Suite("Corrupted indexes")
struct CorruptIndexTests {
  @Test("the intact sample index opens, verifies and answers")
  func intact() throws {
    let probe = FuzzHarness.probeIndex(FuzzHarness.sampleIndexBytes)
    #expect(probe.openError == nil)
    #expect(probe.verifyError == nil)
    #expect(probe.answers.contains { $0.contains("Sankt Quirin") })
    #expect(!probe.answers.contains { $0.contains("\"INTERNAL\"") }, "\(probe.answers)")
  }

  @Test("every truncation length gives a typed error when opening")
  func everyTruncation() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      failIfStillRunning(after: 240)
      let bytes = FuzzHarness.sampleIndexBytes
      var failures: [String] = []
      var truncatedErrors = 0
      for length in 0..<bytes.count {
        let probe = FuzzHarness.probeIndex(Array(bytes.prefix(length)))
        guard let error = probe.openError else {
          failures.append("a copy of \(length) of \(bytes.count) bytes opened")
          continue
        }
        if case .index(_, .truncated, _) = error { truncatedErrors += 1 }
        if case .index(_, .notAnIndex, _) = error, length >= 8 {
          failures.append("\(length) bytes: \(error)")
        }
      }
      // Past the header, every cut is reported as a truncation naming both sizes.
      if truncatedErrors != bytes.count - 8 {
        failures.append("\(truncatedErrors) truncation errors for \(bytes.count - 8) cuts")
      }
      print("TRUNCATIONS \(bytes.count)")
      reportFailures(failures)
    }
    checkChildOutput(result)
  }

  @Test("every truncation length with a consistent header and checksums: a typed error")
  func everyTruncationRepaired() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      failIfStillRunning(after: 240)
      let bytes = FuzzHarness.sampleIndexBytes
      var failures: [String] = []
      var opened = 0
      for length in 64..<bytes.count {
        guard let repaired = FuzzHarness.repairingChecksums(Array(bytes.prefix(length))) else {
          failures.append("\(length): no header")
          continue
        }
        let probe = FuzzHarness.probeIndex(repaired)
        if probe.opened && probe.verifyError == nil {
          failures.append("a copy cut to \(length) bytes opened and verified")
        }
        if probe.opened { opened += 1 }
      }
      print("OPENED \(opened)")
      reportFailures(failures)
    }
    checkChildOutput(result)
  }

  /// Offsets that no checksum covers and no structure reads: the zero padding that aligns each
  /// section to 8 bytes.
  static func paddingOffsets(_ bytes: [UInt8]) throws -> Set<Int> {
    let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: "sample")
    let tableEnd = IndexLayout.headerSize + IndexLayout.sectionEntrySize * file.sections.count
    var used = [Bool](repeating: false, count: bytes.count)
    for i in 0..<tableEnd { used[i] = true }
    for s in file.sections { for i in s.offset..<(s.offset + s.length) { used[i] = true } }
    return Set(used.indices.filter { !used[$0] })
  }

  /// The offsets of the sections that are not text (all but VOCABULARY and ABBREVIATIONS).
  static func binarySectionOffsets(_ bytes: [UInt8]) -> [Int] {
    guard let file = try? IndexFile(bytes: MappedBytes(copying: bytes), path: "sample") else {
      return []
    }
    let text: Set<UInt32> = [SectionKind.vocabulary.rawValue, SectionKind.abbreviations.rawValue]
    return file.sections.filter { !text.contains($0.kind) }.flatMap {
      Array($0.offset..<($0.offset + $0.length))
    }
  }

  @Test("bit flips at thousands of offsets: a typed error, or the same answers in padding")
  func bitFlips() async throws {
    let padding = try Self.paddingOffsets(FuzzHarness.sampleIndexBytes)
    #expect(!padding.isEmpty, "the sample index has no padding: the padding case is not tested")
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) { [padding = padding as Set<Int>] in
      failIfStillRunning(after: 300)
      let bytes = FuzzHarness.sampleIndexBytes
      let baseline = FuzzHarness.probeIndex(bytes)
      var rng = SeededGenerator(seed: 0xF11B)
      // Every bit of the header, a bit of every section-table byte and padding byte, 400
      // random bits anywhere, and 800 in the binary sections (the text sections VOCABULARY
      // and ABBREVIATIONS hold more than half the bytes).
      var flips: [(Int, UInt8)] = []
      let tableEnd = IndexLayout.headerSize + IndexLayout.sectionEntrySize * 9
      for offset in 0..<min(tableEnd, bytes.count) {
        for bit in 0..<8 where bit == offset % 8 || offset < IndexLayout.headerSize {
          flips.append((offset, UInt8(bit)))
        }
      }
      for offset in padding.sorted() { flips.append((offset, UInt8(offset % 8))) }
      for _ in 0..<400 {
        flips.append(
          (rng.below(bytes.count), UInt8(rng.below(8))))
      }
      let binary = CorruptIndexTests.binarySectionOffsets(bytes)
      for _ in 0..<800 {
        flips.append((rng.element(of: binary), UInt8(rng.below(8))))
      }
      var failures: [String] = []
      var openErrors = 0
      var verifyErrors = 0
      var unchanged = 0
      for (offset, bit) in flips {
        var copy = bytes
        copy[offset] ^= 1 << bit
        let probe = FuzzHarness.probeIndex(copy)
        if probe.openError != nil {
          openErrors += 1
        } else if probe.verifyError != nil {
          verifyErrors += 1
        } else {
          unchanged += 1
          if probe.answers != baseline.answers {
            failures.append("flip of bit \(bit) at \(offset) verified but changed the answers")
          }
          if !padding.contains(offset) {
            failures.append("flip of bit \(bit) at \(offset) (not padding) passed verify")
          }
        }
        if padding.contains(offset) && (probe.openError != nil || probe.verifyError != nil) {
          failures.append("flip in padding at \(offset) was reported as corruption")
        }
      }
      print("FLIPS \(flips.count) OPEN \(openErrors) VERIFY \(verifyErrors) UNCHANGED \(unchanged)")
      reportFailures(failures)
    }
    checkChildOutput(result)
  }

  @Test("700 bit flips with checksums made consistent reach the decoders: typed errors or answers")
  func bitFlipsRepaired() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      failIfStillRunning(after: 300)
      let bytes = FuzzHarness.sampleIndexBytes
      var rng = SeededGenerator(seed: 0x5EC7)
      var counts = (open: 0, verify: 0, clean: 0)
      let binary = CorruptIndexTests.binarySectionOffsets(bytes)
      for _ in 0..<700 {
        var copy = bytes
        let offset = rng.element(of: binary)
        copy[offset] ^= 1 << UInt8(rng.below(8))
        guard let repaired = FuzzHarness.repairingChecksums(copy) else { continue }
        let probe = FuzzHarness.probeIndex(repaired)
        if probe.openError != nil {
          counts.open += 1
        } else if probe.verifyError != nil {
          counts.verify += 1
        } else {
          counts.clean += 1
        }
      }
      print("OPEN \(counts.open) VERIFY \(counts.verify) CLEAN \(counts.clean)")
      reportFailures([])
    }
    checkChildOutput(result)
  }

  @Test(
    "crafted values that overflow Int arithmetic: typed errors from verify and queries",
    arguments: ["postings gap", "latitude"])
  func crafted(_ which: String) async throws {
    let bytes = FuzzHarness.sampleIndexBytes
    let crafted =
      which == "latitude"
      ? try Self.replacingSection(.places, of: bytes, with: Self.minimumFirstLatitude)
      : try Self.replacingSection(.postings, of: bytes, with: Self.overflowFirstList)
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) { [crafted = crafted as [UInt8]] in
      let probe = FuzzHarness.probeIndex(crafted)
      var failures: [String] = []
      if !probe.opened || probe.verifyError == nil {
        failures.append("opened: \(probe.opened), verify: \(String(describing: probe.verifyError))")
      }
      reportFailures(failures)
    }
    checkChildOutput(result)
  }

  /// `bytes` with the section of `kind` replaced by `transform` of it, checksums valid: only
  /// the decoders stand between the crafted bytes and the arithmetic.
  static func replacingSection(
    _ kind: SectionKind, of bytes: [UInt8], with transform: ([UInt8]) -> [UInt8]
  ) throws -> [UInt8] {
    let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: "sample")
    var writer = IndexFileWriter()
    writer.dataTimestamp = file.dataTimestamp
    writer.optionsHash = file.optionsHash
    for s in file.sections {
      let section = Array(file.bytes(of: s))
      writer.add(rawKind: s.kind, s.kind == kind.rawValue ? transform(section) : section)
    }
    return writer.image()
  }

  /// The items of a POSTINGS section (an item table without item lengths, ItemTable.swift),
  /// and its block size.
  static func items(_ section: [UInt8]) -> (items: [[UInt8]], blockSize: Int) {
    let mapped = MappedBytes(copying: section)
    guard
      let table = try? ItemTable<PostingsFraming>(ByteReader(mapped.buffer, section: "TEST"))
    else {
      return ([], 16)
    }
    var items: [[UInt8]] = []
    for i in 0..<table.count {
      items.append(Array((try? table.item(i).buffer) ?? .init(start: nil, count: 0)))
    }
    return (items, table.blockSize)
  }

  /// A POSTINGS item table of `items`.
  static func table(_ items: [[UInt8]], blockSize: Int) -> [UInt8] {
    var w = ItemTableWriter(blockSize: blockSize, framing: PostingsFraming.self)
    for item in items { w.append(item) }
    return w.bytes
  }

  /// The end of the varint that starts at `at`.
  static func varintEnd(_ bytes: [UInt8], _ at: Int) -> Int {
    var i = at
    while bytes[i] >= 0x80 { i += 1 }
    return i + 1
  }

  /// A PLACES section (a record table, RecordTable.swift) whose first record's latitude (after
  /// its context id) is the zigzag varint of Int64.min (ten bytes, the largest a
  /// varint may be); the offsets of the records after it move with it.
  static func minimumFirstLatitude(_ section: [UInt8]) -> [UInt8] {
    func u32(_ at: Int) -> Int {
      (0..<4).reduce(0) { $0 | Int(section[at + $1]) << (8 * $1) }
    }
    guard section.count >= 8 else { return section }
    let count = u32(0)
    let groupSize = u32(4)
    guard count > 0, groupSize >= 4 else { return section }
    let groups = (count + groupSize - 1) / groupSize
    let blocks = (count + 3) / 4
    let blockTable = 8 + 4 * groups
    let recordStart = blockTable + 2 * blocks
    let latStart = varintEnd(section, recordStart)
    let latEnd = varintEnd(section, latStart)
    var out = section
    out.replaceSubrange(latStart..<latEnd, with: Array(repeating: 0xFF, count: 9) + [0x01])
    let delta = 10 - (latEnd - latStart)
    for g in 1..<max(groups, 1) {
      let v = u32(8 + 4 * g) + delta
      for i in 0..<4 { out[8 + 4 * g + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) }
    }
    for k in 1..<max(min(blocks, groupSize / 4), 1) {
      let at = blockTable + 2 * k
      let v = (Int(section[at]) | (Int(section[at + 1]) << 8)) + delta
      out[at] = UInt8(truncatingIfNeeded: v)
      out[at + 1] = UInt8(truncatingIfNeeded: v >> 8)
    }
    return out
  }

  /// A POSTINGS section whose first token's name list is replaced by two entries: 1, then
  /// 2^63 - 1 (and no other list).
  static func overflowFirstList(_ section: [UInt8]) -> [UInt8] {
    var (lists, blockSize) = items(section)
    guard !lists.isEmpty else { return section }
    var list = ByteWriter()
    list.varint(2 << 3)
    list.varint(1)
    list.varint(UInt64(Int64.max))
    lists[0] = list.bytes
    return table(lists, blockSize: blockSize)
  }
}
