// TYPES section layout:
//   u32 nameCount
//   u32 nameStringIDs[nameCount]     type names, as STRINGS ids
//   u32 listCount
//   u32 listOffsets[listCount + 1]   index of each list's first item in the items array
//   u16 items[...]                   type name indexes; a list's first item is the primary type

/// Reads type names and per-place type lists.
package struct TypeTable: Sendable {
  /// Type names by index.
  package let names: [String]
  /// Type lists, each a list of name indexes, primary first.
  package let lists: [[UInt16]]

  /// Decodes the whole (small) section.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, strings: StringTable)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "TYPES", fileOffset: fileOffset)
    let nameCount = Int(try r.u32())
    guard nameCount <= 1 << 16, nameCount * 4 <= r.remaining else {
      throw r.fault("type count \(nameCount) does not fit", at: 0)
    }
    var names: [String] = []
    for _ in 0..<nameCount { names.append(try strings.string(Int(try r.u32()))) }
    let listCount = Int(try r.u32())
    guard listCount < bytes.count, (listCount + 1) * 4 <= r.remaining else {
      throw r.fault("type list count \(listCount) does not fit")
    }
    var offsets: [Int] = []
    for _ in 0...listCount { offsets.append(Int(try r.u32())) }
    let itemsStart = r.offset
    var lists: [[UInt16]] = []
    for i in 0..<listCount {
      guard offsets[i] <= offsets[i + 1] else {
        throw r.fault("type list \(i) has a negative length")
      }
      var list: [UInt16] = []
      r.offset = itemsStart + 2 * offsets[i]
      for _ in offsets[i]..<offsets[i + 1] {
        let item = try r.u16()
        guard Int(item) < nameCount else { throw r.fault("type index \(item) out of range") }
        list.append(item)
      }
      guard !list.isEmpty else { throw r.fault("type list \(i) is empty") }
      lists.append(list)
    }
    self.names = names
    self.lists = lists
  }

  /// The type names of list `id`, primary first.
  package func types(ofList id: Int) -> [String] {
    lists[id].map { names[Int($0)] }
  }
}

/// Writes a TYPES section.
package enum TypeTableWriter {
  /// The section bytes; `lists` hold indexes into `names`.
  package static func serialize(names: [String], lists: [[Int]], strings: StringTableBuilder)
    -> [UInt8]
  {
    var w = ByteWriter()
    w.u32(UInt32(names.count))
    for n in names { w.u32(UInt32(strings.id(n))) }
    w.u32(UInt32(lists.count))
    var offset = 0
    w.u32(0)
    for l in lists {
      offset += l.count
      w.u32(UInt32(offset))
    }
    for l in lists { for item in l { w.u16(UInt16(item)) } }
    return w.bytes
  }
}
