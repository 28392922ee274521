// NAME WORDS section layout (since 7.2): the number of words of each place's primary name, by
// rank, as PLACES' records hold it (their flags' nameWordCount), so that a search knows the
// share of a name the typed words cover before it reads the place's record. The layout of
// PlaceNibbles.swift, each value min(nameWordCount, 15) (15: 15 words or more).

/// Each place's primary name's word count, at most ``NameWords/atLeast``.
package struct NameWords: Sendable {
  /// The value that stands for this many words or more.
  package static let atLeast = PlaceNibbles.most
  let values: PlaceNibbles
  /// Number of places.
  package var count: Int { values.count }

  /// Reads the header and checks that the values fit; `placeCount` is PLACES' count.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    values = try PlaceNibbles(
      bytes, section: "NAME WORDS", fileOffset: fileOffset, placeCount: placeCount)
  }

  /// Place `rank`'s name's word count, ``atLeast`` for that many or more.
  @inline(__always)
  package subscript(rank: Int) -> Int { values[rank] }

  /// Checks every value against `wordCount` (PLACES' own, by rank).
  package func verify(_ wordCount: (Int) throws(IndexFormatError) -> Int) throws(IndexFormatError) {
    for rank in 0..<count {
      let stored = self[rank]
      let words = try wordCount(rank)
      guard stored == min(words, Self.atLeast) else {
        throw values.fault(
          "place \(rank): \(stored) name words, its record has \(words)", rank: rank)
      }
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
