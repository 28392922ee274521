import Foundation
import PlaceIndexFormat

/// What an opened index file is: its format, size, places, sections and the build metadata
/// its META section records (``LoadedIndex/info``). A value: it holds no reference to the
/// file's bytes.
public struct IndexInfo: Sendable, Hashable {
  /// One section of the file, as its section table lists it.
  public struct Section: Sendable, Hashable {
    /// The section's name ("PLACES", "META", …).
    public let name: String
    /// Where the section starts in the file.
    public let offset: Int
    /// The section's length in bytes.
    public let length: Int
    /// The CRC-32 of the section's bytes, as the section table stores it.
    public let checksum: UInt32
  }

  /// The path the index was opened from.
  public let path: String
  /// The file's major format version.
  public let formatMajor: Int
  /// The file's minor format version.
  public let formatMinor: Int
  /// The file's size in bytes.
  public let byteSize: Int
  /// The number of places.
  public let placeCount: Int
  /// The sections, in file order.
  public let sections: [Section]
  /// The newest element of the data, nil when the build did not know it.
  public let dataTimestamp: Date?
  /// The hash of the build options (the header's), which tells builds of different options
  /// apart.
  public let optionsHash: UInt64
  /// The extract the index was built from; nil when META cannot be read (``LoadedIndex/verify()``
  /// names why).
  public let source: String?
  /// The data's licence; nil when META cannot be read.
  public let license: String?
  /// The build options as text; nil when META cannot be read.
  public let options: String?
  /// The attribution to show next to results from this index (OpenStreetMap's when META
  /// cannot be read).
  public let attribution: String

  /// "major.minor".
  public var formatVersion: String { "\(formatMajor).\(formatMinor)" }
}

extension IndexInfo {
  /// The facts of `file`, with `metadata` when META could be read.
  init(_ file: IndexFile, placeCount: Int, metadata: IndexMetadata?) {
    path = file.path
    formatMajor = Int(file.major)
    formatMinor = Int(file.minor)
    byteSize = file.bytes.buffer.count
    self.placeCount = placeCount
    sections = file.sections.map {
      Section(name: $0.name, offset: $0.offset, length: $0.length, checksum: $0.checksum)
    }
    dataTimestamp =
      file.dataTimestamp > 0 ? Date(timeIntervalSince1970: TimeInterval(file.dataTimestamp)) : nil
    optionsHash = file.optionsHash
    source = metadata?.source
    license = metadata?.license
    options = metadata?.options
    attribution = metadata?.attribution ?? IndexMetadata.openStreetMapAttribution
  }
}
