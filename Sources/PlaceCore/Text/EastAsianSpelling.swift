import Foundation

/// ICU's transforms through Foundation, with their answers kept: one run of Kana's Hepburn (a
/// Han character's Pinyin is read from ``PinyinTable``, generated from ICU). The builder
/// indexes these spellings beside a name (`Transliteration` in PlaceIndexBuilder); the reader
/// asks them only to map a Latin query that matched one back onto the displayed characters
/// (``EastAsianSpelling``).
package final class ICUTransforms: @unchecked Sendable {
  // @unchecked: the caches are read and written only while holding `lock`.
  package static let shared = ICUTransforms()
  private let lock = NSLock()
  private var kana: [String: String] = [:]

  /// The Hepburn spelling of a run of Hiragana or Katakana, lower case without macrons
  /// ("スカイツリー" → "sukaitsuri").
  package func latin(kanaRun run: String) -> String {
    lock.lock()
    if let known = kana[run] {
      lock.unlock()
      return known
    }
    lock.unlock()
    var latin =
      Self.transform(run, "Hiragana-Latin; Katakana-Latin; Latin-ASCII; Lower") ?? run
    // The long-vowel mark and the middle dot ICU leaves as punctuation.
    latin = String(latin.unicodeScalars.filter { $0.value < 0x80 && $0 != "~" && $0 != "'" })
    if latin.isEmpty { latin = run }
    lock.lock()
    // Runs are many in a country's data: the kept answers are bounded.
    if kana.count >= 1 << 16 { kana.removeAll(keepingCapacity: true) }
    kana[run] = latin
    lock.unlock()
    return latin
  }

  package static func transform(_ text: String, _ id: String) -> String? {
    text.applyingTransform(StringTransform(id), reverse: false)
  }
}

/// The characters of a name in Han or Kana that a Latin query matched through the spellings
/// the builder indexed: Han one Pinyin syllable per character (apart, or a run of them
/// together), Kana in Hepburn per run of Kana (a word of its own).
package enum EastAsianSpelling {
  /// A Han character (as the builder spells them).
  package static func isHan(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x4E00 < 0x5200 || s.value &- 0x3400 < 0x19C0 || s.value &- 0xF900 < 0x200
      || s.value &- 0x20000 < 0x123B0 || s.value == 0x3007
  }

  /// A Hiragana or Katakana character, with the marks and the half-width forms.
  package static func isKana(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x3041 < 0x5F || s.value &- 0x30A0 < 0x60 || s.value &- 0x31F0 < 0x10
      || s.value &- 0xFF66 < 0x3A
  }

  /// The offsets in `token` of the characters whose spelling the folded Latin `query` typed,
  /// or nil when it spells none of them. A query covers a Han character when it reaches into
  /// its syllable, from the first syllable on that it starts ("shan" on 中山 → 山; "zhongsh"
  /// → 中山); a run of Kana from its start, as far as the spelling of its first characters
  /// reaches ("sukai" on スカイツリー → スカイ). In a `japanese` name (the builder's rule:
  /// one with Kana) Han has no spelling; `japanese` is asked only for a token in Han or Kana
  /// (the caller scans the whole name for it).
  package static func coveredRange(
    of query: [Unicode.Scalar], in token: [Unicode.Scalar], japanese: @autoclosure () -> Bool
  ) -> Range<Int>? {
    guard !query.isEmpty, query.allSatisfy({ $0.value < 0x80 }),
      token.contains(where: { isKana($0) || isHan($0) })
    else { return nil }
    let japanese = japanese()
    let q = String(String.UnicodeScalarView(query))
    var i = 0
    while i < token.count {
      let s = token[i]
      if isKana(s) {
        var end = i
        while end < token.count && isKana(token[end]) { end += 1 }
        if let covered = kanaCovered(q, run: token[i..<end]) { return i..<(i + covered) }
        i = end
      } else if !japanese && isHan(s) {
        if let end = hanCovered(q, from: i, in: token) { return i..<end }
        i += 1
      } else {
        i += 1
      }
    }
    return nil
  }

  /// The end of the Han syllables from `start` on that `query` spells (the last one may be
  /// typed in part), or nil.
  private static func hanCovered(_ query: String, from start: Int, in token: [Unicode.Scalar])
    -> Int?
  {
    var rest = Substring(query)
    var j = start
    while j < token.count && isHan(token[j]) {
      let syllable = PinyinTable.pinyin(token[j])
      guard syllable.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
      if rest.count <= syllable.count { return syllable.hasPrefix(rest) ? j + 1 : nil }
      guard rest.hasPrefix(syllable) else { return nil }
      rest = rest.dropFirst(syllable.count)
      j += 1
    }
    return nil
  }

  /// The characters of a run of Kana that `query` spells from its start: the fewest whose
  /// own spelling starts with it (all of them when it spells the whole run), or nil.
  private static func kanaCovered(_ query: String, run: ArraySlice<Unicode.Scalar>) -> Int? {
    let whole = ICUTransforms.shared.latin(kanaRun: String(String.UnicodeScalarView(run)))
    guard whole.hasPrefix(query) else { return nil }
    if query.count == whole.count { return run.count }
    for k in 1..<run.count {
      let part = String(String.UnicodeScalarView(run.prefix(k)))
      if ICUTransforms.shared.latin(kanaRun: part).hasPrefix(query) { return k }
    }
    return run.count
  }
}
