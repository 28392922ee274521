// NAME WORDS section layout (since 7.2): the number of words of each place's primary name, by
// rank, as PLACES' records hold it (their flags' nameWordCount), so that a search knows the
// share of a name the typed words cover before it reads the place's record:
//   u32 count      equals the place count
//   u32 zero
//   count × 4 bits, place i in the low half of byte i / 2 when i is even, the high half when
//   odd: min(nameWordCount, 15) (15: 15 words or more)

/// Each place's primary name's word count, at most ``NameWords/atLeast``.
package struct NameWords: @unchecked Sendable {
  // @unchecked: the reader points into the file's bytes, which never change while mapped.
  /// The value that stands for this many words or more.
  package static let atLeast = 15
  let reader: ByteReader
  /// Number of places.
  package let count: Int

  /// Reads the header and checks that the values fit; `placeCount` is PLACES' count.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "NAME WORDS", fileOffset: fileOffset)
    count = Int(try r.u32())
    _ = try r.u32()
    guard count == placeCount else {
      throw r.fault("\(count) values for \(placeCount) places", at: 0)
    }
    guard (count + 1) / 2 <= r.remaining else {
      throw r.fault("\(count) values run past the end", at: 0)
    }
    reader = r
  }

  /// Place `rank`'s name's word count, ``atLeast`` for that many or more.
  @inline(__always)
  package subscript(rank: Int) -> Int {
    let byte = Int(reader.buffer[8 + rank >> 1])
    return rank & 1 == 0 ? byte & 15 : byte >> 4
  }

  /// Checks every value against `wordCount` (PLACES' own, by rank).
  package func verify(_ wordCount: (Int) throws(IndexFormatError) -> Int) throws(IndexFormatError) {
    for rank in 0..<count {
      let stored = self[rank]
      let words = try wordCount(rank)
      guard stored == min(words, Self.atLeast) else {
        throw reader.fault(
          "place \(rank): \(stored) name words, its record has \(words)", at: 8 + rank >> 1)
      }
    }
  }
}

/// Writes a NAME WORDS section.
package enum NameWordsWriter {
  /// The section for the places' word counts, in rank order.
  package static func serialize(_ wordCounts: [Int]) -> [UInt8] {
    var w = ByteWriter()
    w.u32(UInt32(wordCounts.count))
    w.u32(0)
    var packed = [UInt8](repeating: 0, count: (wordCounts.count + 1) / 2)
    for (i, n) in wordCounts.enumerated() {
      packed[i >> 1] |= UInt8(min(max(n, 0), NameWords.atLeast)) << (i & 1 == 0 ? 0 : 4)
    }
    w.append(packed)
    return w.bytes
  }
}
