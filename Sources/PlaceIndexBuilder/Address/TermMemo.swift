import PlaceCore

/// The search terms of texts, each text's found once per build (``IndexTerms``).
struct TermMemo {
  let abbreviations: Abbreviations
  private var found: [String: [String]] = [:]
  private var foundPlain: [String: [String]] = [:]

  init(abbreviations: Abbreviations) { self.abbreviations = abbreviations }

  /// The terms of `text`, with the abbreviation table unless `abbreviated` is false.
  mutating func terms(for text: String, abbreviated: Bool = true) -> [String] {
    if abbreviated {
      if let t = found[text] { return t }
      let t = IndexTerms.terms(for: text, abbreviations: abbreviations)
      found[text] = t
      return t
    }
    if let t = foundPlain[text] { return t }
    let t = IndexTerms.terms(for: text, abbreviations: .empty)
    foundPlain[text] = t
    return t
  }
}
