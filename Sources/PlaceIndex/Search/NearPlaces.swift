import PlaceCore
import PlaceIndexFormat

/// A driving word's places around a focus, for a search read from both ends
/// (``LoadedIndex/collectNearFirst(after:_:importanceBound:scorer:into:)``): from NEAR LISTS,
/// the places of its tokens of many places (or of its whole prefix range, when the file lists
/// it: a range of PREFIX UNIONS, a number's prefix) by their GEO positions, so that a ring around the focus reads the word's places
/// there and no other; and the few places of its other tokens, from their postings.
struct NearPlaces {
  /// The word's lists of GEO positions.
  let lists: [EliasFano]
  /// The places (ranks, ascending, each once) of the word's tokens without a list.
  let others: [Int]

  /// The places of the word whose GEO blocks may hold a point of `region`: the places of the
  /// lists only (``others`` are the caller's), in GEO order per list, a place in several lists
  /// more than once; nil when there are more than `limit`.
  func places(in region: CoordinateRegion, limit: Int, geo: GeoTable) throws(IndexFormatError)
    -> [Int]?
  {
    let box = region.boundingBoxE7
    let ranges = try geo.entryRanges(
      southE7: box.south, northE7: box.north, westE7: box.west, eastE7: box.east)
    var out: [Int] = []
    for list in lists {
      var cursor = try list.cursor(from: ranges.first?.lowerBound ?? 0)
      for range in ranges {
        try cursor.seek(to: range.lowerBound)
        while let p = try cursor.peek(), p < range.upperBound {
          try cursor.advance()
          out.append(try geo.entry(p))
          if out.count > limit { return nil }
        }
      }
    }
    return out
  }
}

extension LoadedIndex {
  /// `word`'s places by NEAR LISTS: the list of its prefix range when the file holds one,
  /// else the lists of its tokens (of the range and its typos) that have one; nil when the
  /// file has none of them, or when its tokens without a list hold more than
  /// `otherPlaces` places (reading them would cost more than a ring of every place).
  func nearPlaces(_ word: ResolvedToken, otherPlaces: Int) throws(IndexFormatError)
    -> NearPlaces?
  {
    guard near.count > 0 else { return nil }
    var lists: [EliasFano] = []
    // The tokens read from their postings.
    var rest: [Int] = []
    if word.range.count >= 2, let union = try near.find(word.range) {
      lists.append(try near.list(union))
    } else {
      var listed = try near.tokenEntries(in: word.range)[...]
      for t in word.range {
        if let first = listed.first, first.token == t {
          lists.append(try near.list(first.entry))
          listed = listed.dropFirst()
        } else {
          rest.append(t)
        }
      }
    }
    for t in word.typos {
      if let e = try near.find(t..<(t + 1)) {
        lists.append(try near.list(e))
      } else {
        rest.append(t)
      }
    }
    guard !lists.isEmpty else { return nil }
    var count = 0
    for t in rest {
      count += try postings.length(t)
      if count > otherPlaces { return nil }
    }
    var others: [Int] = []
    others.reserveCapacity(count)
    try postings.forEachList(of: rest) { (_, lists) throws(IndexFormatError) in
      for part in PostingsPart.allCases {
        var c = lists[part]
        while let p = try c.next() { others.append(p) }
      }
    }
    others.sortAndRemoveDuplicates()
    return NearPlaces(lists: lists, others: others)
  }
}
