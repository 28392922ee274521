import Foundation
import PlaceCore
import PlaceIndexFormat

/// One opened index file and the views over its sections, shared by all queries. The views
/// are immutable (some are decoded on first use, once); what requests compute and keep for the
/// next ones lives apart, in ``recent``.
public final class LoadedIndex: Sendable {
  /// The file (package access: apps see ``info``).
  package let file: IndexFile
  let strings: StringTable
  let tokens: TokenDictionary
  let postings: Postings
  /// Each place's tokens by rank: what the words after the driving one are checked against.
  let terms: TermLists
  let places: PlaceTable
  let geo: GeoTable
  /// The places of the tokens and prefixes that many places carry, in GEO order (empty in
  /// files before format 7.2).
  let near: NearLists
  /// Each place's name's word count, which a search scores a place's coverage with before it
  /// reads its record; nil in files before format 7.2.
  let nameWords: NameWords?
  /// Where each place's name's first word lies among its name tokens, which a search tells
  /// the name-start bonus by before it reads the record; nil in files before format 7.3 (their
  /// places earn no such bonus).
  let nameStarts: NameStarts?
  /// Ways' and relations' bounding boxes; nil in files before format 6.1.
  let viewports: ViewportTable?
  let types: TypeTable
  private let vocabularyCell: ParsedOnce<PlaceTypeVocabulary, PlacesError>
  private let abbreviationsCell: ParsedOnce<Abbreviations, PlacesError>
  // The search's cells fail with a format error naming the file, as the search does.
  private let contextsCell: ParsedOnce<DecodedContexts, IndexFormatError>
  private let sharedTermsCell: ParsedOnce<SharedTermLists, IndexFormatError>
  private let extentCell: ParsedOnce<ShardExtent, IndexFormatError>
  private let squaresCell: ParsedOnce<PlaceSquares, IndexFormatError>
  private let tokenTextCell: ParsedOnce<TokenText, IndexFormatError>
  /// What recent requests computed from this index, kept for the next ones (bounded per
  /// thread); the only part of a loaded index that changes.
  let recent = RecentWork()
  /// The META section decoded, or why it cannot be (an index with an unreadable META still
  /// opens and answers; ``verify()`` refuses it).
  package let metadata: Result<IndexMetadata, IndexFormatError>
  /// What the file is: format, size, places, sections, build metadata.
  public let info: IndexInfo
  /// Primary type name index of each type list, for quick filtering.
  let primaryTypeOfList: [String]

  // Opening from a path: `init(path:verification:loading:)` (IndexOpenOptions.swift).

  /// Wraps an opened file, checking every section's checksum first unless `verification` is
  /// `.skip` (``IndexVerification``): a damaged section is refused here, before any answer.
  package init(file: IndexFile, verification: IndexVerification = .checksums) throws(PlacesError) {
    self.file = file
    let path = file.path
    do throws(IndexFormatError) {
      if verification == .checksums { try file.verifyChecksums() }
      func section(_ kind: SectionKind) throws(IndexFormatError) -> (UnsafeRawBufferPointer, Int) {
        let (s, b) = try file.requiredBytes(kind)
        return (b, s.offset)
      }
      let (sb, so) = try section(.strings)
      strings = try StringTable(sb, fileOffset: so)
      let (tb, to) = try section(.tokens)
      tokens = try TokenDictionary(tb, fileOffset: to)
      let (yb, yo) = try section(.types)
      types = try TypeTable(yb, fileOffset: yo, strings: strings)
      let (cb, co) = try section(.contexts)
      let contexts = try ContextTable(cb, fileOffset: co, stringCount: strings.count)
      let (pb, po) = try section(.places)
      places = try PlaceTable(
        pb, fileOffset: po, contexts: contexts, importance: try section(.importance),
        ids: try section(.placeIDs), stringCount: strings.count, typeListCount: types.lists.count)
      let (qb, qo) = try section(.postings)
      // PREFIX UNIONS since 7.1: without it, every prefix is read token by token.
      let unions = try file.section(.prefixUnions).map { (u) throws(IndexFormatError) in
        try PrefixUnions(file.bytes(of: u), fileOffset: u.offset)
      }
      postings = try Postings(
        qb, fileOffset: qo, placeCount: places.count, unions: unions ?? .none)
      guard postings.tokenCount == tokens.count else {
        throw .corrupt(
          path: path, section: "POSTINGS", offset: qo,
          reason: "\(postings.tokenCount) items for \(tokens.count) tokens (one per token)")
      }
      let (rb, ro) = try section(.terms)
      terms = try TermLists(rb, fileOffset: ro, placeCount: places.count, tokenCount: tokens.count)
      let termLists = terms
      sharedTermsCell = Self.decodedOnce(path: path) { () throws(IndexFormatError) in
        try termLists.decodeShared()
      }
      let (gb, go) = try section(.geo)
      geo = try GeoTable(gb, fileOffset: go, places: places)
      let geoTable = geo
      // NEAR LISTS since 7.2: without it, the rings around a focus read every place there.
      let placeCount = places.count
      nameWords = try file.section(.nameWords).map { (n) throws(IndexFormatError) in
        try NameWords(file.bytes(of: n), fileOffset: n.offset, placeCount: placeCount)
      }
      nameStarts = try file.section(.nameStarts).map { (n) throws(IndexFormatError) in
        try NameStarts(file.bytes(of: n), fileOffset: n.offset, placeCount: placeCount)
      }
      near =
        try file.section(.nearLists).map { (n) throws(IndexFormatError) in
          try NearLists(file.bytes(of: n), fileOffset: n.offset, placeCount: placeCount)
        } ?? .none
      squaresCell = Self.decodedOnce(path: path) { () throws(IndexFormatError) in
        try geoTable.placeSquares()
      }
      if let v = file.section(.viewports) {
        viewports = try ViewportTable(
          file.bytes(of: v), fileOffset: v.offset, placeCount: places.count)
      } else {
        viewports = nil
      }
      let (vs, _) = try file.requiredBytes(.vocabulary)
      let (`as`, _) = try file.requiredBytes(.abbreviations)
      // Decoded on first use, from the bytes of `file`, which the cells' owner keeps. A table
      // that decodes but does not parse is a corrupt section too.
      vocabularyCell = ParsedOnce {
        Result { () throws(PlacesError) -> PlaceTypeVocabulary in
          let tsv: String
          do throws(IndexFormatError) {
            tsv = try TableText.decode(
              file.bytes(of: vs), section: "VOCABULARY", fileOffset: vs.offset)
          } catch {
            throw .index(error, path: path)
          }
          do throws(TableError) {
            return try PlaceTypeVocabulary(tsv: tsv)
          } catch {
            throw .index(
              .corrupt(path: path, section: "VOCABULARY", offset: vs.offset, reason: "\(error)"))
          }
        }
      }
      abbreviationsCell = ParsedOnce {
        Result { () throws(PlacesError) -> Abbreviations in
          let tsv: String
          do throws(IndexFormatError) {
            tsv = try TableText.decode(
              file.bytes(of: `as`), section: "ABBREVIATIONS", fileOffset: `as`.offset)
          } catch {
            throw .index(error, path: path)
          }
          do throws(TableError) {
            return try Abbreviations(tsv: tsv)
          } catch {
            throw .index(
              .corrupt(
                path: path, section: "ABBREVIATIONS", offset: `as`.offset, reason: "\(error)"))
          }
        }
      }
      let dictionary = tokens
      tokenTextCell = Self.decodedOnce(path: path) { () throws(IndexFormatError) in
        try TokenText(dictionary)
      }
      let placeTable = places
      contextsCell = Self.decodedOnce(path: path) { () throws(IndexFormatError) in
        try placeTable.decodeAll()
      }
      let contextsOnce = contextsCell
      extentCell = Self.decodedOnce(path: path) { () throws(IndexFormatError) in
        try ShardExtent(placeTable, contexts: try contextsOnce.get().view)
      }
      let (mb, mo) = try section(.metadata)
      metadata = Result { () throws(IndexFormatError) in
        try IndexMetadata(decoding: mb, fileOffset: mo)
      }
      let typeTable = types
      primaryTypeOfList = typeTable.lists.map { typeTable.names[Int($0[0])] }
    } catch {
      throw .index(error, path: path)
    }
    info = IndexInfo(file, placeCount: places.count, metadata: try? metadata.get())
  }

  /// A cell that decodes with `decode` on first use, its format error naming the file at
  /// `path` (an error that already names it, from another cell, is kept as it is).
  private static func decodedOnce<T: Sendable>(
    path: String, _ decode: @escaping @Sendable () throws(IndexFormatError) -> T
  ) -> ParsedOnce<T, IndexFormatError> {
    ParsedOnce {
      Result { () throws(IndexFormatError) -> T in
        do throws(IndexFormatError) {
          return try decode()
        } catch {
          throw error.withPath(path)
        }
      }
    }
  }

  /// Number of places.
  public var placeCount: Int { places.count }

  /// The type vocabulary stored in the index (parsed on first use).
  public var vocabulary: PlaceTypeVocabulary {
    get throws(PlacesError) { try vocabularyCell.get() }
  }

  /// Every context's matching data (decoded on first use: about 0.3 ms per 1000 contexts).
  var decodedContexts: DecodedContexts {
    get throws(IndexFormatError) { try contextsCell.get() }
  }

  /// TERMS' shared lists, decoded on first use (4 bytes a token of a shared list).
  var sharedTerms: SharedTermLists {
    get throws(IndexFormatError) { try sharedTermsCell.get() }
  }

  /// The box around the places and their highest importance (read on first use), for a
  /// client of several indexes to skip this one.
  var extent: ShardExtent {
    get throws(IndexFormatError) { try extentCell.get() }
  }

  /// Each place's square of the globe, by rank (``GeoTable/placeSquares()``, read on first
  /// use: 2 bytes per place), for a search with a focus to bound a place's nearness before it
  /// reads the place's tokens.
  var placeSquares: PlaceSquares {
    get throws(IndexFormatError) { try squaresCell.get() }
  }

  /// Every token decoded into one buffer (on first use), for words found inside tokens.
  var tokenText: TokenText {
    get throws(IndexFormatError) { try tokenTextCell.get() }
  }

  /// The abbreviation table stored in the index (parsed on first use).
  var abbreviations: Abbreviations {
    get throws(PlacesError) { try abbreviationsCell.get() }
  }

  /// Attribution to show next to results from this index (``IndexInfo/attribution``).
  public var attribution: String { info.attribution }

  /// Checks every checksum, the layout (section order, alignment, no shared bytes), META's
  /// schema, every internal reference and the places' rank order; throws the first fault,
  /// naming the section and offset.
  public func verify() throws(PlacesError) {
    do throws(IndexFormatError) {
      try verifyFormat()
    } catch {
      throw .index(error, path: file.path)
    }
    _ = try vocabulary
    _ = try abbreviations
  }

  /// The checks of ``verify()`` that the format's decoders make: all but parsing the
  /// vocabulary and abbreviation tables. Errors from section readers name no path.
  package func verifyFormat() throws(IndexFormatError) {
    try file.verifyChecksums()
    try file.verifyLayout()
    try verifyMetadata()
    try strings.verify()
    try tokens.verify()
    try postings.verify()
    try postings.verifyUnions()
    try places.contexts.verify()
    try places.verify()
    try places.ids.verify()
    try places.verifyRankOrder()
    try geo.verify()
    try viewports?.verify()
    try verifyTerms()
    try verifyNearLists()
    var m = PlaceMatch()
    try nameWords?.verify { (rank) throws(IndexFormatError) in
      try places.match(rank, into: &m)
      return m.nameWordCount
    }
    guard let nameStarts else { return }
    let shared = try sharedTerms
    var refs = PlaceTermRefs()
    try nameStarts.verify { (rank) throws(IndexFormatError) in
      let name = try strings.string(try places.entry(rank).primaryText)
      guard let word = Tokenizer.firstToken(name), let token = try tokens.exactID(word) else {
        return NameStarts.none
      }
      try terms.refs(of: rank, into: &refs)
      var position = 0
      while let t = refs.nameToken(at: position, shared: shared), t != token { position += 1 }
      return refs.nameToken(at: position, shared: shared) == nil ? NameStarts.none : position
    }
  }

  /// Checks NEAR LISTS against POSTINGS and GEO: each list holds exactly the GEO positions of
  /// the places its tokens' postings (all parts) hold.
  func verifyNearLists() throws(IndexFormatError) {
    guard near.count > 0 else { return }
    var position = [Int32](repeating: 0, count: places.count)
    try geo.forEachEntry { (at, rank) throws(IndexFormatError) in position[rank] = Int32(at) }
    try near.verify(tokenCount: postings.tokenCount) { (range) throws(IndexFormatError) in
      var out: [Int] = []
      try postings.forEachList(of: range) { (_, lists) throws(IndexFormatError) in
        for part in PostingsPart.allCases {
          var c = lists[part]
          while let p = try c.next() { out.append(Int(position[p])) }
        }
      }
      out.sortAndRemoveDuplicates()
      return out
    }
  }

  /// Checks that TERMS is the inverse of POSTINGS: a place lists a token in a part exactly
  /// when it lies in that token's list of the part. (Every place's terms are held flat while
  /// the postings are read: 4 bytes a posting.)
  private func verifyTerms() throws(IndexFormatError) {
    var starts: [Int32] = [0]
    var flat: [Int32] = []
    starts.reserveCapacity(places.count + 1)
    try terms.verify { (_, t) throws(IndexFormatError) in
      for (i, token) in t.tokens.enumerated() {
        flat.append(token << 2 | Int32(t.part(at: i).rawValue))
      }
      starts.append(Int32(flat.count))
    }
    let offset = file.section(.terms)?.offset ?? 0
    var postingCount = 0
    try postings.forEachList(of: 0..<postings.tokenCount) {
      (token, lists) throws(IndexFormatError) in
      for part in PostingsPart.allCases {
        var c = lists[part]
        let entry = Int32(token) << 2 | Int32(part.rawValue)
        while let place = try c.next() {
          postingCount += 1
          guard flat[Int(starts[place])..<Int(starts[place + 1])].contains(entry) else {
            throw .fault(
              path: "", section: "TERMS", offset: offset,
              .termMissing(place: place, token: token, part: "\(part)"))
          }
        }
      }
    }
    guard postingCount == flat.count else {
      throw .fault(
        path: "", section: "TERMS", offset: offset,
        .termsBeyondPostings(terms: flat.count, postings: postingCount))
    }
  }
}

extension LoadedIndex {
  /// The languages (lower case) of the alternative names of the place at `rank`: the only
  /// ones a details request's `languageCode` can change its display name for (for tools that
  /// walk an index; behind the `Testing` SPI).
  @_spi(Testing) public func nameLanguagesForTesting(rank: Int) throws(PlacesError) -> Set<String> {
    do throws(IndexFormatError) {
      let e = try places.entry(rank)
      return Set(
        try e.names.map { (n) throws(IndexFormatError) in
          try strings.string(n.language).lowercased()
        })
    } catch {
      throw .index(error, path: file.path)
    }
  }

  /// The place ID of the place at `rank` (for tools and tests that walk an index; behind the
  /// `Testing` SPI, so not part of the SDK an app sees).
  @_spi(Testing) public func placeIDForTesting(rank: Int) throws(PlacesError) -> String {
    do throws(IndexFormatError) {
      let e = try places.entry(rank)
      return PlaceRecord.placeID(kind: e.osmKind, id: e.osmID)
    } catch {
      throw .index(error, path: file.path)
    }
  }

}

extension LoadedIndex {
  /// `text` prepared for highlighting with this index's `abbreviations`, kept for the next
  /// suggestions that show it.
  func prepared(_ text: String, abbreviations: Abbreviations) -> MatchHighlighter.Prepared {
    recent.preparedTexts.value(for: text) {
      MatchHighlighter.Prepared(text, abbreviations: abbreviations)
    }
  }
}
