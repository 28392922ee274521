/// An opened index file: validated header and section table over mapped bytes.
///
/// Opening checks the magic, the version, the header and table checksums and that every
/// section lies inside the file: O(1) in the file size. ``verify()`` checks the section bytes.
package final class IndexFile: Sendable {
  /// One entry of the section table.
  package struct Section: Sendable, Hashable {
    /// The raw kind (possibly unknown to this reader).
    package var kind: UInt32
    /// The stored CRC-32 of the section bytes.
    package var checksum: UInt32
    /// Offset from the file start.
    package var offset: Int
    /// Length in bytes.
    package var length: Int
    /// The section's name in messages.
    package var name: String { SectionKind.name(of: kind) }
  }

  /// The path the file was opened from, for messages.
  package let path: String
  /// The bytes.
  package let bytes: MappedBytes
  /// Format version of the file.
  package let major: UInt16
  /// Minor format version of the file.
  package let minor: UInt16
  /// Header flags.
  package let flags: UInt32
  /// Newest element timestamp of the data (seconds since 1970, 0 when unknown).
  package let dataTimestamp: UInt64
  /// Hash of the build options.
  package let optionsHash: UInt64
  /// The section table, in file order.
  package let sections: [Section]

  /// Maps and opens the index at `path`.
  package convenience init(path: String) throws(IndexFormatError) {
    try self.init(bytes: MappedBytes(path: path), path: path)
  }

  /// Opens an index held in `bytes`.
  package init(bytes: MappedBytes, path: String) throws(IndexFormatError) {
    self.path = path
    self.bytes = bytes
    let b = bytes.buffer
    guard b.count >= IndexLayout.magic.count,
      IndexLayout.magic.elementsEqual(b[0..<IndexLayout.magic.count])
    else {
      throw IndexFormatError.notAnIndex(path: path)
    }
    guard b.count >= IndexLayout.headerSize else {
      throw IndexFormatError.truncated(
        path: path, expectedBytes: IndexLayout.headerSize, actualBytes: b.count)
    }
    var r = ByteReader(b, section: "HEADER", offset: 8)
    // The header's reads raise errors without a path: named here.
    do throws(IndexFormatError) {
      major = try r.u16()
      minor = try r.u16()
      // The version is checked before the checksum so that a newer file gets a version error.
      guard major == IndexLayout.majorVersion else {
        throw IndexFormatError.unsupportedVersion(
          path: path, expected: IndexLayout.majorVersion, got: major, gotMinor: minor)
      }
      flags = try r.u32()
      let fileLength = try r.u64()
      let count = try r.u32()
      let tableCRC = try r.u32()
      dataTimestamp = try r.u64()
      optionsHash = try r.u64()
      r.offset = 60
      let headerCRC = try r.u32()
      let actualHeaderCRC = CRC32.checksum(UnsafeRawBufferPointer(rebasing: b[0..<60]))
      guard headerCRC == actualHeaderCRC else {
        throw IndexFormatError.checksumMismatch(
          path: path, section: "HEADER", expected: headerCRC, actual: actualHeaderCRC)
      }
      guard fileLength == UInt64(b.count) else {
        if fileLength > UInt64(b.count) {
          throw IndexFormatError.truncated(
            path: path, expectedBytes: Int(clamping: fileLength), actualBytes: b.count)
        }
        throw IndexFormatError.corrupt(
          path: path, section: "HEADER", offset: 16,
          reason: "file is \(b.count) bytes but the header says \(fileLength)")
      }
      let tableEnd = IndexLayout.headerSize + Int(count) * IndexLayout.sectionEntrySize
      guard count < 1024, tableEnd <= b.count else {
        throw IndexFormatError.corrupt(
          path: path, section: "HEADER", offset: 24, reason: "section count \(count) does not fit")
      }
      let table = UnsafeRawBufferPointer(rebasing: b[IndexLayout.headerSize..<tableEnd])
      let actualTableCRC = CRC32.checksum(table)
      guard actualTableCRC == tableCRC else {
        throw IndexFormatError.checksumMismatch(
          path: path, section: "SECTION TABLE", expected: tableCRC, actual: actualTableCRC)
      }
      var t = ByteReader(table, section: "SECTION TABLE", fileOffset: IndexLayout.headerSize)
      var sections: [Section] = []
      for i in 0..<Int(count) {
        let kind = try t.u32()
        let crc = try t.u32()
        let offset = try t.u64()
        let length = try t.u64()
        guard offset >= UInt64(tableEnd), length <= UInt64(b.count),
          offset <= UInt64(b.count) - length
        else {
          throw IndexFormatError.corrupt(
            path: path, section: "SECTION TABLE",
            offset: IndexLayout.headerSize + i * IndexLayout.sectionEntrySize,
            reason:
              "section \(SectionKind.name(of: kind)) [\(offset), +\(length)) lies outside the file")
        }
        sections.append(
          Section(kind: kind, checksum: crc, offset: Int(offset), length: Int(length)))
      }
      self.sections = sections
    } catch {
      throw error.withPath(path)
    }
  }

  /// The section of `kind`, if present.
  package func section(_ kind: SectionKind) -> Section? {
    sections.first { $0.kind == kind.rawValue }
  }

  /// The bytes of a section.
  package func bytes(of section: Section) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      rebasing: bytes.buffer[section.offset..<(section.offset + section.length)])
  }

  /// The bytes of the required section `kind`.
  package func requiredBytes(_ kind: SectionKind) throws(IndexFormatError) -> (
    Section, UnsafeRawBufferPointer
  ) {
    guard let s = section(kind) else {
      throw IndexFormatError.missingSection(path: path, section: kind.name)
    }
    return (s, bytes(of: s))
  }

  /// Checks every section's checksum; throws for the first that does not match.
  package func verifyChecksums() throws(IndexFormatError) {
    for s in sections {
      let actual = CRC32.checksum(bytes(of: s))
      guard actual == s.checksum else {
        throw IndexFormatError.checksumMismatch(
          path: path, section: s.name, expected: s.checksum, actual: actual)
      }
    }
  }
}
