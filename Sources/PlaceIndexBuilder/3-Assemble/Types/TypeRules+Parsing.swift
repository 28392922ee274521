import PlaceCore

extension TypeRules {
  /// Parses the rules text (the content of `Data/type_rules.tsv`) and checks every rule's type
  /// against `vocabulary`; throws naming the line of the first problem found.
  ///
  /// `#` comment lines and blank lines are skipped; the first other line is the header with the
  /// columns `key`, `value`, `condition`, `type` and `priority` (in any order). A value of `*`
  /// matches any value. A condition is empty or `&`-joined parts `k=v1|v2`, `k=*`, `k!=v1|v2`,
  /// `k!=*`. Every type must be in the vocabulary and able to be a primary type (not a generic
  /// type such as `establishment`).
  public init(tsv: String, vocabulary: PlaceTypeVocabulary) throws(TableError) {
    var rules: [TypeRule] = []
    var seen: [String: Int] = [:]
    let table: DataTable
    do {
      table = try DataTable(tsv, required: ["key", "value", "condition", "type", "priority"])
    } catch {
      throw TableError(table: "type_rules.tsv", line: error.line, message: error.message)
    }
    for row in table.rows {
      let rule = try Self.parseRule(
        key: row["key"], value: row["value"], condition: row["condition"], type: row["type"],
        priority: row["priority"], line: row.line, vocabulary: vocabulary)
      let identity = rule.summary
      if let previous = seen[identity] {
        throw TableError(
          table: "type_rules.tsv", line: row.line,
          message: "duplicate rule \(identity) (first on line \(previous))")
      }
      seen[identity] = row.line
      rules.append(rule)
    }
    self.init(rules: rules, vocabulary: vocabulary)
  }

  private static func parseRule(
    key: String, value: String, condition: String, type: String, priority: String, line: Int,
    vocabulary: PlaceTypeVocabulary
  ) throws(TableError) -> TypeRule {
    guard !key.isEmpty else {
      throw TableError(table: "type_rules.tsv", line: line, message: "empty key")
    }
    guard !value.isEmpty else {
      throw TableError(
        table: "type_rules.tsv", line: line,
        message: "empty value for key \"\(key)\" (use * for any)")
    }
    guard !value.contains(";") else {
      throw TableError(
        table: "type_rules.tsv", line: line,
        message: "value \"\(value)\" contains ';' (multi-value tags are matched part by part)")
    }
    guard !type.isEmpty else {
      throw TableError(table: "type_rules.tsv", line: line, message: "empty type")
    }
    guard vocabulary.contains(type) else {
      throw TableError(
        table: "type_rules.tsv", line: line, message: "type \"\(type)\" is not in the vocabulary")
    }
    guard vocabulary.canBePrimaryType(type) else {
      throw TableError(
        table: "type_rules.tsv", line: line,
        message: "type \"\(type)\" is a generic type and cannot be a primary type")
    }
    guard let rank = Int(priority) else {
      throw TableError(
        table: "type_rules.tsv", line: line, message: "priority \"\(priority)\" is not an integer")
    }
    var conditions: [TypeRuleCondition] = []
    if !condition.isEmpty {
      for part in condition.split(separator: "&", omittingEmptySubsequences: false) {
        conditions.append(try parseCondition(trimmed(part), line: line))
      }
    }
    return TypeRule(
      key: key, value: value == "*" ? nil : value, conditions: conditions, type: type,
      priority: rank, line: line)
  }

  private static func parseCondition(_ text: String, line: Int) throws(TableError)
    -> TypeRuleCondition
  {
    let negated: Bool
    let key: Substring
    let valuesText: Substring
    if let range = text.range(of: "!=") {
      negated = true
      key = text[..<range.lowerBound]
      valuesText = text[range.upperBound...]
    } else if let equals = text.firstIndex(of: "=") {
      negated = false
      key = text[..<equals]
      valuesText = text[text.index(after: equals)...]
    } else {
      throw TableError(
        table: "type_rules.tsv", line: line,
        message: "condition \"\(text)\" is not k=v, k=*, k!=v or k!=*")
    }
    let trimmedKey = trimmed(key)
    guard !trimmedKey.isEmpty else {
      throw TableError(
        table: "type_rules.tsv", line: line, message: "condition \"\(text)\" has no key")
    }
    let values = valuesText.split(separator: "|", omittingEmptySubsequences: false).map {
      trimmed($0)
    }
    if values == ["*"] {
      return TypeRuleCondition(key: trimmedKey, values: nil, negated: negated)
    }
    for value in values {
      guard !value.isEmpty, value != "*", !value.contains(";") else {
        throw TableError(
          table: "type_rules.tsv", line: line,
          message: "condition \"\(text)\" has an empty, '*' or multi-value (';') value in a list")
      }
    }
    return TypeRuleCondition(key: trimmedKey, values: values, negated: negated)
  }
}
