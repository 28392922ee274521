/// What `verify()` found wrong with the layout or the order of an index, beyond a decoder's
/// bounds: each rule of docs/FORMAT.md that a file can break while every checksum matches.
/// Carried by ``IndexFormatError/fault(path:section:offset:_:)``, which names the file, the
/// section and the file offset.
package enum IndexFault: Error, Equatable, Sendable, CustomStringConvertible {
  /// The section table is not sorted by kind, or names a kind twice.
  case sectionsOutOfOrder(previousKind: UInt32, kind: UInt32)
  /// A section does not start on an 8-byte boundary.
  case misalignedSection(offset: Int)
  /// Two sections share bytes (one aliased onto the other, or overlapping).
  case overlappingSections(other: String, otherOffset: Int, otherLength: Int)
  /// META is not a UTF-8 JSON object (garbage, empty, truncated).
  case metadataNotJSON(reason: String)
  /// META lacks a field FORMAT.md lists.
  case metadataMissingField(String)
  /// A META field has the wrong JSON type.
  case metadataFieldType(field: String, expected: String)
  /// A META field disagrees with the rest of the file (format version, place count).
  case metadataMismatch(field: String, stored: String, actual: String)
  /// Place `rank` is more important than the place before it (or IMPORTANCE repeats a run's
  /// value): places must be in importance order, most important first.
  case placesOutOfImportanceOrder(rank: Int, previous: UInt16, importance: UInt16)
  /// Places `rank - 1` and `rank` are equally important but not in element order (kind, then
  /// id, increasing), as ties are ranked.
  case tiedPlacesOutOfOrder(rank: Int, previous: String, place: String)
  /// A section holds more bytes than its 32-bit offsets reach (``IndexLayout/maxSectionBytes``).
  case sectionTooLarge(section: String, bytes: Int, limit: Int)
  /// More places than ranks reach (``IndexLayout/maxPlaces``).
  case tooManyPlaces(count: Int, limit: Int)
  /// POSTINGS lists place `place` under `token` in `part`, but the place's TERMS do not.
  case termMissing(place: Int, token: Int, part: String)
  /// TERMS lists more tokens over all places than POSTINGS lists places over all tokens: a
  /// place's TERMS name a token whose postings lack it.
  case termsBeyondPostings(terms: Int, postings: Int)
  /// PREFIX UNIONS entry `entry` (tokens `first ..< end`) is out of order (entries go by first
  /// token, then by end descending, each range once), outside the dictionary or of one token.
  case prefixUnionOutOfOrder(entry: Int, first: Int, end: Int)
  /// PREFIX UNIONS entry `entry`'s list of `part` is not the union of its tokens' lists of
  /// that part (`stored` places against `union`), or its sum (`part` "sum") is not theirs.
  case prefixUnionMismatch(entry: Int, part: String, stored: Int, union: Int)
  /// NEAR LISTS entry `entry` (tokens `first ..< end`) is out of order (entries go by first
  /// token, then by end descending, each range once) or outside the dictionary.
  case nearListOutOfOrder(entry: Int, first: Int, end: Int)
  /// NEAR LISTS entry `entry` is not the GEO positions of its tokens' places: it holds
  /// `position` where `expected` should come (nil: the list, or what it should hold, ended).
  case nearListMismatch(entry: Int, position: Int?, expected: Int?)

  package var description: String {
    switch self {
    case .sectionsOutOfOrder(let previous, let kind):
      "the section table lists \(SectionKind.name(of: kind)) after \(SectionKind.name(of: previous)); entries must be sorted by kind, each kind once"
    case .misalignedSection(let offset):
      "the section starts at byte \(offset), not on an 8-byte boundary"
    case .overlappingSections(let other, let offset, let length):
      "the section shares bytes with section \(other) [\(offset), +\(length))"
    case .metadataNotJSON(let reason): "META is not a JSON object: \(reason)"
    case .metadataMissingField(let field): "META has no '\(field)' field"
    case .metadataFieldType(let field, let expected): "META's '\(field)' is not \(expected)"
    case .metadataMismatch(let field, let stored, let actual):
      "META's '\(field)' is \(stored) but the file has \(actual)"
    case .placesOutOfImportanceOrder(let rank, let previous, let importance):
      "place \(rank) has importance \(importance) after \(previous): places must be in importance order, most important first"
    case .tiedPlacesOutOfOrder(let rank, let previous, let place):
      "place \(rank) (\(place)) follows \(previous) at equal importance: ties must be in element order (kind, then id)"
    case .sectionTooLarge(let section, let bytes, let limit):
      "the \(section) section would hold \(bytes) bytes, over the format's \(limit) (its offsets are 32-bit): build the extract as several shards (placeidx build --split-by-country, or one build per region)"
    case .termMissing(let place, let token, let part):
      "POSTINGS gives place \(place) token \(token) in its \(part), which its TERMS lack: TERMS must be the inverse of POSTINGS"
    case .termsBeyondPostings(let terms, let postings):
      "TERMS list \(terms) tokens over all places but POSTINGS \(postings) places over all tokens: TERMS must be the inverse of POSTINGS"
    case .prefixUnionOutOfOrder(let entry, let first, let end):
      "PREFIX UNIONS entry \(entry) holds tokens \(first)..<\(end): entries must be ranges of two or more of the dictionary's tokens, sorted by first token, then by end descending, each range once"
    case .prefixUnionMismatch(let entry, let part, let stored, let union):
      part == "sum"
        ? "PREFIX UNIONS entry \(entry) sums \(stored) postings, its tokens hold \(union)"
        : "PREFIX UNIONS entry \(entry)'s \(part) list (\(stored) places) is not the union of its tokens' \(part) lists (\(union) places)"
    case .nearListOutOfOrder(let entry, let first, let end):
      "NEAR LISTS entry \(entry) holds tokens \(first)..<\(end): entries must be ranges of the dictionary's tokens, sorted by first token, then by end descending, each range once"
    case .nearListMismatch(let entry, let position, let expected):
      "NEAR LISTS entry \(entry) holds GEO position \(position.map(String.init) ?? "none") where its tokens' places give \(expected.map(String.init) ?? "none")"
    case .tooManyPlaces(let count, let limit):
      "\(count) places, over the format's \(limit) per file: build the extract as several shards (placeidx build --split-by-country, or one build per region)"
    }
  }
}

/// Why ``IndexImageWriter`` refuses content: the same rules ``IndexFault`` names for a file.
package struct IndexWriterError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The rule the content breaks.
  package var fault: IndexFault

  /// The error for `fault`.
  package init(fault: IndexFault) { self.fault = fault }

  package var description: String { "cannot write the index: \(fault.description)" }
}

extension IndexFile {
  /// Checks the section table's order, every section's alignment and that no two sections
  /// share bytes (docs/FORMAT.md, "Header" and "Sections"). Opening already checked that each
  /// section lies inside the file, after the table.
  package func verifyLayout() throws(IndexFormatError) {
    for (i, s) in sections.enumerated() {
      let entry = IndexLayout.headerSize + i * IndexLayout.sectionEntrySize
      if i > 0, s.kind <= sections[i - 1].kind {
        throw IndexFormatError.fault(
          path: path, section: "SECTION TABLE", offset: entry,
          .sectionsOutOfOrder(previousKind: sections[i - 1].kind, kind: s.kind))
      }
      if s.offset % IndexLayout.sectionAlignment != 0 {
        throw IndexFormatError.fault(
          path: path, section: s.name, offset: s.offset, .misalignedSection(offset: s.offset))
      }
    }
    // Sorted by start (then length), a section overlaps another exactly when it starts before
    // the end of one earlier in that order; empty sections hold no bytes to share.
    let byStart = sections.filter { $0.length > 0 }.sorted {
      ($0.offset, $0.length, $0.kind) < ($1.offset, $1.length, $1.kind)
    }
    var furthest: Section? = nil
    for s in byStart {
      if let f = furthest, s.offset < f.offset + f.length {
        throw IndexFormatError.fault(
          path: path, section: s.name, offset: s.offset,
          .overlappingSections(other: f.name, otherOffset: f.offset, otherLength: f.length))
      }
      if furthest == nil || s.offset + s.length > furthest!.offset + furthest!.length {
        furthest = s
      }
    }
  }
}

extension PlaceTable {
  /// Checks that places are in rank order: importance never increasing (IMPORTANCE's runs
  /// strictly decreasing), and equally important places in increasing element key (PLACE IDS).
  /// The search stops reading a posting list early on this order. O(places).
  package func verifyRankOrder() throws(IndexFormatError) {
    let imp = importance
    for run in 1..<max(1, imp.runCount) {
      let previous = try imp.value(ofRun: run - 1)
      let value = try imp.value(ofRun: run)
      guard value < previous else {
        throw IndexFormatError.fault(
          path: "", section: "IMPORTANCE",
          offset: imp.reader.fileOffset + 4 + 4 * imp.runCount + 2 * run,
          .placesOutOfImportanceOrder(
            rank: try imp.firstRank(run), previous: previous, importance: value))
      }
    }
    var run = 0
    var nextRunStart = imp.runCount > 1 ? try imp.firstRank(1) : Int.max
    var previous: (kind: UInt8, id: Int64)? = nil
    for rank in 0..<count {
      if rank >= nextRunStart {
        run += 1
        nextRunStart = run + 1 < imp.runCount ? try imp.firstRank(run + 1) : Int.max
        previous = nil
      }
      let e = try ids.element(rank)
      if let p = previous, (p.kind, p.id) >= (e.kind, e.id) {
        throw IndexFormatError.fault(
          path: "", section: "PLACE IDS", offset: ids.reader.fileOffset,
          .tiedPlacesOutOfOrder(
            rank: rank, previous: PlaceRecord.placeID(kind: p.kind, id: p.id),
            place: PlaceRecord.placeID(kind: e.kind, id: e.id)))
      }
      previous = e
    }
  }
}

extension IndexImageWriter {
  /// Refuses places that are not in rank order (importance descending, then element kind and
  /// id increasing): the order every index must keep (``PlaceTable/verifyRankOrder()``).
  static func checkRankOrder(_ places: [PlaceRecord]) throws(IndexWriterError) {
    for rank in places.indices.dropFirst() {
      try checkRankOrder(places[rank - 1], places[rank], rank: rank)
    }
  }

  /// Refuses place `q` at `rank` after `p`, unless it ranks after it.
  static func checkRankOrder(_ p: PlaceRecord, _ q: PlaceRecord, rank: Int)
    throws(IndexWriterError)
  {
    if q.importance > p.importance {
      throw IndexWriterError(
        fault: .placesOutOfImportanceOrder(
          rank: rank, previous: p.importance, importance: q.importance))
    }
    if q.importance == p.importance, (p.osmKind, p.osmID) >= (q.osmKind, q.osmID) {
      throw IndexWriterError(
        fault: .tiedPlacesOutOfOrder(
          rank: rank, previous: PlaceRecord.placeID(kind: p.osmKind, id: p.osmID),
          place: PlaceRecord.placeID(kind: q.osmKind, id: q.osmID)))
    }
  }
}
