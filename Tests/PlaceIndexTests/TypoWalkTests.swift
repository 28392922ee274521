import Testing

@testable import PlaceIndex

/// The Levenshtein walk of the sorted dictionary that finds typo candidates.
@Suite struct TypoWalkTests {
  /// A word that cannot come back within the limit reports the depth past which no word
  /// sharing its prefix can, and the next answer starts from no depth: an empty word (which a
  /// damaged dictionary can hold) has no prefix to skip past. The fuzzer found the typo search
  /// slicing an empty word at the depth left over from the word before.
  @Test func everyAnswerSetsItsOwnDeadDepth() {
    var walk = TypoWalk(query: Array("helsinki".utf8), limit: 1)
    let far = walk.matches(Array("xyzzyx".utf8), shared: 0)
    #expect(!far && walk.deadDepth > 0)
    let empty = walk.matches([], shared: 0)
    #expect(!empty && walk.deadDepth == 0)
    let near = walk.matches(Array("helsinky".utf8), shared: 0)
    #expect(near && walk.deadDepth == 0)
  }
}
