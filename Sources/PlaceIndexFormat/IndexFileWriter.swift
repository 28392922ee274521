/// Assembles sections into one index file image: header, section table, aligned sections.
package struct IndexFileWriter {
  private var sections: [(kind: UInt32, bytes: [UInt8])] = []
  /// Newest OSM timestamp of the data, seconds since 1970.
  package var dataTimestamp: UInt64 = 0
  /// FNV-1a 64 hash of the build options.
  package var optionsHash: UInt64 = 0

  /// Creates an empty writer.
  package init() {}

  /// Adds a section; kinds must be unique.
  package mutating func add(_ kind: SectionKind, _ bytes: [UInt8]) {
    add(rawKind: kind.rawValue, bytes)
  }

  /// Adds a section of a raw kind (tests use unknown kinds to check they are skipped).
  package mutating func add(rawKind: UInt32, _ bytes: [UInt8]) {
    precondition(!sections.contains { $0.kind == rawKind }, "duplicate section kind \(rawKind)")
    sections.append((rawKind, bytes))
  }

  /// The complete file image.
  package func image() -> [UInt8] {
    var copy = self
    return copy.takeImage()
  }

  /// The complete file image; lets go of each section once it is copied, so that the image
  /// and its sections are not held twice (the writer is empty afterwards).
  package mutating func takeImage() -> [UInt8] {
    sections.sort { $0.kind < $1.kind }
    let tableSize = IndexLayout.sectionEntrySize * sections.count
    var offset = IndexLayout.headerSize + tableSize
    var table = ByteWriter()
    var layout: [Int] = []
    for s in sections {
      offset =
        (offset + IndexLayout.sectionAlignment - 1) / IndexLayout.sectionAlignment
        * IndexLayout.sectionAlignment
      layout.append(offset)
      table.u32(s.kind)
      table.u32(CRC32.checksum(s.bytes))
      table.u64(UInt64(offset))
      table.u64(UInt64(s.bytes.count))
      offset += s.bytes.count
    }
    let fileLength = offset
    var out = ByteWriter()
    out.reserveCapacity(fileLength)
    out.append(IndexLayout.magic)
    out.u16(IndexLayout.majorVersion)
    out.u16(IndexLayout.minorVersion)
    out.u32(0)
    out.u64(UInt64(fileLength))
    out.u32(UInt32(sections.count))
    out.u32(CRC32.checksum(table.bytes))
    out.u64(dataTimestamp)
    out.u64(optionsHash)
    out.append([UInt8](repeating: 0, count: 12))
    out.u32(CRC32.checksum(out.bytes))
    out.append(table.bytes)
    for i in sections.indices {
      while out.count < layout[i] { out.u8(0) }
      out.append(sections[i].bytes)
      sections[i].bytes = []
    }
    sections = []
    return out.bytes
  }
}
