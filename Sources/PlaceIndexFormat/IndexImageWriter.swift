/// Everything an index holds, as the builder hands it over.
public struct IndexContent: Sendable {
  /// Places in rank order (most important first).
  public var places: [PlaceRecord] = []
  /// The terms of each place's primary name, parallel to `places`.
  public var placeTerms: [[String]] = []
  /// The terms only each place's alternative names carry, parallel to `places`; may be left
  /// empty when no place has any.
  public var placeAltTerms: [[String]] = []
  /// The terms of each place's address and admin areas, parallel to `places`.
  public var placeContextTerms: [[String]] = []
  /// Type names referenced by `typeLists`.
  public var typeNames: [String] = []
  /// Type lists: indexes into `typeNames`, primary first.
  public var typeLists: [[Int]] = []
  /// UTF-8 JSON metadata.
  public var metadataJSON: [UInt8] = []
  /// The type vocabulary table text.
  public var vocabularyTSV: String = ""
  /// The abbreviation table text.
  public var abbreviationsTSV: String = ""
  /// Newest element timestamp, seconds since 1970.
  public var dataTimestamp: UInt64 = 0
  /// Hash of the build options.
  public var optionsHash: UInt64 = 0
  /// Strings stored in STRINGS that no record refers to: the texts readers look up by their
  /// first bytes (PlaceCore's `LocalTexts`).
  public var extraStrings: [String] = []

  /// Creates empty content.
  public init() {}
}

/// Serializes ``IndexContent`` into a complete file image. Deterministic: the same content gives
/// the same bytes.
public enum IndexImageWriter {
  /// The file image and the number of distinct tokens. Refuses places out of rank order
  /// (``IndexWriterError``), which no reader could search.
  public static func image(_ content: IndexContent) throws(IndexWriterError) -> (
    bytes: [UInt8], tokenCount: Int
  ) {
    try checkRankOrder(content.places)
    precondition(content.places.count == content.placeTerms.count)
    precondition(content.places.count == content.placeContextTerms.count)
    precondition(
      content.placeAltTerms.isEmpty || content.places.count == content.placeAltTerms.count)
    let altTerms =
      content.placeAltTerms.isEmpty
      ? [[String]](repeating: [], count: content.places.count) : content.placeAltTerms
    // Token dictionary and postings.
    var tokenSet = Set<String>()
    for terms in content.placeTerms { tokenSet.formUnion(terms) }
    for terms in content.placeContextTerms { tokenSet.formUnion(terms) }
    for terms in altTerms { tokenSet.formUnion(terms) }
    let tokens = tokenSet.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var tokenID: [String: Int] = [:]
    tokenID.reserveCapacity(tokens.count)
    for (i, t) in tokens.enumerated() { tokenID[t] = i }
    // Three lists per token: the places that carry it in their primary name, those that carry
    // it only in an alternative name, and those that carry it only in their context.
    var lists = [[Int]](repeating: [], count: 3 * tokens.count)
    var places = content.places
    for p in places.indices {
      let ids = Set(content.placeTerms[p].map { tokenID[$0]! })
      // Alternative names' tokens count only for places that list alternative names.
      let altIDs =
        places[p].names.isEmpty ? [] : Set(altTerms[p].map { tokenID[$0]! }).subtracting(ids)
      let contextIDs = Set(content.placeContextTerms[p].map { tokenID[$0]! })
        .subtracting(ids).subtracting(altIDs)
      for t in ids { lists[3 * t].append(p) }
      for t in altIDs { lists[3 * t + 1].append(p) }
      for t in contextIDs { lists[3 * t + 2].append(p) }
    }
    // Type lists, the most used first: small ids, and the four most used share a byte with a
    // record's flags.
    var uses = [Int](repeating: 0, count: content.typeLists.count)
    for p in places { uses[p.typeList] += 1 }
    let order = uses.indices.sorted { uses[$0] != uses[$1] ? uses[$0] > uses[$1] : $0 < $1 }
    var newList = [Int](repeating: 0, count: uses.count)
    for (id, old) in order.enumerated() { newList[old] = id }
    for p in places.indices { places[p].typeList = newList[places[p].typeList] }
    let typeLists = order.map { content.typeLists[$0] }
    // Strings.
    var strings = StringTableBuilder()
    for p in places { PlaceTableWriter.registerStrings(of: p, in: &strings) }
    for n in content.typeNames { strings.insert(n) }
    for t in content.extraStrings { strings.insert(t) }
    strings.freeze()

    var file = IndexFileWriter()
    file.dataTimestamp = content.dataTimestamp
    file.optionsHash = content.optionsHash
    file.add(.metadata, content.metadataJSON)
    file.add(.strings, strings.serialize())
    file.add(
      .types,
      TypeTableWriter.serialize(
        names: content.typeNames, lists: typeLists, strings: strings))
    file.add(.vocabulary, TableText.encode(content.vocabularyTSV))
    let (records, contexts) = PlaceTableWriter.serialize(places, strings: strings)
    file.add(.places, records)
    file.add(.tokens, TokenDictionaryWriter.serialize(tokens))
    file.add(
      .postings,
      PostingsWriter.serialize(
        tokens.indices.map { (lists[3 * $0], lists[3 * $0 + 1], lists[3 * $0 + 2]) }))
    file.add(.abbreviations, TableText.encode(content.abbreviationsTSV))
    file.add(.placeIDs, PlaceIDTableWriter.serialize(places))
    file.add(.contexts, contexts)
    file.add(.geo, GeoTableWriter.serialize(places))
    file.add(.importance, ImportanceTableWriter.serialize(places))
    return (file.image(), tokens.count)
  }
}
