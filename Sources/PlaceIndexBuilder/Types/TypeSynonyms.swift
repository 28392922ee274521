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
    let table: DataTable
    do throws(DataTable.LayoutError) {
      table = try DataTable(tsv, required: ["type", "language", "words"])
    } catch {
      throw ParseError(line: error.line, reason: error.message)
    }
    for row in table.rows {
      guard vocabulary.contains(row["type"]) else {
        throw ParseError(line: row.line, reason: "type '\(row["type"])' is not in the vocabulary")
      }
      let list = row["words"].split(separator: ",").map { DataTable.trim($0) }.filter {
        !$0.isEmpty
      }
      guard !list.isEmpty else { throw ParseError(line: row.line, reason: "no words") }
      words[row["type"], default: []].append(contentsOf: list)
    }
  }

  /// The category words of `type`: its own name's words ("italian restaurant"), then the
  /// table's words in every language.
  public func words(for type: String) -> [String] {
    [type.split(separator: "_").joined(separator: " ")] + (words[type] ?? [])
  }
}
