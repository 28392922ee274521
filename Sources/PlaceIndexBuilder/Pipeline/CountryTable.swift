import PlaceCore

/// Country names and address conventions, read from Data/countries.tsv.
public struct CountryTable: Sendable {
  /// One country's row.
  public struct Country: Sendable, Hashable {
    /// ISO 3166-1 alpha-2 code.
    public var code: String
    /// The name shown in secondary text.
    public var name: String
    /// Pattern of the street line, e.g. "{street} {housenumber}".
    public var streetLine: String
    /// Pattern of the locality line, e.g. "{postcode} {locality}".
    public var localityLine: String
    /// The main language of the country's names ("de"), or "" when the table does not say.
    public var language: String = ""
    /// The regular expression a whole postcode of the country matches, or "" when unknown.
    public var postcode: String = ""
  }

  private var rows: [String: Country] = [:]
  private let fallback: Country
  /// Country names by code, then language (Data/country_names.tsv).
  private var localNames: [String: [String: String]] = [:]

  /// Parses the tab-separated table (header line first, `#` lines are comments).
  public init(tsv: String) throws(TableError) {
    let table: DataTable
    do throws(DataTable.LayoutError) {
      table = try DataTable(tsv, required: ["code", "name", "street_line", "locality_line"])
    } catch {
      throw TableError(table: "countries.tsv", line: error.line, message: error.message)
    }
    var fallback: Country? = nil
    for row in table.rows {
      let code = row["code"]
      guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
        throw TableError(
          table: "countries.tsv", line: row.line,
          message: "'\(code)' is not a two-letter upper-case code")
      }
      let c = Country(
        code: code, name: row["name"], streetLine: row["street_line"],
        localityLine: row["locality_line"], language: row["language"], postcode: row["postcode"])
      if !c.postcode.isEmpty {
        do {
          _ = try Regex(c.postcode, as: Substring.self)
        } catch {
          throw TableError(
            table: "countries.tsv", line: row.line,
            message: "postcode pattern '\(c.postcode)' of \(code): \(error)")
        }
      }
      guard !c.streetLine.isEmpty, !c.localityLine.isEmpty else {
        throw TableError(
          table: "countries.tsv", line: row.line, message: "empty address pattern for \(code)")
      }
      if c.code == "ZZ" { fallback = c } else { rows[c.code] = c }
    }
    guard let fallback else {
      throw TableError(
        table: "countries.tsv", line: table.headerLine, message: "no fallback row with code ZZ")
    }
    self.fallback = fallback
  }

  /// Parses countries.tsv and country_names.tsv (a header `code` and one column per
  /// language, `#` lines are comments).
  public init(tsv: String, names: String) throws(TableError) {
    try self.init(tsv: tsv)
    let table: DataTable
    do throws(DataTable.LayoutError) {
      table = try DataTable(names, required: ["code"])
    } catch {
      throw TableError(table: "country_names.tsv", line: error.line, message: error.message)
    }
    for row in table.rows {
      let code = row["code"]
      guard contains(code), code == code.uppercased() else {
        throw TableError(
          table: "country_names.tsv", line: row.line,
          message: "'\(code)' is not a code of countries.tsv")
      }
      localNames[code] = row.values.filter { $0.key != "code" && !$0.value.isEmpty }
    }
  }

  /// The name of country `code` in each language the names table has it in.
  public func localNames(_ code: String) -> [String: String] {
    localNames[code.uppercased()] ?? [:]
  }

  /// The row of `code` (case-insensitive), or the ZZ fallback.
  public func country(_ code: String) -> Country {
    rows[code.uppercased()] ?? fallback
  }

  /// Whether `postcode` (upper-cased, trimmed) has the format of country `code`'s postcodes;
  /// nil when the table has no pattern for it.
  public func postcode(_ postcode: String, fits code: String) -> Bool? {
    // Compiled on each call (Regex is not Sendable): the test is the last country source,
    // asked for few places.
    let c = country(code)
    guard c.code == code.uppercased(), !c.postcode.isEmpty,
      let pattern = try? Regex(c.postcode, as: Substring.self)
    else { return nil }
    let text = DataTable.trim(postcode).uppercased()
    return (try? pattern.wholeMatch(in: text)) != nil
  }

  /// Whether `code` is listed.
  public func contains(_ code: String) -> Bool { rows[code.uppercased()] != nil }

  /// Fills `pattern` with `values`, dropping empty placeholders and the separators they leave.
  public static func render(_ pattern: String, _ values: [String: String]) -> String {
    var out = ""
    var rest = Substring(pattern)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      out += rest[..<open]
      let key = String(rest[rest.index(after: open)..<close])
      out += values[key] ?? ""
      rest = rest[rest.index(after: close)...]
    }
    out += rest
    // Collapse the separators that empty values leave behind.
    var parts = out.split(separator: ",").map {
      $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    parts.removeAll { $0.isEmpty }
    return parts.joined(separator: ", ")
  }
}
