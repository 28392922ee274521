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
    places.sorted {
      if $0.record.importance != $1.record.importance {
        return $0.record.importance > $1.record.importance
      }
      if $0.record.osmKind != $1.record.osmKind { return $0.record.osmKind < $1.record.osmKind }
      return $0.record.osmID < $1.record.osmID
    }
  }

  static func compile(
    _ places: [AssembledPlace], source: String, timestamp: Int64, options: String,
    vocabularyTSV: String, abbreviationsTSV: String
  ) throws -> (image: [UInt8], tokenCount: Int) {
    let ranked = rank(places)
    var typeNames: [String] = []
    var typeIndex: [String: Int] = [:]
    var lists: [[Int]] = []
    var listIndex: [[Int]: Int] = [:]
    var content = IndexContent()
    for p in ranked {
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
    content.typeNames = typeNames
    content.typeLists = lists
    let stamp =
      timestamp > 0
      ? ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
      : ""
    let metadata = Metadata(
      formatVersion: "\(IndexLayout.majorVersion).\(IndexLayout.minorVersion)", source: source,
      sourceTimestamp: stamp, attribution: attribution, license: license,
      placeCount: ranked.count, options: options)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    content.metadataJSON = Array(try encoder.encode(metadata))
    content.vocabularyTSV = vocabularyTSV
    content.abbreviationsTSV = abbreviationsTSV
    content.dataTimestamp = UInt64(max(0, timestamp))
    content.optionsHash = fnv1a64(options)
    let result = try IndexImageWriter.image(content)
    return (result.bytes, result.tokenCount)
  }
}
