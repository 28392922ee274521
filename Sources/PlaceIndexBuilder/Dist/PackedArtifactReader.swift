import Foundation
import PlaceIndexFormat

/// A packed artifact opened and checked: its ustar headers, exactly the expected members, the
/// manifest against the index member, and `ATTRIBUTION.txt` against the index's META section.
///
/// The index member is opened over a copy of its bytes (header and section table only); the
/// caller runs the full index verification on ``index``. Errors name the archive, the member
/// and the byte offset in the archive.
public struct PackedArtifactReader: Sendable {
  /// The archive's path.
  public let path: String
  /// The members in archive order.
  public let members: [UstarArchive.Member]
  /// The index's name: the index member's name without `.placeidx`.
  public let name: String
  /// The index member.
  public let indexMember: UstarArchive.Member
  /// The manifest member, decoded.
  public let manifest: Manifest
  /// The index member opened in memory; its offsets count from the member's first byte.
  package let index: IndexFile

  /// Whether the file at `path` looks like a packed artifact rather than an index: its name
  /// ends in `.tar` or it has the ustar magic at byte 257.
  public static func looksPacked(path: String) -> Bool {
    if path.hasSuffix(".tar") { return true }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: 263), head.count == 263 else { return false }
    return head.suffix(6).elementsEqual("ustar\0".utf8)
  }

  /// Opens and checks the packed artifact at `path`.
  public init(path: String) throws {
    self.path = path
    let mapped: MappedBytes
    do throws(IndexFormatError) {
      mapped = try MappedBytes(path: path)
    } catch {
      guard case .cannotOpen(_, let reason) = error else { throw error }
      throw PackedArtifactError(path: path, reason: "cannot open: \(reason)")
    }
    // The mapping must outlive every use of `archive`.
    defer { withExtendedLifetime(mapped) {} }
    let archive = mapped.buffer
    let members = try UstarArchive.members(of: archive, path: path)
    self.members = members

    // Exactly the index, its manifest and ATTRIBUTION.txt.
    let indexes = members.filter { $0.name.hasSuffix(".placeidx") }
    guard indexes.count == 1 else {
      throw PackedArtifactError(
        path: path,
        reason: indexes.isEmpty
          ? "missing member <name>.placeidx: the archive holds no index"
          : "several index members: \(indexes.map(\.name).joined(separator: ", "))")
    }
    let indexMember = indexes[0]
    let name = String(indexMember.name.dropLast(".placeidx".count))
    self.indexMember = indexMember
    self.name = name
    let names = PackedArtifact.memberNames(name)
    let expected = [names.index, names.manifest, PackedArtifact.attributionMember]
    var seen = Set<String>()
    for m in members {
      guard expected.contains(m.name) else {
        throw PackedArtifactError(
          path: path, member: m.name, offset: m.headerOffset,
          reason: "unexpected member; a packed artifact holds exactly "
            + expected.joined(separator: ", "))
      }
      guard seen.insert(m.name).inserted else {
        throw PackedArtifactError(
          path: path, member: m.name, offset: m.headerOffset, reason: "member appears twice")
      }
    }
    for n in expected where !seen.contains(n) {
      throw PackedArtifactError(path: path, reason: "missing member \(n)")
    }
    // Every expected name is present exactly once (checked above).
    let byName = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
    func data(_ m: UstarArchive.Member) -> [UInt8] {
      Array(UnsafeRawBufferPointer(rebasing: archive[m.dataRange]))
    }

    // The manifest against the index member's bytes.
    let manifestMember = byName[names.manifest]!
    func manifestError(_ reason: String) -> PackedArtifactError {
      PackedArtifactError(
        path: path, member: manifestMember.name, offset: manifestMember.dataOffset, reason: reason)
    }
    do {
      self.manifest = try JSONDecoder().decode(Manifest.self, from: Data(data(manifestMember)))
    } catch {
      throw manifestError("not a valid manifest: \(error)")
    }
    let manifest = self.manifest
    let indexBytes = data(indexMember)
    let indexPath = "\(path): member \(indexMember.name) (data from byte \(indexMember.dataOffset))"
    func indexError(_ reason: String) -> PackedArtifactError {
      PackedArtifactError(
        path: path, member: indexMember.name, offset: indexMember.dataOffset, reason: reason)
    }
    guard manifest.size == indexBytes.count else {
      throw indexError(
        "\(indexBytes.count) bytes, but the manifest \(names.manifest) says \(manifest.size)")
    }
    let sha = SHA256.hex(indexBytes)
    guard sha == manifest.sha256 else {
      // Name the damaged section too when the index's own checksums find it.
      var found = ""
      do {
        try IndexFile(bytes: MappedBytes(copying: indexBytes), path: indexMember.name)
          .verifyChecksums()
      } catch {
        found = " (\(error))"
      }
      throw indexError(
        "sha256 is \(sha), the manifest \(names.manifest) says \(manifest.sha256)\(found)")
    }
    let index = try IndexFile(bytes: MappedBytes(copying: indexBytes), path: indexPath)
    self.index = index

    // The manifest and ATTRIBUTION.txt against the index's header and META section.
    let meta: IndexMetadata
    do {
      meta = try PackedArtifact.metadata(of: index)
    } catch {
      try index.verifyChecksums()  // a damaged META section: say so rather than "no attribution"
      throw error
    }
    let version = "\(index.major).\(index.minor)"
    let checks: [(String, String, String)] = [
      ("formatVersion", manifest.formatVersion, version),
      ("dataVersion.timestamp", "\(manifest.dataVersion.timestamp)", "\(index.dataTimestamp)"),
      ("dataVersion.source", manifest.dataVersion.source, meta.source),
      ("attribution", manifest.attribution, meta.attribution),
      ("license", manifest.license, meta.license),
    ]
    for (field, stated, actual) in checks where stated != actual {
      throw manifestError("\(field) is '\(stated)', the index says '\(actual)'")
    }
    let attributionMember = byName[PackedArtifact.attributionMember]!
    let text = String(decoding: data(attributionMember), as: UTF8.self)
    let expectedText = PackedArtifact.attributionText(
      attribution: meta.attribution, license: meta.license, source: meta.source,
      dataTimestamp: index.dataTimestamp)
    if text != expectedText {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let want = expectedText.split(separator: "\n", omittingEmptySubsequences: false)
      let i =
        zip(lines, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(lines.count, want.count)
      let got = i < lines.count ? "'\(lines[i])'" : "nothing"
      let wanted = i < want.count ? "'\(want[i])'" : "nothing"
      throw PackedArtifactError(
        path: path, member: attributionMember.name, offset: attributionMember.dataOffset,
        reason:
          "does not match the index's META section: line \(i + 1) is \(got), expected \(wanted)"
      )
    }
  }
}
