import Foundation
import PlaceCore
import PlaceIndexFormat

/// The compile stage: orders places by rank, builds the type table and metadata, and serializes
/// the index image. Deterministic: the same places and options give the same bytes.
struct IndexCompiler {
  static let attribution = IndexMetadata.openStreetMapAttribution
  static let license = IndexMetadata.openStreetMapLicense

  /// The rank order: most important first; ties by element kind and id, so order never
  /// depends on the input order (and PLACE IDS, which stores the elements in this order, finds
  /// each run of equal importance in increasing key order). A total order (kind and id are
  /// unique), so any sort gives the same.
  static func ranksBefore(
    _ a: (importance: UInt16, kind: UInt8, id: Int64),
    _ b: (importance: UInt16, kind: UInt8, id: Int64)
  ) -> Bool {
    if a.importance != b.importance { return a.importance > b.importance }
    if a.kind != b.kind { return a.kind < b.kind }
    return a.id < b.id
  }

  /// Compiles the places of `store` (all, or those of `subset`) into an index image. The
  /// places stay in the store: the compile keeps their rank order (4 bytes a place), their
  /// type lists (4 bytes) and what ``IndexImageWriter`` keeps.
  static func compile(
    _ store: PlaceStore, subset: [Int32]? = nil, source: String, timestamp: Int64,
    options: String, vocabularyTSV: String, abbreviationsTSV: String, localTexts: [String] = []
  ) throws -> (image: [UInt8], tokenCount: Int) {
    // The keys read in store order, sorted, then the places copied in rank order.
    var keyed = (subset ?? (0..<Int32(store.count)).map { $0 }).map { (store.key(Int($0)), $0) }
    keyed.sort { ranksBefore($0.0, $1.0) }
    let ranked = try store.reordered(keyed.map(\.1))
    keyed = []
    let placeCount = ranked.count
    var typeNames: [String] = []
    var typeIndex: [String: Int] = [:]
    var lists: [[Int]] = []
    var listIndex: [[Int]: Int] = [:]
    var typeList = [Int32](repeating: 0, count: placeCount)
    for rank in 0..<placeCount {
      let list = ranked.types(rank).map { name -> Int in
        if let i = typeIndex[name] { return i }
        typeIndex[name] = typeNames.count
        typeNames.append(name)
        return typeNames.count - 1
      }
      let id: Int
      if let existing = listIndex[list] {
        id = existing
      } else {
        id = lists.count
        listIndex[list] = id
        lists.append(list)
      }
      typeList[rank] = Int32(id)
    }
    var content = IndexContent()
    content.typeNames = typeNames
    content.typeLists = lists
    let stamp =
      timestamp > 0
      ? ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
      : ""
    let metadata = IndexMetadata(
      formatVersion: "\(IndexLayout.majorVersion).\(IndexLayout.minorVersion)", source: source,
      sourceTimestamp: stamp, attribution: attribution, license: license,
      placeCount: placeCount, options: options)
    content.metadataJSON = metadata.encoded()
    content.vocabularyTSV = vocabularyTSV
    content.abbreviationsTSV = abbreviationsTSV
    content.extraStrings = localTexts
    content.dataTimestamp = UInt64(max(0, timestamp))
    content.optionsHash = fnv1a64(options)
    let result = try IndexImageWriter.image(
      content, places: RankedPlaces(store: ranked, typeList: typeList))
    return (result.bytes, result.tokenCount)
  }
}

/// The places of a ``PlaceStore`` in rank order, as ``IndexImageWriter`` reads them.
struct RankedPlaces: IndexPlaceSource {
  let store: PlaceStore
  let typeList: [Int32]

  var count: Int { store.count }

  func record(_ i: Int) -> PlaceRecord {
    var r = store.record(i)
    r.typeList = Int(typeList[i])
    return r
  }

  func numbers(_ i: Int) -> PlaceRecord {
    var r = store.numbers(i)
    r.typeList = Int(typeList[i])
    return r
  }

  func terms(_ i: Int) -> (name: [String], alternative: [String], context: [String]) {
    store.terms(i)
  }

  func hasNames(_ i: Int) -> Bool { store.hasNames(i) }
}
