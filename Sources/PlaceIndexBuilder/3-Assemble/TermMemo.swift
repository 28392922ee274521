import PlaceCore

/// The search terms of texts, each text's found once per build (``IndexTerms``).
///
/// It keeps at most `limit` texts and starts over past them, so that its memory stays bounded
/// when most texts are names of one place each (millions of them in a country), while the
/// texts that places keep repeating are found again at once.
struct TermMemo {
  let abbreviations: Abbreviations
  private var found: [Key: [String]] = [:]
  /// Texts kept at most.
  let limit: Int
  /// Texts kept now.
  var count: Int { found.count }

  private struct Key: Hashable {
    var text: String
    var abbreviated: Bool
  }

  init(abbreviations: Abbreviations, limit: Int = 65_536) {
    self.abbreviations = abbreviations
    self.limit = max(1, limit)
  }

  /// The terms of `text`, with the abbreviation table unless `abbreviated` is false.
  mutating func terms(for text: String, abbreviated: Bool = true) -> [String] {
    let key = Key(text: text, abbreviated: abbreviated)
    if let t = found[key] { return t }
    let t = IndexTerms.terms(for: text, abbreviations: abbreviated ? abbreviations : .empty)
    if found.count >= limit { found.removeAll(keepingCapacity: true) }
    found[key] = t
    return t
  }
}
