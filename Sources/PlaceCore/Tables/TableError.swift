/// A problem in one of the data tables (the `Data/*.tsv` files, or a table stored in an
/// index), naming the table and the 1-based line it is on.
public struct TableError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The table's name: its file in `Data/` ("type_rules.tsv").
  public var table: String
  /// The 1-based line number of the offending line.
  public var line: Int
  /// What is wrong, in words.
  public var message: String

  /// Creates an error.
  public init(table: String, line: Int, message: String) {
    self.table = table
    self.line = line
    self.message = message
  }

  /// "table, line N: message".
  public var description: String { "\(table), line \(line): \(message)" }
}
