import Foundation
import PlaceCore
import PlaceIndexFormat

/// The compile stage: orders places by rank, builds the type table and metadata, and serializes
/// the index image. Deterministic: the same places and options give the same bytes.
struct IndexCompiler {
  /// What the metadata section records.
  struct Metadata: Codable {
    var formatVersion: String
    var source: String
    var sourceTimestamp: String
    var attribution: String
    var license: String
    var placeCount: Int
    var options: String
  }

  static let attribution = "© OpenStreetMap contributors"
  static let license = "ODbL 1.0 (https://opendatacommons.org/licenses/odbl/1-0/)"

  /// Ranks places: most important first; ties by element kind and id, so order never depends
  /// on the input order (and PLACE IDS, which stores the elements in this order, finds each
  /// run of equal importance in increasing key order).
  static func rank(_ places: [AssembledPlace]) -> [AssembledPlace] {
    places.sorted(by: ranksBefore)
  }

  /// The rank order: a total order (kind and id are unique), so any sort gives the same.
  static func ranksBefore(_ a: AssembledPlace, _ b: AssembledPlace) -> Bool {
    if a.record.importance != b.record.importance {
      return a.record.importance > b.record.importance
    }
    if a.record.osmKind != b.record.osmKind { return a.record.osmKind < b.record.osmKind }
    return a.record.osmID < b.record.osmID
  }

  /// Compiles the places into an index image. The places are sorted in place and each is let
  /// go of once the content holds it, so that the build keeps one copy of them, not three.
  static func compile(
    _ places: consuming [AssembledPlace], source: String, timestamp: Int64, options: String,
    vocabularyTSV: String, abbreviationsTSV: String, localTexts: [String] = []
  ) throws -> (image: [UInt8], tokenCount: Int) {
    var ranked = places
    ranked.sort(by: ranksBefore)
    let placeCount = ranked.count
    var typeNames: [String] = []
    var typeIndex: [String: Int] = [:]
    var lists: [[Int]] = []
    var listIndex: [[Int]: Int] = [:]
    var content = IndexContent()
    content.places.reserveCapacity(placeCount)
    content.placeTerms.reserveCapacity(placeCount)
    content.placeAltTerms.reserveCapacity(placeCount)
    content.placeContextTerms.reserveCapacity(placeCount)
    for i in ranked.indices {
      let p = ranked[i]
      ranked[i] = AssembledPlace.released
      let list = p.types.map { name -> Int in
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
      var record = p.record
      record.typeList = id
      content.places.append(record)
      content.placeTerms.append(p.terms)
      content.placeAltTerms.append(p.altTerms)
      content.placeContextTerms.append(p.contextTerms)
    }
    ranked = []
    content.typeNames = typeNames
    content.typeLists = lists
    let stamp =
      timestamp > 0
      ? ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
      : ""
    let metadata = Metadata(
      formatVersion: "\(IndexLayout.majorVersion).\(IndexLayout.minorVersion)", source: source,
      sourceTimestamp: stamp, attribution: attribution, license: license,
      placeCount: placeCount, options: options)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    content.metadataJSON = Array(try encoder.encode(metadata))
    content.vocabularyTSV = vocabularyTSV
    content.abbreviationsTSV = abbreviationsTSV
    content.extraStrings = localTexts
    content.dataTimestamp = UInt64(max(0, timestamp))
    content.optionsHash = fnv1a64(options)
    let result = try IndexImageWriter.image(content)
    return (result.bytes, result.tokenCount)
  }
}
