import Foundation
import PlaceIndexFormat

/// An index, its manifest and its attribution packed into one deterministic ustar archive, ready
/// to upload or bundle into an app (`placeidx dist`; `docs/FORMAT.md`, "Packed artifact").
///
/// The members, in byte order of their names: `ATTRIBUTION.txt`, `<name>.placeidx`,
/// `<name>.placeidx.json`. Every header has mode 0644, uid and gid 0 and the data timestamp as
/// its mtime, so the same index and manifest give a byte-identical archive.
public struct PackedArtifact: Sendable {
  /// The member holding attribution, licence, source and data timestamp as text.
  public static let attributionMember = "ATTRIBUTION.txt"
  /// The end of every packed artifact's file name.
  public static let fileSuffix = ".placeidx.tar"

  /// The index's name: its file name without `.placeidx`.
  public let name: String
  /// The index, opened over its bytes in memory.
  package let index: IndexFile
  /// The manifest, checked against the index.
  public let manifest: Manifest
  /// The archive's bytes.
  public let bytes: [UInt8]

  /// The archive's file name: `<name>-f<major>.<minor>-d<YYYYMMDDTHHMMSSZ>.placeidx.tar`.
  public var fileName: String {
    Self.fileName(
      name: name, major: index.major, minor: index.minor, dataTimestamp: index.dataTimestamp)
  }

  /// SHA-256 of the archive, hex.
  public var sha256: String { SHA256.hex(bytes) }

  /// Packs the index at `indexPath` with the manifest beside it (`<indexPath>.json`).
  ///
  /// Refuses, naming the file, when the manifest is missing or unreadable or its size or
  /// sha256 does not match the index, and when the index's header or META section is unusable.
  public init(indexPath: String) throws {
    let fileName = (indexPath as NSString).lastPathComponent
    name =
      fileName.hasSuffix(".placeidx") ? String(fileName.dropLast(".placeidx".count)) : fileName
    // Read under the build's lock (shared), so that the index and manifest are one build's.
    let lock = OutputLock.reading(indexPath)
    defer { lock?.release() }
    let indexBytes: [UInt8]
    do throws(IndexFormatError) {
      let mapped = try MappedBytes(path: indexPath)
      indexBytes = withExtendedLifetime(mapped) { Array(mapped.buffer) }
    } catch {
      guard case .cannotOpen(_, let reason) = error else { throw error }
      throw PackedArtifactError(path: indexPath, reason: "cannot read the index: \(reason)")
    }
    let manifestPath = indexPath + ".json"
    guard let manifestData = FileManager.default.contents(atPath: manifestPath) else {
      throw PackedArtifactError(
        path: manifestPath,
        reason:
          "no manifest beside the index (placeidx build writes it); cannot pack \(indexPath)")
    }
    let manifestBytes = Array(manifestData)
    do {
      manifest = try JSONDecoder().decode(Manifest.self, from: manifestData)
    } catch {
      throw PackedArtifactError(path: manifestPath, reason: "not a valid manifest: \(error)")
    }
    guard manifest.size == indexBytes.count else {
      throw PackedArtifactError(
        path: manifestPath,
        reason: "size \(manifest.size) does not match \(indexPath) (\(indexBytes.count) bytes)")
    }
    let sha = SHA256.hex(indexBytes)
    guard manifest.sha256 == sha else {
      throw PackedArtifactError(
        path: manifestPath,
        reason: "sha256 \(manifest.sha256) does not match \(indexPath) (sha256 \(sha))")
    }
    index = try IndexFile(bytes: MappedBytes(copying: indexBytes), path: indexPath)
    let meta = try Self.metadata(of: index)
    let attribution = Self.attributionText(
      attribution: meta.attribution, license: meta.license, source: meta.source,
      dataTimestamp: index.dataTimestamp)
    let members = Self.memberNames(name)
    let files: [(name: String, bytes: [UInt8])] = [
      (members.index, indexBytes), (members.manifest, manifestBytes),
      (Self.attributionMember, Array(attribution.utf8)),
    ].sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    bytes = try UstarArchive.archive(
      files, modificationTime: Int(clamping: index.dataTimestamp), path: fileName)
  }

  /// Writes the archive into `directory` (created if needed) atomically: a temporary name in
  /// the same folder, flushed, then renamed. Returns the path written.
  public func write(toDirectory directory: String) throws -> String {
    try OutputLock.checkFolder(directory)
    let path = (directory as NSString).appendingPathComponent(fileName)
    try ArtifactWriter.write(bytes, to: path, inputs: [index.path, index.path + ".json"])
    return path
  }

  /// The file name of the packed artifact of index `name` with the given format version and
  /// data timestamp (seconds since 1970, UTC; 0, unknown, gives 19700101T000000Z).
  public static func fileName(name: String, major: UInt16, minor: UInt16, dataTimestamp: UInt64)
    -> String
  {
    let stamp = iso8601(dataTimestamp).filter { $0 != "-" && $0 != ":" }
    return "\(name)-f\(major).\(minor)-d\(stamp)\(fileSuffix)"
  }

  /// The members' names for index `name`: the index and its manifest.
  public static func memberNames(_ name: String) -> (index: String, manifest: String) {
    (name + ".placeidx", name + ".placeidx.json")
  }

  /// The text of `ATTRIBUTION.txt`.
  public static func attributionText(
    attribution: String, license: String, source: String, dataTimestamp: UInt64
  ) -> String {
    """
    Attribution: \(attribution)
    Licence: \(license)
    Source extract: \(source)
    Data timestamp: \(dataTimestamp > 0 ? iso8601(dataTimestamp) : "unknown") (newest element in the extract)

    Show the attribution above with results from this data (PlacesClient.attributions returns it).

    """
  }

  /// The index's META section (``IndexMetadata``); a malformed one is a corrupt META section
  /// of the index.
  package static func metadata(of index: IndexFile) throws(IndexFormatError) -> IndexMetadata {
    let (section, bytes) = try index.requiredBytes(.metadata)
    do {
      return try IndexMetadata(decoding: bytes, fileOffset: section.offset)
    } catch {
      throw error.withPath(index.path)
    }
  }

  /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`.
  private static func iso8601(_ seconds: UInt64) -> String {
    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }
}
