import PlaceIndexFormat

extension LoadedIndex {
  /// Ids of the tokens that hold `token` past their first letter, in order, at most
  /// ``Ranking/maxInfixCandidates``; empty for a word shorter than ``Ranking/infixMinimum``
  /// Unicode scalars (so that "акад" counts as the 4 letters it is, not as its 8 bytes).
  ///
  /// The last resort of a word that matches no token as typed, as a prefix or within typo
  /// distance: the end or middle of a compound ("bergerhaus" in "rheinbergerhaus",
  /// "bianinkatu" in "fabianinkatu"), or a name typed without its first letter.
  func infixCandidates(_ token: String) throws(IndexFormatError) -> [Int] {
    guard token.unicodeScalars.count >= Ranking.infixMinimum else { return [] }
    return try tokenText.tokens(holding: Array(token.utf8), limit: Ranking.maxInfixCandidates)
  }
}
