// NAME WORDS section layout (since 7.2): the number of words of each place's primary name, by
// rank, as PLACES' records hold it (their flags' nameWordCount), so that a search knows the
// share of a name the typed words cover before it reads the place's record. The layout of
// PlaceNibbles.swift, each value min(nameWordCount, 15) (15: 15 words or more).

/// Each place's primary name's word count, at most ``NameWords/atLeast``.
package struct NameWords: PlaceNibblesSection {
  package static let sectionName: StaticString = "NAME WORDS"
  /// The value that stands for this many words or more.
  package static let atLeast = PlaceNibbles.most
  package let values: PlaceNibbles

  package init(values: PlaceNibbles) { self.values = values }

  /// Place `rank`'s name's word count, ``atLeast`` for that many or more.
  @inline(__always)
  package subscript(rank: Int) -> Int { values[rank] }

  /// Checks every value against `wordCount` (PLACES' own, by rank).
  package func verify(_ wordCount: (Int) throws(IndexFormatError) -> Int) throws(IndexFormatError) {
    try verify(wordCount) { rank, stored, words in
      "place \(rank): \(stored) name words, its record has \(words)"
    }
  }
}

/// Writes a NAME WORDS section.
package enum NameWordsWriter {
  /// The section for the places' word counts, in rank order.
  package static func serialize(_ wordCounts: [Int]) -> [UInt8] {
    PlaceNibbles.serialize(wordCounts)
  }
}
