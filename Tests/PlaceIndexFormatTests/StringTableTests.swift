import Foundation
import TestSupport
import Testing

@testable import PlaceIndexFormat

/// STRINGS: front-coded blocks of Huffman-coded text.
@Suite struct StringTableTests {
  /// Reads `bytes` as STRINGS at file offset 1000 and calls `body` with the table.
  static func withTable<T>(_ bytes: [UInt8], _ body: (StringTable) throws -> T) throws -> T {
    let mapped = MappedBytes(copying: bytes)
    return try withExtendedLifetime(mapped) {
      try body(try StringTable(mapped.buffer, fileOffset: 1000))
    }
  }

  static func serialize(_ strings: [String]) -> (bytes: [UInt8], builder: StringTableBuilder) {
    var b = StringTableBuilder()
    for s in strings { b.insert(s) }
    b.freeze()
    return (b.serialize(), b)
  }

  @Test func bytesMatchTheDocumentedLayout() throws {
    // Residual text "ab" and "c" and the end symbol: four equal weights, four 2-bit codes in
    // symbol order: a 00, b 01, c 10, end 11.
    let (bytes, _) = Self.serialize(["abc", "ab"])
    var lengths = [UInt8](repeating: 0, count: 257)
    for s in [97, 98, 99, 256] { lengths[s] = 2 }
    var expected = lengths
    expected += [2, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]  // count, block size, block 0 at 0
    expected += [2, 0, 0b0001_1111]  // "ab": shares 0; 00 01, padded with 1 bits
    expected += [2, 2, 0b1011_1111]  // "abc": shares 2 ("ab"); 10, padded
    #expect(bytes == expected)
    try Self.withTable(bytes) { (table: StringTable) throws in
      #expect(try table.string(0) == "ab")
      #expect(try table.string(1) == "abc")
    }
  }

  /// Seeded property test: every string reads back by its id, in any order, from blocks of
  /// strings sharing prefixes, with any bytes (UTF-8 of any script, empty strings).
  @Test(arguments: [1, 2, 3, 4, 5, 6])
  func everyStringReadsBack(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let alphabet = Array("aaaabbcdeeeeefghiiklmnnoorssttuzäöüß 0123456789-.'ÅŻЖ中🙂")
    var strings = Set<String>()
    let count = Int(rng.next() % 600) + 1
    var stem = ""
    for _ in 0..<count {
      // Runs of strings sharing a stem, as streets and their house numbers do.
      if rng.next() % 4 == 0 || stem.isEmpty {
        stem = String((0..<Int(rng.next() % 12)).map { _ in alphabet[Int(rng.next() % 54)] })
      }
      let tail = String((0..<Int(rng.next() % 6)).map { _ in alphabet[Int(rng.next() % 54)] })
      strings.insert(stem + tail)
    }
    if seed == 1 { strings.insert("") }
    let (bytes, builder) = Self.serialize(Array(strings))
    let order = rng.shuffled(Array(strings))
    try Self.withTable(bytes) { (table: StringTable) throws in
      try table.verify()
      #expect(table.count == strings.count)
      for s in order { #expect(try table.string(builder.id(s)) == s) }
    }
  }

  /// Codes stay within 24 bits even for weights that would make a Huffman tree deeper, and
  /// the end symbol's code is the last one, all 1 bits.
  @Test func skewedTextGetsCodesOfAtMost24Bits() throws {
    var frequencies = [Int](repeating: 0, count: 256)
    for s in 0..<40 { frequencies[s] = 1 << s }
    // Unlimited, the rarest symbols would get codes of up to 40 bits.
    #expect(HuffmanCode.huffmanLengths(frequencies + [1]).max()! > 24)
    let code = HuffmanCode.fitting(frequencies)
    let lengths = code.lengths.map(Int.init)
    #expect(lengths.max()! <= 24)
    #expect(lengths[256] == lengths.max())
    // Complete: the codes fill the code space exactly (sum of 2^-length is 1).
    var space = 0
    for l in lengths where l > 0 { space += 1 << (24 - l) }
    #expect(space == 1 << 24)
    var text: [UInt8] = []
    for s in 0..<40 { text += [UInt8](repeating: UInt8(s), count: 1 + s % 3) }
    var w = ByteWriter()
    code.encode(text, into: &w)
    var back: [UInt8] = []
    let mapped = MappedBytes(copying: w.bytes)
    try withExtendedLifetime(mapped) {
      try code.decode(ByteReader(mapped.buffer, section: "TEST"), into: &back, upTo: .max)
    }
    #expect(back == text)
  }

  @Test func codeLengthsThatAreNoPrefixCodeAreRefusedAtOpen() throws {
    let (good, _) = Self.serialize(["x", "y"])
    // Three 1-bit codes; then a 25-bit code.
    var oversubscribed = good
    for s in 0..<3 { oversubscribed[s] = 1 }
    var tooLong = good
    tooLong[5] = 25
    for bytes in [oversubscribed, tooLong] {
      do {
        try Self.withTable(bytes) { _ in }
        Issue.record("code lengths that are no prefix code were accepted")
      } catch let IndexFormatError.corrupt(_, section, offset, reason) {
        #expect(section == "STRINGS" && offset == 1000)
        #expect(reason.contains("code lengths"))
      }
    }
  }

  @Test func codesThatDoNotDecodeGiveTypedErrors() throws {
    // "x" and "y" and the end symbol: x 0, y 10, end 11 (weights 1, 1, 1; ties by symbol,
    // then the end symbol takes the longest code).
    let (bytes, _) = Self.serialize(["x", "y"])
    try Self.withTable(bytes) { (table: StringTable) throws in
      #expect(try table.string(0) == "x")
      #expect(try table.string(1) == "y")
    }
    let itemArea = 257 + 12
    #expect(Array(bytes[itemArea...]) == [2, 0, 0b0111_1111, 2, 0, 0b1011_1111])
    // Item 1's byte as 10 10 10 10: "yyyy".
    var bad = bytes
    bad[itemArea + 5] = 0b1010_1010
    try Self.withTable(bad) { (table: StringTable) throws in
      #expect(try table.string(1) == "yyyy")
    }
    // x as 00 leaves the code incomplete (x 00, y 01, end 10): item 0's 01 11… has no code.
    bad = bytes
    bad[Int(UInt8(ascii: "x"))] = 2
    try Self.withTable(bad) { (table: StringTable) throws in
      expectCorrupt("STRINGS") { try table.string(0) }
      expectCorrupt("STRINGS") { try table.verify() }
    }
    // A first string that claims to share a byte with a string before it.
    bad = bytes
    bad[itemArea + 1] = 1
    try Self.withTable(bad) { (table: StringTable) throws in
      expectCorrupt("STRINGS") { try table.string(0) }
      expectCorrupt("STRINGS") { try table.verify() }
    }
  }
}
