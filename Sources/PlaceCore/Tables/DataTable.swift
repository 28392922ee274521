/// A tab-separated data table as the project's Data/*.tsv files are written: comment lines
/// (`#` after optional spaces) and blank lines are skipped, the first other line is a header naming the columns (any order,
/// extra columns allowed), and every later line is a row. Shared by every table parser so that
/// they agree on the format and on the line numbers in their errors.
package struct DataTable: Sendable {
  /// One row, with its 1-based line number.
  package struct Row: Sendable {
    /// The line the row is on.
    package let line: Int
    let fields: [String]
    let columns: [String: Int]

    /// Every column's value, by the header's names.
    package var values: [String: String] {
      columns.reduce(into: [:]) { out, c in
        out[c.key] = c.value < fields.count ? fields[c.value] : ""
      }
    }

    /// The trimmed value of column `name` ("" when the row is short).
    package subscript(_ name: String) -> String {
      guard let i = columns[name], i < fields.count else { return "" }
      return fields[i]
    }
  }

  /// A problem with the table's layout, with its line.
  package struct LayoutError: Error, Sendable {
    /// 1-based line.
    package let line: Int
    /// What is wrong.
    package let message: String
  }

  /// The rows, in order.
  package let rows: [Row]
  /// The header's line number.
  package let headerLine: Int

  /// Splits `text` into rows; the header must name every column of `required`.
  package init(_ text: String, required: [String]) throws(LayoutError) {
    // "\r\n" is one Character, so it is a separator of its own.
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    if lines.last?.isEmpty == true { lines.removeLast() }
    var columns: [String: Int]? = nil
    var headerLine = 0
    var needed = 0
    var rows: [Row] = []
    for (i, line) in lines.enumerated() {
      let content = line.drop { $0 == " " || $0 == "\t" }
      if content.isEmpty || content.hasPrefix("#") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
        DataTable.trim($0)
      }
      guard let header = columns else {
        var found: [String: Int] = [:]
        for (index, name) in fields.enumerated() where found[name] == nil { found[name] = index }
        for name in required where found[name] == nil {
          throw LayoutError(
            line: i + 1,
            message:
              "header has no \"\(name)\" column (expected \(required.joined(separator: ", ")))")
        }
        columns = found
        headerLine = i + 1
        needed = required.map { found[$0]! }.max().map { $0 + 1 } ?? 0
        continue
      }
      guard fields.count >= needed else {
        throw LayoutError(
          line: i + 1, message: "expected \(needed) tab-separated fields, found \(fields.count)")
      }
      rows.append(Row(line: i + 1, fields: fields, columns: header))
    }
    guard columns != nil else {
      throw LayoutError(
        line: max(lines.count, 1),
        message: "no header line (\(required.joined(separator: ", ")))")
    }
    self.rows = rows
    self.headerLine = headerLine
  }

  /// The text without leading and trailing spaces and tabs.
  package static func trim<S: StringProtocol>(_ s: S) -> String {
    var sub = Substring(s)
    while let c = sub.first, c == " " || c == "\t" { sub.removeFirst() }
    while let c = sub.last, c == " " || c == "\t" { sub.removeLast() }
    return String(sub)
  }
}
