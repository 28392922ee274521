import Foundation
import PlaceCore

/// Latin spellings of names in other scripts, indexed beside the name so that a query typed
/// on a Latin keyboard finds it ("sberbank" for Сбербанк, "akropoli" for Ακρόπολη, "beijing"
/// for 北京, "sukaitsuri" for スカイツリー). Build time only: the reader sees the terms.
///
/// Cyrillic, Greek, Hebrew, Arabic and Hangul follow PlaceCore's table (`LatinTransliteration`, which
/// the reader also uses to highlight the letters a Latin query matched). Han is written in
/// Pinyin without tones (PlaceCore's `PinyinTable`, generated from ICU's transform) and Kana in
/// Hepburn, by ICU's transform through Foundation (PlaceCore's `ICUTransforms`); the reader
/// uses both to highlight the characters a Latin query matched. ICU has no Japanese readings of
/// Han: in Japan only the Kana are written in Latin.
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

  static func isHan(_ s: Unicode.Scalar) -> Bool { EastAsianSpelling.isHan(s) }

  static func isKana(_ s: Unicode.Scalar) -> Bool { EastAsianSpelling.isKana(s) }

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
        put(PinyinTable.pinyin(s), han: true)
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
