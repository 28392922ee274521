/// Street-type, direction and title abbreviations per language, used both ways when indexing
/// ("Main Street" is also indexed as "st", "Main St" as "street") and when highlighting.
///
/// Parsed from the text of `Data/abbreviations.tsv`; this type does no file I/O, so the
/// builder can read the file and store its text inside the index for the reader.
public struct Abbreviations: Sendable {
  /// One row of the table.
  public struct Entry: Sendable, Hashable {
    /// Language code ("en", "de", "fi", ...).
    public var language: String
    /// Folded full form ("street", "strasse").
    public var full: String
    /// Folded abbreviations ("st"; "str").
    public var abbreviations: [String]
    /// Whether the full form also appears glued to the end of compound words
    /// ("strasse" in "Kanalstrasse", "katu" in "Yrjönkatu").
    public var isSuffix: Bool

    /// Creates an entry; `full` and `abbreviations` should already be folded.
    public init(language: String, full: String, abbreviations: [String], isSuffix: Bool) {
      self.language = language
      self.full = full
      self.abbreviations = abbreviations
      self.isSuffix = isSuffix
    }
  }

  /// A suffix entry prepared for matching the ends of words.
  struct SuffixRule: Sendable {
    var full: [Unicode.Scalar]
    var fullText: String
    var abbreviations: [[Unicode.Scalar]]
    var abbreviationTexts: [String]
  }

  /// The table's parts, in one object: a copy of the table retains one object, not six. Every
  /// thread querying an index copies its table; each retain of an object that threads share
  /// moves the cache line of its count between their cores.
  private final class Storage: Sendable {
    let entries: [Entry]
    let wordVariants: [String: [String]]
    let suffixRules: [SuffixRule]
    let suffixAbbreviationFulls: [String: [String]]
    let suffixEndings: Set<UInt64>
    let suffixLetters: Set<UInt32>

    init(
      entries: [Entry], wordVariants: [String: [String]], suffixRules: [SuffixRule],
      suffixAbbreviationFulls: [String: [String]], suffixEndings: Set<UInt64>,
      suffixLetters: Set<UInt32>
    ) {
      self.entries = entries
      self.wordVariants = wordVariants
      self.suffixRules = suffixRules
      self.suffixAbbreviationFulls = suffixAbbreviationFulls
      self.suffixEndings = suffixEndings
      self.suffixLetters = suffixLetters
    }
  }

  private let storage: Storage

  /// The rows of the table, in file order.
  public var entries: [Entry] { storage.entries }
  /// Whole-word variants both ways: full form → abbreviations, abbreviation → full forms.
  var wordVariants: [String: [String]] { storage.wordVariants }
  /// Entries whose full form is glued to the end of compound words.
  var suffixRules: [SuffixRule] { storage.suffixRules }
  /// Folded abbreviations of suffix entries, for recognizing "Kanal Str." as "kanalstrasse".
  var suffixAbbreviationFulls: [String: [String]] { storage.suffixAbbreviationFulls }
  /// The last two scalars of every suffix full form and abbreviation of 2 or more scalars,
  /// packed by ``endingKey(_:)``: words ending otherwise need no suffix matching.
  var suffixEndings: Set<UInt64> { storage.suffixEndings }
  /// The one-scalar abbreviations of suffix entries ("k" for "katu").
  var suffixLetters: Set<UInt32> { storage.suffixLetters }

  /// An empty table: no abbreviation variants.
  public static let empty = Abbreviations(entries: [])

  /// Creates a table from entries (folded).
  public init(entries: [Entry]) {
    var variants: [String: [String]] = [:]
    func add(_ key: String, _ value: String) {
      guard key != value else { return }
      var list = variants[key, default: []]
      if !list.contains(value) { list.append(value) }
      variants[key] = list
    }
    var rules: [SuffixRule] = []
    var suffixFulls: [String: [String]] = [:]
    for entry in entries {
      for abbreviation in entry.abbreviations {
        add(entry.full, abbreviation)
        add(abbreviation, entry.full)
      }
      guard entry.isSuffix else { continue }
      rules.append(
        SuffixRule(
          full: Array(entry.full.unicodeScalars), fullText: entry.full,
          abbreviations: entry.abbreviations.map { Array($0.unicodeScalars) },
          abbreviationTexts: entry.abbreviations))
      for abbreviation in entry.abbreviations
      where !suffixFulls[abbreviation, default: []].contains(entry.full) {
        suffixFulls[abbreviation, default: []].append(entry.full)
      }
    }
    var endings = Set<UInt64>()
    var letters = Set<UInt32>()
    for rule in rules {
      for form in [rule.full] + rule.abbreviations {
        if let key = Self.endingKey(form[...]) {
          endings.insert(key)
        } else if let letter = form.first {
          letters.insert(letter.value)
        }
      }
    }
    storage = Storage(
      entries: entries, wordVariants: variants, suffixRules: rules,
      suffixAbbreviationFulls: suffixFulls, suffixEndings: endings, suffixLetters: letters)
  }

  /// The last two scalars of a word packed in one integer, or nil for shorter words.
  @inline(__always)
  static func endingKey(_ word: ArraySlice<Unicode.Scalar>) -> UInt64? {
    guard word.count >= 2 else { return nil }
    let last = word[word.endIndex - 1].value
    let penultimate = word[word.endIndex - 2].value
    return UInt64(penultimate) << 32 | UInt64(last)
  }

  /// Parses the tab-separated table: a header line naming the columns `language`, `full`,
  /// `abbreviations` and `suffix` (any order, extra columns ignored), then one row per full
  /// form. Blank lines and lines starting with `#` are skipped. Values are folded with
  /// ``TextNormalizer`` and a trailing "." of an abbreviation is ignored ("k." = "k"); each
  /// value must fold to exactly one token.
  public init(tsv: String) throws(TableError) {
    let table: DataTable
    do {
      table = try DataTable(tsv, required: ["language", "full", "abbreviations", "suffix"])
    } catch {
      throw TableError(table: "abbreviations.tsv", line: error.line, message: error.message)
    }
    var entries: [Entry] = []
    for row in table.rows { entries.append(try Self.parseRow(row)) }
    self.init(entries: entries)
  }

  /// Parses one data row.
  private static func parseRow(_ row: DataTable.Row) throws(TableError) -> Entry {
    let line = row.line
    let language = row["language"].lowercased()
    guard !language.isEmpty, language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) })
    else {
      throw TableError(
        table: "abbreviations.tsv", line: line, message: "invalid language '\(language)'")
    }
    let full = try word(row["full"], what: "full form", line: line)
    var abbreviations: [String] = []
    for part in row["abbreviations"].split(separator: ",") {
      let raw = DataTable.trim(part)
      if raw.isEmpty { continue }
      let abbreviation = try word(raw, what: "abbreviation", line: line)
      if abbreviation != full && !abbreviations.contains(abbreviation) {
        abbreviations.append(abbreviation)
      }
    }
    let isSuffix: Bool
    switch row["suffix"].lowercased() {
    case "yes", "y", "true", "1": isSuffix = true
    case "no", "n", "false", "0", "": isSuffix = false
    case let other:
      throw TableError(
        table: "abbreviations.tsv", line: line, message: "suffix must be yes or no, not '\(other)'")
    }
    return Entry(
      language: language, full: full, abbreviations: abbreviations, isSuffix: isSuffix)
  }

  /// Folds a table value that must be one word.
  private static func word(_ raw: String, what: String, line: Int) throws(TableError)
    -> String
  {
    let tokens = Tokenizer.tokens(raw)
    guard tokens.count == 1 else {
      throw TableError(
        table: "abbreviations.tsv", line: line,
        message: "\(what) '\(raw)' must be one word, found \(tokens.count)")
    }
    return tokens[0].text
  }

  /// The same table keeping only the given languages (e.g. the languages of a country).
  public func restricted(toLanguages languages: Set<String>) -> Abbreviations {
    Abbreviations(entries: entries.filter { languages.contains($0.language) })
  }

  /// The whole-word variants of a folded word: its abbreviations if it is a full form, its full
  /// forms if it is an abbreviation ("street" → ["st"], "st" → ["street", "saint"]).
  public func variants(of word: String) -> [String] {
    wordVariants[word] ?? []
  }
}
