import PlaceCore

/// The search terms of texts, each text's found once per build (``IndexTerms``).
struct TermMemo {
  let abbreviations: Abbreviations
  private var found: [Key: [String]] = [:]

  private struct Key: Hashable {
    var text: String
    var abbreviated: Bool
  }

  init(abbreviations: Abbreviations) { self.abbreviations = abbreviations }

  /// The terms of `text`, with the abbreviation table unless `abbreviated` is false.
  mutating func terms(for text: String, abbreviated: Bool = true) -> [String] {
    let key = Key(text: text, abbreviated: abbreviated)
    if let t = found[key] { return t }
    let t = IndexTerms.terms(for: text, abbreviations: abbreviated ? abbreviations : .empty)
    found[key] = t
    return t
  }
}
