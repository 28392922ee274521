// POSTINGS section layout:
//   u32 tokenCount
//   u32 offsets[tokenCount + 1]   offset of each token's list from the start of the data area
//   data area: per token: varint n, then n varints: the first place index, then the gaps to
//              each next one (strictly increasing place indexes). Places are numbered by rank,
//              most important first, so each list is in importance order and a query that has
//              enough good results can stop reading it early.

/// Reads the places that carry each token.
public struct Postings: @unchecked Sendable {
  let reader: ByteReader
  /// Number of lists (equals the token count).
  public let count: Int
  let dataStart: Int
  let placeCount: Int

  /// Reads the section header; `placeCount` bounds every place index.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int) throws {
    var r = ByteReader(bytes, section: "POSTINGS", fileOffset: fileOffset)
    count = Int(try r.u32())
    dataStart = 4 + 4 * (count + 1)
    guard count < bytes.count, dataStart <= bytes.count else {
      throw r.fault("list count \(count) does not fit", at: 0)
    }
    self.placeCount = placeCount
    reader = r
  }

  /// A cursor over the list of token `token`.
  public func list(_ token: Int) throws -> PostingsCursor {
    guard token >= 0, token < count else { throw reader.fault("token \(token) has no list", at: 0) }
    var r = reader
    let start = Int(try reader.u32(at: 4, index: token))
    guard start <= reader.buffer.count - dataStart else {
      throw reader.fault("list \(token) starts past the end", at: 4 + 4 * token)
    }
    r.offset = dataStart + start
    let n = try r.varint(below: placeCount + 1)
    return PostingsCursor(reader: r, remaining: n, count: n, placeCount: placeCount)
  }

  /// Number of places in the list of `token`.
  public func length(_ token: Int) throws -> Int { try list(token).count }

  /// Decodes every list, checking order and range.
  public func verify() throws {
    for t in 0..<count {
      var c = try list(t)
      while try c.next() != nil {}
    }
  }
}

/// Iterates one postings list in place-index order.
public struct PostingsCursor {
  var reader: ByteReader
  var remaining: Int
  /// Number of entries in the list.
  public let count: Int
  let placeCount: Int
  var last = -1

  /// The next place index, or nil at the end.
  @inline(__always)
  public mutating func next() throws -> Int? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    let start = reader.offset
    let gap = try reader.varint()
    // Checked before adding, so that a hostile gap cannot overflow.
    guard gap < UInt64(placeCount - max(last, 0)) else {
      throw reader.fault("place index gap \(gap) out of range", at: start)
    }
    let value = last < 0 ? Int(gap) : last + Int(gap)
    guard value >= 0, value < placeCount, (last < 0 || gap > 0) else {
      throw reader.fault("place index \(value) out of order or range", at: start)
    }
    last = value
    return value
  }
}

/// Writes a POSTINGS section.
public enum PostingsWriter {
  /// The section bytes; `lists[t]` holds the strictly increasing place indexes of token `t`.
  public static func serialize(_ lists: [[Int]]) -> [UInt8] {
    var data = ByteWriter()
    var offsets: [UInt32] = [0]
    for list in lists {
      data.varint(list.count)
      var last = -1
      for p in list {
        precondition(p > last, "postings must be strictly increasing")
        data.varint(last < 0 ? p : p - last)
        last = p
      }
      offsets.append(UInt32(data.count))
    }
    var w = ByteWriter()
    w.u32(UInt32(lists.count))
    for o in offsets { w.u32(o) }
    w.append(data.bytes)
    return w.bytes
  }
}
