/// The two type tables of the hosted place service.
public enum PlaceTypeTable: String, Sendable, Hashable, CaseIterable {
  /// Table A: primary types that requests may filter by (`restaurant`, `bank`, `locality`, ...).
  case a = "A"
  /// Table B: additional types that appear in responses (`establishment`, `political`, `route`, ...).
  case b = "B"
}

/// One type of the vocabulary: a row of `Data/place_types.tsv`.
public struct PlaceTypeEntry: Sendable, Hashable {
  /// The type name, e.g. `italian_restaurant`.
  public var name: String
  /// The table the type belongs to.
  public var table: PlaceTypeTable
  /// The category, e.g. `food_and_drink`; ``PlaceTypeVocabulary/genericGroup`` for types that only
  /// ever follow a primary type.
  public var group: String
  /// The types that follow this one, in order, when it is a place's primary type.
  public var genericTypes: [String]

  /// Creates an entry.
  public init(name: String, table: PlaceTypeTable, group: String, genericTypes: [String]) {
    self.name = name
    self.table = table
    self.group = group
    self.genericTypes = genericTypes
  }
}

/// The service's place types (Table A and Table B), parsed from tab-separated text.
///
/// The text is the content of `Data/place_types.tsv`: `#` comment lines and blank lines are
/// skipped; the first other line is a header naming the columns `type`, `table`, `group` and
/// `generic` (in any order; further columns are ignored); every following line is one type.
/// `generic` lists, comma-separated, the types that follow the type in a place's type list when
/// it is the primary type (for `restaurant`: `food,point_of_interest,establishment`).
///
/// The struct never reads files: the builder passes the data file's text, and the reader passes
/// the copy stored inside the index, so both validate filters against the same list.
public struct PlaceTypeVocabulary: Sendable {
  /// The group of types that only ever follow a primary type and cannot be one themselves
  /// (`establishment`, `point_of_interest`, `political`, `geocode`, ...).
  public static let genericGroup = "generic"

  /// All entries, in the order of the text.
  public let entries: [PlaceTypeEntry]
  private let indexByName: [String: Int]

  /// Parses the vocabulary text; throws naming the line of the first problem found.
  public init(tsv: String) throws(TableError) {
    var entries: [PlaceTypeEntry] = []
    var indexByName: [String: Int] = [:]
    var lineOfEntry: [Int] = []
    let table: DataTable
    do {
      table = try DataTable(tsv, required: ["type", "table", "group", "generic"])
    } catch {
      throw TableError(
        table: "place_types.tsv", line: error.line, message: error.message)
    }
    for row in table.rows {
      let lineNumber = row.line
      let name = row["type"]
      guard Self.isValidName(name) else {
        throw TableError(
          table: "place_types.tsv", line: lineNumber,
          message: name.isEmpty
            ? "empty type name"
            : "invalid type name \"\(name)\" (use lowercase letters, digits and _)")
      }
      if let previous = indexByName[name] {
        throw TableError(
          table: "place_types.tsv", line: lineNumber,
          message: "duplicate type \"\(name)\" (first defined on line \(lineOfEntry[previous]))")
      }
      let tableText = row["table"]
      guard let table = PlaceTypeTable(rawValue: tableText) else {
        throw TableError(
          table: "place_types.tsv", line: lineNumber,
          message: "table of \"\(name)\" is \"\(tableText)\"; expected A or B")
      }
      let group = row["group"]
      guard Self.isValidName(group) else {
        throw TableError(
          table: "place_types.tsv", line: lineNumber,
          message: group.isEmpty
            ? "type \"\(name)\" has no group" : "invalid group name \"\(group)\"")
      }
      var generic: [String] = []
      let genericText = row["generic"]
      if !genericText.isEmpty {
        for part in genericText.split(separator: ",", omittingEmptySubsequences: false) {
          let type = DataTable.trim(part)
          guard Self.isValidName(type) else {
            throw TableError(
              table: "place_types.tsv", line: lineNumber,
              message: "invalid generic type \"\(type)\" in \"\(genericText)\"")
          }
          guard type != name, !generic.contains(type) else {
            throw TableError(
              table: "place_types.tsv", line: lineNumber,
              message: "generic type \"\(type)\" repeats a type of the list")
          }
          generic.append(type)
        }
      }
      indexByName[name] = entries.count
      lineOfEntry.append(lineNumber)
      entries.append(
        PlaceTypeEntry(name: name, table: table, group: group, genericTypes: generic))
    }
    for (index, entry) in entries.enumerated() {
      for type in entry.genericTypes where indexByName[type] == nil {
        throw TableError(
          table: "place_types.tsv", line: lineOfEntry[index],
          message: "generic type \"\(type)\" of \"\(entry.name)\" is not in the vocabulary")
      }
    }
    self.entries = entries
    self.indexByName = indexByName
  }

  /// Every type name, in the order of the text.
  public var allTypes: [String] { entries.map(\.name) }

  /// Whether `type` is a type of the vocabulary (Table A or Table B).
  public func contains(_ type: String) -> Bool { indexByName[type] != nil }

  /// Whether `type` is a Table A type: a primary type that a request's type filter may name.
  public func isPrimary(_ type: String) -> Bool { entry(for: type)?.table == .a }

  /// Whether `type` can be a place's primary type: any known type outside the generic group.
  ///
  /// This includes Table B types such as `route`, `premise` or `sublocality`, which the service
  /// also returns as primary types.
  public func canBePrimaryType(_ type: String) -> Bool {
    guard let entry = entry(for: type) else { return false }
    return entry.group != Self.genericGroup
  }

  /// The table of `type`, or nil for an unknown type.
  public func table(of type: String) -> PlaceTypeTable? { entry(for: type)?.table }

  /// The group of `type` (e.g. `food_and_drink`), or nil for an unknown type.
  public func group(of type: String) -> String? { entry(for: type)?.group }

  /// The types that follow `primary` in a place's type list, in order; empty if unknown.
  public func genericTypes(for primary: String) -> [String] {
    entry(for: primary)?.genericTypes ?? []
  }

  /// The whole type list of a place whose primary type is `primary`: the primary type first,
  /// then its generic types, without duplicates.
  public func typeList(primary: String) -> [String] {
    var list = [primary]
    for type in genericTypes(for: primary) where !list.contains(type) { list.append(type) }
    return list
  }

  /// The entry of `type`, or nil for an unknown type.
  public func entry(for type: String) -> PlaceTypeEntry? {
    indexByName[type].map { entries[$0] }
  }

  private static func isValidName(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy {
        ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F
      }
  }
}
