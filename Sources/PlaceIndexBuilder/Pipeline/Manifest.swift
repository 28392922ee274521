import Foundation

/// The JSON manifest written beside each index (`<name>.placeidx.json`).
public struct Manifest: Codable, Sendable, Equatable {
  /// Where the data came from and how it was built.
  public struct DataVersion: Codable, Sendable, Equatable {
    /// The extract's file name.
    public var source: String
    /// Newest element timestamp, seconds since 1970.
    public var timestamp: Int64
    /// Hex FNV-1a 64 of the build options.
    public var optionsHash: String
  }

  /// Counts of what the index holds.
  public struct Counts: Codable, Sendable, Equatable {
    /// Places.
    public var places: Int
    /// Distinct search tokens.
    public var tokens: Int
  }

  /// "major.minor" of the file format.
  public var formatVersion: String
  /// The data version.
  public var dataVersion: DataVersion
  /// Counts.
  public var counts: Counts
  /// SHA-256 of the index file, hex.
  public var sha256: String
  /// Size of the index file in bytes.
  public var size: Int
  /// Attribution to show with the data.
  public var attribution: String
  /// The data's licence.
  public var license: String

  /// Pretty, key-sorted JSON bytes.
  public func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return Array(try encoder.encode(self)) + [0x0A]
  }
}
