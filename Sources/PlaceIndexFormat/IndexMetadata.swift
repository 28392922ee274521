import Foundation

/// The META section's schema (docs/FORMAT.md, "Sections"): one UTF-8 JSON object, written by
/// the builder with sorted keys, read by the reader and checked by `verify()`. Later minor
/// versions may add fields; a reader ignores the ones it does not know.
package struct IndexMetadata: Codable, Sendable, Hashable {
  /// "major.minor" of the format the file was written in.
  package var formatVersion: String
  /// The extract the index was built from.
  package var source: String
  /// The newest element's timestamp (ISO 8601), or "" when unknown.
  package var sourceTimestamp: String
  /// The attribution to show next to results from the data.
  package var attribution: String
  /// The data's licence.
  package var license: String
  /// The number of places (the PLACES section's count).
  package var placeCount: Int
  /// The build options, as text.
  package var options: String

  /// The attribution of OpenStreetMap data: what the builder writes, and what a reader shows
  /// for an index whose META it cannot read.
  package static let openStreetMapAttribution = "© OpenStreetMap contributors"
  /// The licence of OpenStreetMap data, as the builder writes it.
  package static let openStreetMapLicense =
    "ODbL 1.0 (https://opendatacommons.org/licenses/odbl/1-0/)"

  /// Every field with the JSON type it must have, in the order `verify()` checks them.
  package static let fields: [(name: CodingKeys, type: String)] = [
    (.formatVersion, "string"), (.source, "string"), (.sourceTimestamp, "string"),
    (.attribution, "string"), (.license, "string"), (.placeCount, "integer"), (.options, "string"),
  ]

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case formatVersion, source, sourceTimestamp, attribution, license, placeCount, options
  }

  package init(
    formatVersion: String, source: String, sourceTimestamp: String, attribution: String,
    license: String, placeCount: Int, options: String
  ) {
    self.formatVersion = formatVersion
    self.source = source
    self.sourceTimestamp = sourceTimestamp
    self.attribution = attribution
    self.license = license
    self.placeCount = placeCount
    self.options = options
  }

  /// The section's bytes: JSON with sorted keys (the bytes every index since format 1 has).
  package func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding strings and an integer into JSON cannot fail.
    return Array(try! encoder.encode(self))
  }

  /// Decodes the bytes of a META section that starts at `fileOffset`; a malformed section
  /// (not JSON, a field missing or of the wrong type) is a corrupt META section.
  package init(decoding bytes: UnsafeRawBufferPointer, fileOffset: Int) throws(IndexFormatError) {
    do {
      self = try JSONDecoder().decode(IndexMetadata.self, from: Data(bytes))
    } catch let DecodingError.keyNotFound(key, _) {
      throw Self.corrupt("no '\(key.stringValue)' field", at: fileOffset)
    } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
      throw Self.corrupt(
        "'\(context.codingPath[0].stringValue)' has the wrong JSON type", at: fileOffset)
    } catch let DecodingError.valueNotFound(_, context) where !context.codingPath.isEmpty {
      throw Self.corrupt("'\(context.codingPath[0].stringValue)' is null", at: fileOffset)
    } catch {
      // Not JSON, or JSON that is not an object.
      throw Self.corrupt(
        bytes.isEmpty ? "the section is empty" : "not a JSON object", at: fileOffset)
    }
  }

  private static func corrupt(_ reason: String, at offset: Int) -> IndexFormatError {
    .corrupt(path: "", section: "META", offset: offset, reason: reason)
  }
}
