/// The Pinyin of every Han character (as ``EastAsianSpelling/isHan(_:)`` counts them): ICU's
/// "Han-Latin; Latin-ASCII; Lower" transform of each character, lower case without tones,
/// kept in a table generated from it (`PinyinTable+Data.swift`, checked against ICU by
/// `PinyinTableDataTests`). Reading the table costs nothing up front, where ICU parses the
/// transform's rules the first time a process asks: 63 to 79 ms, 8% of a city's build.
package enum PinyinTable {
  /// The characters the table covers, in the order of ``generatedReadings``: those of
  /// ``EastAsianSpelling/isHan(_:)``.
  static let ranges: [ClosedRange<UInt32>] = [
    0x3007...0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x323AF,
  ]

  /// The syllables, in the order ``generatedReadings`` numbers them from 1.
  private static let syllables: [String] = generatedSyllables.split(
    whereSeparator: { $0 == " " || $0 == "\n" }
  ).map(String.init)

  /// Per character of ``ranges``, in order: its syllable's number in ``syllables`` + 1, or 0
  /// when ICU has no reading for it.
  private static let readings: [UInt16] = decode(generatedReadings)

  /// The digits of a reading: two per character, most significant first.
  static let digits = Array("0123456789abcdefghijklmnopqrstuv".utf8)

  /// The numbers a text of ``digits`` pairs holds (line breaks skipped).
  static func decode(_ text: String) -> [UInt16] {
    var value = [UInt8](repeating: 0xFF, count: 256)
    for (i, d) in digits.enumerated() { value[Int(d)] = UInt8(i) }
    var out: [UInt16] = []
    out.reserveCapacity(text.utf8.count / 2)
    var high: UInt16? = nil
    for byte in text.utf8 {
      let v = value[Int(byte)]
      guard v != 0xFF else { continue }
      if let h = high {
        out.append(h << 5 | UInt16(v))
        high = nil
      } else {
        high = UInt16(v)
      }
    }
    return out
  }

  /// The Pinyin of `s`, a Han character (``EastAsianSpelling/isHan(_:)``), lower case without
  /// tones ("京" → "jing"); the character itself when ICU has none, or when it is not Han.
  package static func pinyin(_ s: Unicode.Scalar) -> String {
    var base = 0
    for r in ranges {
      if r.contains(s.value) {
        let n = Int(readings[base + Int(s.value - r.lowerBound)])
        return n == 0 ? String(s) : syllables[n - 1]
      }
      base += r.count
    }
    return String(s)
  }
}
