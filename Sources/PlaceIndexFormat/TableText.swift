// VOCABULARY and ABBREVIATIONS section layout: a tab-separated table (a Data/*.tsv file
// without its comment and blank lines), dictionary-coded (all varints):
//   valueCount, then valueCount × (byte length, UTF-8 bytes)   distinct cell values, in order
//                                                              of first use
//   rowCount, then per row: cellCount, then cellCount value indexes
// Decoding gives back the table's lines joined by newlines, cells joined by tabs: the text the
// table parsers read. The type vocabulary shrinks from 37 kB of commented text to about 11 kB.

/// Encodes and decodes a tab-separated table as a dictionary-coded section.
public enum TableText {
  /// The section bytes for `tsv` (comment lines, starting with "#", and blank lines dropped).
  public static func encode(_ tsv: String) -> [UInt8] {
    var values: [String] = []
    var index: [String: Int] = [:]
    var rows: [[Int]] = []
    for line in tsv.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { continue }
      rows.append(
        line.split(separator: "\t", omittingEmptySubsequences: false).map { cell in
          let s = String(cell)
          if let i = index[s] { return i }
          index[s] = values.count
          values.append(s)
          return values.count - 1
        })
    }
    var w = ByteWriter()
    w.varint(values.count)
    for v in values {
      w.varint(v.utf8.count)
      w.append(v.utf8)
    }
    w.varint(rows.count)
    for row in rows {
      w.varint(row.count)
      for v in row { w.varint(v) }
    }
    return w.bytes
  }

  /// The table text of a section written by ``encode(_:)``.
  public static func decode(
    _ bytes: UnsafeRawBufferPointer, section: StaticString, fileOffset: Int
  ) throws -> String {
    var r = ByteReader(bytes, section: section, fileOffset: fileOffset)
    let valueCount = try r.varint(below: bytes.count + 1)
    var values: [String] = []
    values.reserveCapacity(valueCount)
    for _ in 0..<valueCount {
      let n = try r.varint(below: bytes.count + 1)
      values.append(String(decoding: try r.bytes(n), as: UTF8.self))
    }
    let rowCount = try r.varint(below: bytes.count + 1)
    var lines: [String] = []
    lines.reserveCapacity(rowCount)
    for _ in 0..<rowCount {
      let cellCount = try r.varint(below: bytes.count + 1)
      var cells: [String] = []
      cells.reserveCapacity(cellCount)
      for _ in 0..<cellCount { cells.append(values[try r.varint(below: valueCount)]) }
      lines.append(cells.joined(separator: "\t"))
    }
    guard r.remaining == 0 else { throw r.fault("\(r.remaining) bytes after the table") }
    return lines.joined(separator: "\n") + "\n"
  }
}
