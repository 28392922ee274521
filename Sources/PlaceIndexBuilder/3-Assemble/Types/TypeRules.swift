import PlaceCore

/// The place types an OSM element maps to.
public struct PlaceClassification: Sendable, Hashable {
  /// The primary type, e.g. `italian_restaurant`.
  public var primaryType: String
  /// The place's types in the service's order: the primary type, then its generic types
  /// (e.g. `["italian_restaurant", "restaurant", "food", "point_of_interest", "establishment"]`).
  public var types: [String]
  /// The vocabulary group of the primary type (e.g. `food_and_drink`), empty when unknown.
  public var group: String

  /// Creates a classification.
  public init(primaryType: String, types: [String], group: String = "") {
    self.primaryType = primaryType
    self.types = types
    self.group = group
  }
}

/// One extra condition of a type rule: `k=v1|v2`, `k=*`, `k!=v1|v2` or `k!=*`.
public struct TypeRuleCondition: Sendable, Hashable {
  /// The tag key the condition looks at.
  public var key: String
  /// The accepted (or, when negated, rejected) values; nil means any value.
  public var values: [String]?
  /// Whether the condition holds when the tag is absent or has none of ``values``.
  public var negated: Bool

  /// Creates a condition.
  public init(key: String, values: [String]?, negated: Bool) {
    self.key = key
    self.values = values
    self.negated = negated
  }

  /// Whether the condition holds for `tags`. Multi-value tags (`a;b`) match part by part.
  public func holds(for tags: [String: String]) -> Bool {
    let matched: Bool
    if let value = tags[key] {
      if let values {
        matched =
          value.contains(";")
          ? TypeRules.valueParts(value).contains { values.contains($0) } : values.contains(value)
      } else {
        matched = true
      }
    } else {
      matched = false
    }
    return matched != negated
  }
}

/// One row of `Data/type_rules.tsv`: an OSM tag condition and the primary type it gives.
public struct TypeRule: Sendable, Hashable {
  /// The tag key the rule is indexed by.
  public var key: String
  /// The tag value, or nil for any value (`*`).
  public var value: String?
  /// Further conditions that must all hold.
  public var conditions: [TypeRuleCondition]
  /// The primary type the rule assigns.
  public var type: String
  /// Higher wins when several rules match.
  public var priority: Int
  /// The 1-based line of the rule in the rules text; earlier lines win ties.
  public var line: Int

  /// Creates a rule.
  public init(
    key: String, value: String?, conditions: [TypeRuleCondition], type: String, priority: Int,
    line: Int
  ) {
    self.key = key
    self.value = value
    self.conditions = conditions
    self.type = type
    self.priority = priority
    self.line = line
  }

  /// "key=value" with the conditions, for messages.
  public var summary: String {
    let base = "\(key)=\(value ?? "*")"
    guard !conditions.isEmpty else { return base }
    let parts = conditions.map { c in
      "\(c.key)\(c.negated ? "!=" : "=")\(c.values?.joined(separator: "|") ?? "*")"
    }
    return base + " [" + parts.joined(separator: "&") + "]"
  }
}

/// Maps OSM tags to the service's place types, following the rules of `Data/type_rules.tsv`.
///
/// Rules are indexed by tag key and value, so classifying an element costs a few dictionary
/// lookups per tag, independent of the number of rules. When several rules match, the highest
/// priority wins and ties go to the earlier row. Rule types come from the vocabulary, which also
/// supplies each primary type's generic types.
public struct TypeRules: Sendable {
  /// The rules, in the order of the text.
  public let rules: [TypeRule]
  /// The vocabulary the rules were checked against.
  public let vocabulary: PlaceTypeVocabulary

  /// Rule indexes by tag key: exact-value and any-value rules, each list best rule first.
  let index: [String: KeyRules]
  /// The classification each rule gives, by rule index.
  let classifications: [PlaceClassification]

  struct KeyRules: Sendable {
    var byValue: [String: [Int]] = [:]
    var anyValue: [Int] = []
  }

  /// Tag keys that name what a feature is, in the order ``unmatchedKey(_:)`` reports them.
  static let featureKeys = [
    "amenity", "shop", "tourism", "leisure", "office", "craft", "healthcare", "historic",
    "aeroway", "railway", "public_transport", "highway", "place", "boundary", "natural",
    "waterway", "water", "landuse", "man_made", "sport", "club", "emergency", "military", "power",
    "barrier", "building", "memorial", "route", "type",
  ]

  /// Builds rules from already parsed rows; `rules` must name primary types of `vocabulary`.
  init(rules: [TypeRule], vocabulary: PlaceTypeVocabulary) {
    self.rules = rules
    self.vocabulary = vocabulary
    var index: [String: KeyRules] = [:]
    for (i, rule) in rules.enumerated() {
      if let value = rule.value {
        index[rule.key, default: KeyRules()].byValue[value, default: []].append(i)
      } else {
        index[rule.key, default: KeyRules()].anyValue.append(i)
      }
    }
    let better: (Int, Int) -> Bool = { a, b in
      rules[a].priority != rules[b].priority
        ? rules[a].priority > rules[b].priority : rules[a].line < rules[b].line
    }
    for key in index.keys {
      index[key]!.anyValue.sort(by: better)
      for value in index[key]!.byValue.keys { index[key]!.byValue[value]!.sort(by: better) }
    }
    self.index = index
    self.classifications = rules.map { rule in
      PlaceClassification(
        primaryType: rule.type, types: vocabulary.typeList(primary: rule.type),
        group: vocabulary.group(of: rule.type) ?? "")
    }
  }

  /// The distinct primary types the rules assign.
  public var mappedPrimaryTypes: Set<String> { Set(rules.map(\.type)) }

  /// The place types of an element with `tags`, or nil when no rule matches.
  public func classify(_ tags: [String: String]) -> PlaceClassification? {
    bestRuleIndex(tags).map { classifications[$0] }
  }

  /// The rule that decides the type of an element with `tags`, or nil when none matches.
  public func matchingRule(_ tags: [String: String]) -> TypeRule? {
    bestRuleIndex(tags).map { rules[$0] }
  }

  /// The `key=value` tag to report for an element that no rule maps, or nil when one does.
  ///
  /// The reported tag is the first present of the keys that say what a feature is (`amenity`,
  /// `shop`, `tourism`, ..., `building`, `type`); for other elements it is the alphabetically
  /// first tag that is not a name, address, reference or source tag, or `(no feature tag)`.
  public func unmatchedKey(_ tags: [String: String]) -> String? {
    guard bestRuleIndex(tags) == nil else { return nil }
    for key in Self.featureKeys {
      if let value = tags[key] { return "\(key)=\(value)" }
    }
    let ignoredPrefixes = [
      "name", "alt_name", "old_name", "official_name", "short_name", "addr:", "source", "wiki",
      "note", "fixme", "FIXME", "ref", "description", "website", "phone", "opening_hours",
    ]
    let informative = tags.keys.filter { key in
      !ignoredPrefixes.contains { key.hasPrefix($0) }
    }
    guard let key = informative.min() else { return "(no feature tag)" }
    return "\(key)=\(tags[key]!)"
  }

  /// The index of the best matching rule: highest priority, then earliest line.
  func bestRuleIndex(_ tags: [String: String]) -> Int? {
    var best: Int?
    func consider(_ candidates: [Int]) {
      for i in candidates {
        if let b = best {
          let rule = rules[i]
          let current = rules[b]
          // Lists are sorted best first: once a candidate cannot win, none after it can.
          if rule.priority < current.priority
            || (rule.priority == current.priority && rule.line >= current.line)
          {
            return
          }
        }
        if rules[i].conditions.allSatisfy({ $0.holds(for: tags) }) {
          best = i
          return
        }
      }
    }
    for (key, value) in tags {
      guard let keyRules = index[key] else { continue }
      if !keyRules.byValue.isEmpty {
        if let exact = keyRules.byValue[value] {
          consider(exact)
        } else if value.contains(";") {
          for part in Self.valueParts(value) {
            if let candidates = keyRules.byValue[part] { consider(candidates) }
          }
        }
      }
      if !keyRules.anyValue.isEmpty { consider(keyRules.anyValue) }
    }
    return best
  }

  /// The parts of a multi-value tag (`a;b` → `a`, `b`), trimmed; the value itself otherwise.
  static func valueParts(_ value: String) -> [String] {
    guard value.contains(";") else { return [value] }
    return value.split(separator: ";").map { trimmed($0) }
  }

  /// The text without leading and trailing spaces and tabs.
  static func trimmed<S: StringProtocol>(_ text: S) -> String { DataTable.trim(text) }
}
