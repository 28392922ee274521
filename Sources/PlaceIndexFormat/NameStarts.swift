// NAME STARTS section layout (since 7.3): where the first word of each place's primary name
// lies among the place's name tokens in TERMS, by rank, so that a search knows whether the
// typed words start a name (Ranking.nameStart) without reading its record. The layout of
// PlaceNibbles.swift, each value the position of the token of the name's first word (its
// first token as the query side folds it, PlaceCore's Tokenizer.firstToken) in the order
// TERMS lists the name's tokens: the shared name list's, then the place's own; 15 when the
// name has no such token or it lies at position 15 or later.

/// Where each place's name's first word lies among its name tokens in TERMS.
package struct NameStarts: PlaceNibblesSection {
  package static let sectionName: StaticString = "NAME STARTS"
  /// The value that says "not among the first 15 name tokens".
  package static let none = PlaceNibbles.most
  package let values: PlaceNibbles

  package init(values: PlaceNibbles) { self.values = values }

  /// The position of place `rank`'s name's first word among its name tokens; nil for
  /// ``none``.
  @inline(__always)
  package subscript(rank: Int) -> Int? {
    let v = values[rank]
    return v == Self.none ? nil : v
  }

  /// Checks every value against `position` (the place's first word's position, worked out
  /// from its record and its tokens, ``none`` when it has none).
  package func verify(_ position: (Int) throws(IndexFormatError) -> Int) throws(IndexFormatError) {
    try verify(position) { rank, stored, expected in
      "place \(rank): name start \(stored), its name's first word is at \(min(expected, Self.none))"
    }
  }
}
