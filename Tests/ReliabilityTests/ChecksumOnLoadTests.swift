import Foundation
@_spi(Testing) import PlaceIndex
import PlaceIndexBuilder
import PlaceIndexFormat
import TestSupport
import Testing

/// Opening checks every section's checksum by default, so a damaged index is a typed error at
/// open, never an answer; `.skip` is the documented opt-out; `.copy` reads the file into
/// memory so that a file rewritten in place does not reach a running reader.
@Suite("Checksums on load")
struct ChecksumOnLoadTests {
  /// Writes `bytes` to a fresh file; returns its path.
  func write(_ bytes: [UInt8], name: String = "damaged.placeidx") throws -> String {
    let path = try TestPaths.temporaryDirectory().appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The sample index with one bit of the PLACE IDS section flipped (the damage that turned
  /// one place ID into another without any error before checksums were checked on load).
  func damagedPlaceIDs() throws -> (bytes: [UInt8], section: IndexFile.Section) {
    var bytes = FuzzHarness.sampleIndexBytes
    let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: "s")
    let s = try #require(file.section(.placeIDs))
    bytes[s.offset + s.length - 1] ^= 0x04
    return (bytes, s)
  }

  @Test("a flipped bit in a section is a checksum error at open, naming the section")
  func refusedAtOpen() throws {
    let (bytes, section) = try damagedPlaceIDs()
    let path = try write(bytes)
    var actual: UInt32 = 0
    bytes.withUnsafeBytes {
      actual = CRC32.checksum(
        UnsafeRawBufferPointer(rebasing: $0[section.offset..<(section.offset + section.length)]))
    }
    func hex(_ v: UInt32) -> String {
      let s = String(v, radix: 16)
      return "0x" + String(repeating: "0", count: 8 - s.count) + s
    }
    let expected = PlacesError.index(
      path: path, problem: .checksumMismatch(section: "PLACE IDS"),
      reason:
        "checksum mismatch in section PLACE IDS: stored \(hex(section.checksum)), computed \(hex(actual))"
    )
    #expect(expected.message.hasPrefix("\(path): checksum mismatch in section PLACE IDS"))
    #expect(throws: expected) { _ = try PlacesClient(indexPaths: [path]) }
    #expect(throws: expected) { _ = try PlacesClient(indexPaths: [path], loading: .copy) }
    #expect(throws: expected) { _ = try LoadedIndex(path: path) }
  }

  @Test("verification: .skip opens the damaged file; verify() still names the damage")
  func skipOptOut() throws {
    let (bytes, section) = try damagedPlaceIDs()
    let path = try write(bytes)
    let client = try PlacesClient(indexPaths: [path], verification: .skip)
    #expect(client.indexes[0].placeCount == FuzzHarness.sampleClient.indexes[0].placeCount)
    #expect {
      try client.indexes[0].verify()
    } throws: { error in
      guard
        case .index(path, .checksumMismatch(section: "PLACE IDS"), let reason) = error
          as? PlacesError, reason.contains("stored 0x"),
        reason.contains(String(section.checksum, radix: 16))
      else { return false }
      return true
    }
  }

  @Test("the CRC-32 is the IEEE one at every length and alignment (slicing-by-8)")
  func crcMatchesBytewise() {
    // The standard check value, and a byte-wise reference over many lengths and alignments.
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    var table = [UInt32](repeating: 0, count: 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      table[n] = c
    }
    var rng = SplitMix64(seed: 0xC4C)
    let data = (0..<300).map { _ in UInt8(rng.below(256)) }
    var mismatches = 0
    for start in 0..<9 {
      for end in stride(from: start, through: data.count, by: 7) {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in data[start..<end] { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        let reference = crc ^ 0xFFFF_FFFF
        let fast = data.withUnsafeBytes {
          CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<end]))
        }
        if fast != reference { mismatches += 1 }
      }
    }
    #expect(mismatches == 0)
  }

  @Test("loading: .copy keeps answering after the file is truncated and rewritten in place")
  func copySurvivesRewrite() throws {
    let path = try write(FuzzHarness.sampleIndexBytes, name: "live.placeidx")
    let client = try PlacesClient(indexPaths: [path], loading: .copy)
    let request = AutocompleteRequest(query: "sankt quirin")
    let before = PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
    #expect(before.contains("Sankt Quirin"))
    let id = try client.indexes[0].placeIDForTesting(rank: 0)
    // Rewritten in place, not renamed: truncated to nothing, then filled with other bytes.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
    try handle.close()
    let after = PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
    #expect(after == before)
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: id, placeProperties: [.placeID]))
    #expect(place.placeID == id)
  }

  @Test("an intact index opens the same with every combination of the options")
  func optionsAgree() throws {
    let path = FuzzHarness.sampleIndexPath
    let request = AutocompleteRequest(query: "apotheke")
    var answers: Set<String> = []
    for verification in [IndexVerification.checksums, .skip] {
      for loading in [IndexLoading.map, .copy] {
        let client = try PlacesClient(
          indexPaths: [path], verification: verification, loading: loading)
        answers.insert(
          PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request)))
      }
    }
    #expect(answers.count == 1)
    #expect(answers.first?.contains("placePrediction") == true)
  }
}
