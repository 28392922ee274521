import Foundation

/// Folds text to the form the index stores and queries are matched in.
///
/// One implementation shared by the builder and the reader, so they cannot drift apart.
/// Folding applies Unicode compatibility decomposition (NFKD: full-width letters, ligatures,
/// circled digits), removes diacritics (combining marks of the Latin, Greek, Cyrillic, Hebrew
/// and Arabic scripts; marks that carry meaning in Indic, Southeast Asian and kana scripts are
/// kept, decomposed), lowercases, and maps letters without a decomposition to their usual Latin
/// spelling ("ß" → "ss", "ø" → "o", "æ" → "ae", "þ" → "th", "ł" → "l").
public enum TextNormalizer {
  /// Folds case, width and diacritics: "Zürich" → "zurich", "Straße" → "strasse".
  ///
  /// This is the primary fold, the only one applied to queries. Punctuation is kept as it is
  /// (dashes become "-"); use ``Tokenizer/tokens(_:)`` to split text into searchable words.
  public static func fold<S: StringProtocol>(_ text: S) -> String {
    if let ascii = asciiFold(text) { return ascii }
    var buffer = FoldBuffer(alternate: false, wordOnly: false, tracksSources: false)
    for scalar in text.unicodeScalars { buffer.append(scalar, at: 0) }
    return buffer.string
  }

  /// Folds like ``fold(_:)`` but spells German and Nordic umlauts the alternate way:
  /// "ä" → "ae", "ö" → "oe", "ü" → "ue", "å" → "aa" ("Zürich" → "zuerich").
  ///
  /// Used for indexing only, so that both spellings find a place.
  public static func alternateFold<S: StringProtocol>(_ text: S) -> String {
    if let ascii = asciiFold(text) { return ascii }
    var buffer = FoldBuffer(alternate: true, wordOnly: false, tracksSources: false)
    for scalar in text.unicodeScalars { buffer.append(scalar, at: 0) }
    return buffer.string
  }

  /// The fold of pure ASCII text (lowercased), or nil when the text has other scalars.
  @inline(__always)
  static func asciiFold<S: StringProtocol>(_ text: S) -> String? {
    var hasUpper = false
    for byte in text.utf8 {
      if byte >= 0x80 { return nil }
      if byte &- 0x41 < 26 { hasUpper = true }
    }
    guard hasUpper else { return String(text) }
    return String(decoding: text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  /// Folds a run of source scalars; `base` is the source offset of the first one.
  static func fold(
    _ scalars: ArraySlice<Unicode.Scalar>, alternate: Bool = false, wordOnly: Bool,
    tracksSources: Bool = false
  ) -> FoldBuffer {
    var buffer = FoldBuffer(
      alternate: alternate, wordOnly: wordOnly, tracksSources: tracksSources,
      capacity: scalars.count)
    var offset = scalars.startIndex
    for scalar in scalars {
      buffer.append(scalar, at: offset)
      offset += 1
    }
    return buffer
  }
}

/// Folded scalars being accumulated, with the source offset each came from when asked for.
struct FoldBuffer: Sendable {
  /// The folded scalars.
  var scalars: [Unicode.Scalar] = []
  /// For each folded scalar, the offset of the source scalar it came from (when tracked).
  var sources: [Int] = []
  /// Spell umlauts the alternate way ("ä" → "ae").
  let alternate: Bool
  /// Keep only what belongs in a token: letters, digits, kept marks, "-" and "/"; drop
  /// apostrophes and other punctuation that compatibility decomposition may produce.
  let wordOnly: Bool
  /// Record `sources`.
  let tracksSources: Bool

  init(alternate: Bool, wordOnly: Bool, tracksSources: Bool, capacity: Int = 0) {
    self.alternate = alternate
    self.wordOnly = wordOnly
    self.tracksSources = tracksSources
    if capacity > 0 {
      scalars.reserveCapacity(capacity)
      if tracksSources { sources.reserveCapacity(capacity) }
    }
  }

  /// The folded text.
  var string: String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  /// Folds one source scalar standing at `offset` in its text.
  mutating func append(_ scalar: Unicode.Scalar, at offset: Int) {
    let value = scalar.value
    if value < 0x80 {
      appendASCII(value, at: offset)
      return
    }
    // Full-width ASCII forms.
    if value >= 0xFF01 && value <= 0xFF5E {
      appendASCII(value - 0xFEE0, at: offset)
      return
    }
    // A diaeresis or ring typed as a separate combining mark: alternate spelling depends on
    // the letter before it.
    if value == 0x308 || value == 0x30A {
      appendAlternateMark(value, at: offset)
      return
    }
    if let entry = FoldTable.shared.entry(for: value, alternate: alternate) {
      let table = FoldTable.shared.storage
      for index in entry { emit(table[index], at: offset) }
      return
    }
    // CJK ideographs and Hangul syllables fold to themselves (NFKD would split Hangul into jamo).
    if (value >= 0x3400 && value <= 0x9FFF) || (value >= 0xAC00 && value <= 0xD7A3) {
      emit(scalar, at: offset)
      return
    }
    appendDecomposing(scalar, at: offset)
  }

  /// Folds one scalar the slow way: compatibility decomposition through Foundation.
  mutating func appendDecomposing(_ scalar: Unicode.Scalar, at offset: Int) {
    let decomposed = String(scalar).decomposedStringWithCompatibilityMapping
    for part in decomposed.unicodeScalars { appendDecomposed(part, at: offset) }
  }

  @inline(__always)
  private mutating func appendASCII(_ value: UInt32, at offset: Int) {
    let lowered = value &- 0x41 < 26 ? value | 0x20 : value
    emit(Unicode.Scalar(UInt8(lowered)), at: offset)
  }

  /// Appends "e" after a, o, u for a diaeresis, "a" after a for a ring, in alternate mode.
  private mutating func appendAlternateMark(_ mark: UInt32, at offset: Int) {
    guard alternate, let last = scalars.last else { return }
    if mark == 0x308, last == "a" || last == "o" || last == "u" {
      emit("e", at: offset)
    } else if mark == 0x30A, last == "a" {
      emit("a", at: offset)
    }
  }

  /// Folds one scalar of a compatibility decomposition.
  private mutating func appendDecomposed(_ scalar: Unicode.Scalar, at offset: Int) {
    let value = scalar.value
    if value < 0x80 {
      appendASCII(value, at: offset)
      return
    }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark:
      if TextScalars.isDroppableMark(value) {
        if value == 0x308 || value == 0x30A { appendAlternateMark(value, at: offset) }
      } else {
        emit(scalar, at: offset)
      }
      return
    case .format:
      return
    default:
      break
    }
    if appendSpecial(scalar, at: offset) { return }
    if properties.changesWhenLowercased {
      for lowered in properties.lowercaseMapping.unicodeScalars {
        if !appendSpecial(lowered, at: offset) { emit(lowered, at: offset) }
      }
    } else {
      emit(scalar, at: offset)
    }
  }

  /// Letters without a decomposition that have a usual Latin spelling, and dash variants.
  private mutating func appendSpecial(_ scalar: Unicode.Scalar, at offset: Int) -> Bool {
    switch scalar.value {
    case 0xDF, 0x1E9E:  // ß ẞ
      emit("s", at: offset)
      emit("s", at: offset)
    case 0xD8, 0xF8:  // Ø ø
      emit("o", at: offset)
    case 0xC6, 0xE6:  // Æ æ
      emit("a", at: offset)
      emit("e", at: offset)
    case 0x152, 0x153:  // Œ œ
      emit("o", at: offset)
      emit("e", at: offset)
    case 0x110, 0x111, 0xD0, 0xF0:  // Đ đ Ð ð
      emit("d", at: offset)
    case 0x141, 0x142:  // Ł ł
      emit("l", at: offset)
    case 0xDE, 0xFE:  // Þ þ
      emit("t", at: offset)
      emit("h", at: offset)
    case 0x131:  // ı
      emit("i", at: offset)
    case 0x126, 0x127:  // Ħ ħ
      emit("h", at: offset)
    case 0x166, 0x167:  // Ŧ ŧ
      emit("t", at: offset)
    case 0x3C2:  // ς (case folding maps final sigma to σ)
      emit("\u{3C3}", at: offset)
    case 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63:  // dashes and minus
      emit("-", at: offset)
    default:
      return false
    }
    return true
  }

  /// Appends one folded scalar, filtering non-word punctuation in word-only mode.
  @inline(__always)
  private mutating func emit(_ scalar: Unicode.Scalar, at offset: Int) {
    if wordOnly {
      let value = scalar.value
      if value < 0x80 {
        guard TextScalars.isASCIIAlphanumeric(value) || value == 0x2D || value == 0x2F else {
          return
        }
      } else if TextScalars.isIntraWordPunctuation(value) {
        return
      }
    }
    scalars.append(scalar)
    if tracksSources { sources.append(offset) }
  }
}

/// Precomputed folds of the scalars met most often in place names: Latin-1, Latin Extended,
/// IPA, Greek, Cyrillic, Armenian, Hebrew, Arabic, Latin Extended Additional (Vietnamese),
/// Greek Extended, general punctuation, letterlike symbols and number forms.
///
/// The table is generated (`FoldTable+Data.swift`), so that the first fold of a process costs
/// no Unicode decomposition and every platform's builder and reader fold these scalars alike;
/// ``computed()`` is its definition, and `FoldTableDataTests` checks that the two agree.
struct FoldTable: Sendable, Equatable {
  /// The generated table (thread-safe lazy initialization of a global).
  static let shared: FoldTable = {
    // The alternate fold is the primary one but in the slots the generated list names.
    var alternate = FoldTable.generatedPrimary
    let changes = FoldTable.generatedAlternateChanges
    for i in stride(from: 0, to: changes.count, by: 2) {
      alternate[Int(changes[i])] = changes[i + 1]
    }
    return FoldTable(
      storage: FoldTable.generatedStorage.map { Unicode.Scalar($0)! },
      primary: FoldTable.generatedPrimary, alternate: alternate)
  }()

  /// All folded outputs, concatenated.
  let storage: [Unicode.Scalar]
  /// Per table slot: start in `storage` << 8 | count, for the primary fold.
  let primary: [UInt32]
  /// Per table slot: start in `storage` << 8 | count, for the alternate fold.
  let alternate: [UInt32]

  private static let firstRange: Range<UInt32> = 0x80..<0x800
  private static let secondRange: Range<UInt32> = 0x1E00..<0x2200

  init(storage: [Unicode.Scalar], primary: [UInt32], alternate: [UInt32]) {
    self.storage = storage
    self.primary = primary
    self.alternate = alternate
  }

  /// The table computed from its definition: each scalar's compatibility decomposition
  /// (through Foundation), folded as ``FoldBuffer`` folds.
  static func computed() -> FoldTable {
    var storage: [Unicode.Scalar] = []
    var primary: [UInt32] = []
    var alternate: [UInt32] = []
    let values = Array(Self.firstRange) + Array(Self.secondRange)
    primary.reserveCapacity(values.count)
    alternate.reserveCapacity(values.count)
    for value in values {
      guard let scalar = Unicode.Scalar(value) else {
        primary.append(0)
        alternate.append(0)
        continue
      }
      var first = FoldBuffer(alternate: false, wordOnly: false, tracksSources: false)
      first.appendDecomposing(scalar, at: 0)
      var second = FoldBuffer(alternate: true, wordOnly: false, tracksSources: false)
      second.appendDecomposing(scalar, at: 0)
      primary.append(UInt32(storage.count) << 8 | UInt32(first.scalars.count))
      storage.append(contentsOf: first.scalars)
      if second.scalars == first.scalars {
        alternate.append(primary[primary.count - 1])
      } else {
        alternate.append(UInt32(storage.count) << 8 | UInt32(second.scalars.count))
        storage.append(contentsOf: second.scalars)
      }
    }
    return FoldTable(storage: storage, primary: primary, alternate: alternate)
  }

  /// The indices in `storage` of the fold of `value`, or nil when the table does not cover it.
  @inline(__always)
  func entry(for value: UInt32, alternate useAlternate: Bool) -> Range<Int>? {
    let slot: Int
    if Self.firstRange.contains(value) {
      slot = Int(value - Self.firstRange.lowerBound)
    } else if Self.secondRange.contains(value) {
      slot = Self.firstRange.count + Int(value - Self.secondRange.lowerBound)
    } else {
      return nil
    }
    let packed = useAlternate ? alternate[slot] : primary[slot]
    let start = Int(packed >> 8)
    return start..<(start + Int(packed & 0xFF))
  }
}

/// Character classes shared by folding and tokenizing.
enum TextScalars {
  /// ASCII letter or digit.
  @inline(__always)
  static func isASCIIAlphanumeric(_ value: UInt32) -> Bool {
    value &- 0x30 < 10 || (value | 0x20) &- 0x61 < 26
  }

  /// ASCII or full-width decimal digit.
  @inline(__always)
  static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value &- 0x30 < 10 || value &- 0xFF10 < 10
  }

  /// Apostrophes and middle dots: dropped when they stand inside a word ("McDonald's",
  /// "l'Église", Catalan "Paral·lel").
  @inline(__always)
  static func isIntraWordPunctuation(_ value: UInt32) -> Bool {
    switch value {
    case 0x27, 0x60, 0xB4, 0xB7, 0x2BC, 0x2018, 0x2019, 0x2027, 0xFF07: return true
    default: return false
    }
  }

  /// Apostrophes only (not middle dots).
  @inline(__always)
  static func isApostrophe(_ value: UInt32) -> Bool {
    isIntraWordPunctuation(value) && value != 0xB7 && value != 0x2027
  }

  /// "/" and "-" variants that join the parts of a housenumber ("3191/17", "23-30").
  @inline(__always)
  static func isNumberJoiner(_ value: UInt32) -> Bool {
    switch value {
    case 0x2D, 0x2F, 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D, 0xFF0F: return true
    default: return false
    }
  }

  /// Combining marks removed by folding: diacritics of the Latin, Greek, Cyrillic, Armenian,
  /// Hebrew, Arabic and neighbouring scripts, the generic combining blocks and variation
  /// selectors. Marks of Indic, Southeast Asian and kana scripts carry meaning and stay.
  @inline(__always)
  static func isDroppableMark(_ value: UInt32) -> Bool {
    value < 0x900 || (0x1AB0...0x1AFF).contains(value) || (0x1DC0...0x1DFF).contains(value)
      || (0x20D0...0x20FF).contains(value) || (0xFE00...0xFE0F).contains(value)
      || (0xFE20...0xFE2F).contains(value) || (0xE0100...0xE01EF).contains(value)
  }

  /// Letters, digits and combining marks: what words are made of.
  @inline(__always)
  static func isWord(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 { return isASCIIAlphanumeric(value) }
    if isIntraWordPunctuation(value) { return false }
    let properties = scalar.properties
    if properties.isAlphabetic || properties.numericType != nil { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// Invisible formatting (soft hyphen, zero-width joiners, direction marks).
  @inline(__always)
  static func isFormat(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0xAD && scalar.properties.generalCategory == .format
  }
}
