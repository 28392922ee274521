import Foundation
import PlaceCore

/// Latin spellings of names in other scripts, indexed beside the name so that a query typed
/// on a Latin keyboard finds it ("sberbank" for Сбербанк, "akropoli" for Ακρόπολη, "beijing"
/// for 北京, "sukaitsuri" for スカイツリー). Build time only: the reader sees the terms.
///
/// Cyrillic, Greek, Hebrew, Arabic and Hangul follow PlaceCore's table (`LatinTransliteration`, which
/// the reader also uses to highlight the letters a Latin query matched). Han is written in
/// Pinyin without tones and Kana in Hepburn, by ICU's transforms through Foundation (ICU has
/// no Japanese readings of Han: in Japan only the Kana are written in Latin).
enum Transliteration {
  /// The Latin spellings of `text` (lower case, other characters kept), or none when it has
  /// no letter of a script written in Latin here. Han gives its syllables apart and, when
  /// there are several, all of them run together ("bei jing", "beijing"): Chinese does not
  /// mark words, and the reader joins only two tokens.
  static func latin(_ text: String, countryCode: String?) -> [String] {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return [] }
    let spellings = LatinTransliteration.latin(text, countryCode: countryCode)
    guard text.unicodeScalars.contains(where: { isHan($0) || isKana($0) }) else {
      return spellings
    }
    let base = spellings.first ?? text.lowercased()
    let japanese =
      countryCode?.uppercased() == "JP" || base.unicodeScalars.contains(where: isKana)
    let (spaced, joined) = eastAsian(base, japanese: japanese)
    guard spaced != base else { return spellings }
    return joined == spaced ? [spaced] : [spaced, joined]
  }

  /// The BCP 47 tag of the Latin spelling of `text`, as OSM writes it in name keys
  /// ("ru-Latn", "el-Latn", "zh-Latn").
  static func languageTag(_ text: String, countryCode: String?) -> String {
    let scalars = text.unicodeScalars
    if scalars.contains(where: isKana) || (countryCode?.uppercased() == "JP") {
      return "ja-Latn"
    }
    if scalars.contains(where: isHan) { return "zh-Latn" }
    if scalars.contains(where: LatinTransliteration.isGreek) { return "el-Latn" }
    if scalars.contains(where: LatinTransliteration.isHangul) { return "ko-Latn" }
    if scalars.contains(where: LatinTransliteration.isHebrew) { return "he-Latn" }
    if scalars.contains(where: LatinTransliteration.isArabic) {
      switch countryCode?.uppercased() {
      case "IR", "AF": return "fa-Latn"
      default: return "ar-Latn"
      }
    }
    switch LatinTransliteration.Language(countryCode: countryCode) {
    case .russian: return "ru-Latn"
    case .ukrainian: return "uk-Latn"
    case .belarusian: return "be-Latn"
    case .bulgarian: return "bg-Latn"
    case .serbian: return "sr-Latn"
    }
  }

  /// `text` with the first letter of each word in upper case ("ulitsa goncharova" →
  /// "Ulitsa Goncharova").
  static func capitalized(_ text: String) -> String {
    var out = ""
    var atStart = true
    for c in text {
      out += atStart ? c.uppercased() : String(c)
      atStart = c == " " || c == "-"
    }
    return out
  }

  static func isHan(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x4E00 < 0x5200 || s.value &- 0x3400 < 0x19C0 || s.value &- 0xF900 < 0x200
      || s.value &- 0x20000 < 0x12000 || s.value == 0x3007
  }

  static func isKana(_ s: Unicode.Scalar) -> Bool {
    s.value &- 0x3041 < 0x5F || s.value &- 0x30A0 < 0x60 || s.value &- 0x31F0 < 0x10
      || s.value &- 0xFF66 < 0x3A
  }

  /// `text` with its Han (unless `japanese`) and its runs of Kana in Latin, each Han
  /// syllable and each Kana run a word of its own; the rest kept. Second, the same with the
  /// syllables of each run of Han run together ("bei jing" and "beijing").
  static func eastAsian(_ text: String, japanese: Bool) -> (spaced: String, joined: String) {
    var spaced = String.UnicodeScalarView()
    var joined = String.UnicodeScalarView()
    var kana = ""
    var lastWasHan = false
    func separate(_ out: inout String.UnicodeScalarView) {
      if let last = out.last, last != " " { out.append(" ") }
    }
    func put(_ word: String, han: Bool) {
      separate(&spaced)
      spaced.append(contentsOf: word.unicodeScalars)
      spaced.append(" ")
      if !(han && lastWasHan) { separate(&joined) }
      joined.append(contentsOf: word.unicodeScalars)
      lastWasHan = han
    }
    func flushKana() {
      guard !kana.isEmpty else { return }
      put(ICUTransforms.shared.latin(kanaRun: kana), han: false)
      kana = ""
    }
    for s in text.unicodeScalars {
      if isKana(s) {
        kana.unicodeScalars.append(s)
        continue
      }
      flushKana()
      if isHan(s) && !japanese {
        put(ICUTransforms.shared.pinyin(s), han: true)
        continue
      }
      if lastWasHan || spaced.last == " " {
        // After a spelled word: a space, or the next word starts apart.
        if s == " " { continue }
        separate(&spaced)
        separate(&joined)
      }
      lastWasHan = false
      spaced.append(s)
      joined.append(s)
    }
    flushKana()
    while spaced.last == " " { spaced.removeLast() }
    while joined.last == " " { joined.removeLast() }
    return (String(spaced), String(joined))
  }
}

/// ICU's transforms through Foundation, with their answers kept: one Han character's Pinyin,
/// one run of Kana's Hepburn.
final class ICUTransforms: @unchecked Sendable {
  // @unchecked: the caches are read and written only while holding `lock`.
  static let shared = ICUTransforms()
  private let lock = NSLock()
  private var han: [Unicode.Scalar: String] = [:]
  private var kana: [String: String] = [:]

  /// The Pinyin of one Han character, lower case without tones ("京" → "jing"); the
  /// character itself when ICU has none.
  func pinyin(_ s: Unicode.Scalar) -> String {
    lock.lock()
    if let known = han[s] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let latin = Self.transform(String(s), "Han-Latin; Latin-ASCII; Lower") ?? String(s)
    let clean = latin.unicodeScalars.allSatisfy({ $0.value < 0x80 }) ? latin : String(s)
    lock.lock()
    han[s] = clean
    lock.unlock()
    return clean
  }

  /// The Hepburn spelling of a run of Hiragana or Katakana, lower case without macrons
  /// ("スカイツリー" → "sukaitsuri").
  func latin(kanaRun run: String) -> String {
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

  static func transform(_ text: String, _ id: String) -> String? {
    text.applyingTransform(StringTransform(id), reverse: false)
  }
}
