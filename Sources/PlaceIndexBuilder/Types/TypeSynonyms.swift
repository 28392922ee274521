import PlaceCore

/// Category words per place type, read from Data/type_synonyms.tsv: what users type to ask for
/// a kind of place ("pharmacy", "Apotheke", "apteekki").
public struct TypeSynonyms: Sendable {
  /// A problem in the table, with its line number.
  public struct ParseError: Error, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// What is wrong.
    public var reason: String
    public var description: String { "type_synonyms.tsv:\(line): \(reason)" }
  }

  private var words: [String: [String]] = [:]

  /// Parses the table; every type must be in `vocabulary`.
  public init(tsv: String, vocabulary: PlaceTypeVocabulary) throws {
    var sawHeader = false
    for (i, raw) in tsv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      if line.isEmpty || line.hasPrefix("#") { continue }
      let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if !sawHeader {
        guard cols == ["type", "language", "words"] else {
          throw ParseError(line: i + 1, reason: "expected the header type, language, words")
        }
        sawHeader = true
        continue
      }
      guard cols.count == 3 else {
        throw ParseError(
          line: i + 1, reason: "expected 3 tab-separated columns, found \(cols.count)")
      }
      guard vocabulary.contains(cols[0]) else {
        throw ParseError(line: i + 1, reason: "type '\(cols[0])' is not in the vocabulary")
      }
      let list = cols[2].split(separator: ",").map { String($0).trimmingSpaces }.filter {
        !$0.isEmpty
      }
      guard !list.isEmpty else { throw ParseError(line: i + 1, reason: "no words") }
      words[cols[0], default: []].append(contentsOf: list)
    }
    guard sawHeader else { throw ParseError(line: 0, reason: "empty table") }
  }

  /// The category words of `type`: its own name's words ("italian restaurant"), then the
  /// table's words in every language.
  public func words(for type: String) -> [String] {
    [type.split(separator: "_").joined(separator: " ")] + (words[type] ?? [])
  }
}
