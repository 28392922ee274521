import PlaceIndexFormat

extension LoadedIndex {
  /// The fewest letters a word needs before it is looked for inside longer tokens.
  static let infixMinimum = 4
  /// The most tokens one query word gathers by lying inside them.
  static let maxInfixCandidates = 256

  /// Ids of the tokens that hold `token` past their first byte, in order, at most
  /// ``maxInfixCandidates``; empty for a word shorter than ``infixMinimum`` scalars.
  ///
  /// The last resort of a word that matches no token as typed, as a prefix or within typo
  /// distance: the end or middle of a compound ("bergerhaus" in "rheinbergerhaus",
  /// "bianinkatu" in "fabianinkatu"), or a name typed without its first letter.
  func infixCandidates(_ token: String) throws -> [Int] {
    guard token.unicodeScalars.count >= Self.infixMinimum else { return [] }
    return try tokenText.tokens(holding: Array(token.utf8), limit: Self.maxInfixCandidates)
  }
}
