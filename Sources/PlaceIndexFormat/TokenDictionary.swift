// TOKENS section layout (front-coded blocks, as in Lucene's terms index):
//   u32 tokenCount
//   u32 blockSize              tokens per block (the last block may hold fewer)
//   u32 blockCount
//   u32 blockOffsets[blockCount]   offset of each block from the start of the data area
//   u8  codeLengths[257]       the Huffman code of the suffixes, as STRINGS has its own
//                              (HuffmanCode.swift)
//   data area: per block:
//     the first token:         varint length, bytes
//     per other token:         varint (shared << 4) | min(suffix, 15), where shared is the
//                              length of the prefix shared with the previous token and suffix
//                              the length of the rest; [varint suffix - 15] when suffix >= 15
//     the other tokens' suffix bytes, in order, coded one after another with no end symbols,
//     padded to a byte with 1 bits
// Tokens are distinct, sorted bytewise; a token's id is its position. A prefix therefore names a
// contiguous id range, found by a binary search over the blocks' first tokens and a scan of at
// most two blocks: time proportional to the prefix and the block size, not the dictionary.

/// Looks up tokens, exact or by prefix, in the sorted token dictionary.
package struct TokenDictionary: @unchecked Sendable {
  let reader: ByteReader
  /// Number of tokens.
  package let count: Int
  package let blockSize: Int
  let blockCount: Int
  let dataStart: Int
  /// The code of the suffixes.
  let code: HuffmanCode

  /// Reads the section header.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int) throws(IndexFormatError) {
    var r = ByteReader(bytes, section: "TOKENS", fileOffset: fileOffset)
    count = Int(try r.u32())
    blockSize = Int(try r.u32())
    blockCount = Int(try r.u32())
    guard blockSize > 0, blockSize <= 4096,
      blockCount == (count + blockSize - 1) / blockSize, blockCount < bytes.count
    else {
      throw r.fault(
        "block header (count \(count), size \(blockSize), blocks \(blockCount)) is inconsistent",
        at: 0)
    }
    guard 12 + 4 * blockCount <= bytes.count else {
      throw r.fault("block table runs past the end")
    }
    r.offset = 12 + 4 * blockCount
    code = try HuffmanCode(reading: &r)
    dataStart = r.offset
    reader = r
  }

  /// Decodes the tokens of block `b` into `out` (cleared first).
  package func block(_ b: Int, into out: inout [[UInt8]]) throws(IndexFormatError) {
    out.removeAll(keepingCapacity: true)
    try scanBlock(b) { _, token, _ in
      out.append(copy token)
      return true
    }
  }

  /// Reads the head of a token after a block's first: the length of the prefix it shares with
  /// the previous token (of `previous` bytes) and the length of the rest.
  @inline(__always)
  static func sharedAndSuffix(_ r: inout ByteReader, previous: Int) throws(IndexFormatError) -> (
    Int, Int
  ) {
    let head = try r.varint(below: (previous + 1) << 4)
    var suffix = head & 15
    if suffix == 15 { suffix += try r.varint(below: 1 << 16) }
    return (head >> 4, suffix)
  }

  /// The first token of block `b`, compared without building an array.
  func firstToken(_ b: Int) throws(IndexFormatError) -> UnsafeRawBufferPointer {
    var r = reader
    r.offset = dataStart + Int(try reader.u32(at: 12, index: b))
    let len = try r.varint(below: 1 << 16)
    return try r.bytes(len)
  }

  /// Calls `body` with each token of block `b` in order, in one reused buffer, and the length
  /// of the prefix it shares with the token before it (0 for a block's first); `body` returns
  /// false to stop.
  package func scanBlock(
    _ b: Int,
    _ body: (_ id: Int, _ token: borrowing [UInt8], _ shared: Int) throws(IndexFormatError) -> Bool
  ) throws(IndexFormatError) {
    let n = min(blockSize, count - b * blockSize)
    guard n > 0 else { return }
    var token: [UInt8] = []
    token.reserveCapacity(32)
    try withUnsafeTemporaryAllocation(of: (shared: Int, suffix: Int).self, capacity: n) {
      (heads) throws(IndexFormatError) in
      var cursor = try readBlockHeads(b, first: &token) { heads[$0] = $1 }
      guard try body(b * blockSize, token, 0) else { return }
      for i in 1..<n {
        token.removeSubrange(heads[i].shared...)
        try code.decode(heads[i].suffix, from: &cursor, into: &token)
        guard try body(b * blockSize + i, token, heads[i].shared) else { return }
      }
    }
  }

  /// Reads block `b` up to its suffixes' codes: its first token into `first` (cleared first),
  /// then each other token's shared prefix and suffix lengths, given to `head` with the
  /// token's place in the block (1 on); the cursor at the first suffix's code.
  @inline(__always)
  func readBlockHeads(
    _ b: Int, first: inout [UInt8], _ head: (Int, (shared: Int, suffix: Int)) -> Void
  ) throws(IndexFormatError) -> HuffmanCode.Cursor {
    var r = reader
    r.offset = dataStart + Int(try reader.u32(at: 12, index: b))
    first.removeAll(keepingCapacity: true)
    first.append(contentsOf: try r.bytes(try r.varint(below: 1 << 16)))
    // The other tokens' lengths come first, then their suffixes' codes.
    var length = first.count
    for i in 1..<max(1, min(blockSize, count - b * blockSize)) {
      let h = try Self.sharedAndSuffix(&r, previous: length)
      head(i, h)
      length = h.0 + h.1
    }
    return HuffmanCode.Cursor(r)
  }

  /// The id of the first token that is ≥ `key` bytewise (== count when none).
  package func lowerBound(_ key: [UInt8]) throws(IndexFormatError) -> Int {
    if count == 0 { return 0 }
    // Last block whose first token is <= key.
    var lo = 0
    var hi = blockCount
    while lo < hi {
      let mid = (lo + hi) / 2
      let first = try firstToken(mid)
      if !key.lexicographicallyPrecedes(first) { lo = mid + 1 } else { hi = mid }
    }
    let b = max(0, lo - 1)
    var found = min(count, (b + 1) * blockSize)
    try scanBlock(b) { id, token, _ in
      if !token.lexicographicallyPrecedes(key) {
        found = id
        return false
      }
      return true
    }
    return found
  }

  /// The first token id of the last block, from block `start` on, whose first token is at
  /// most `key` (block `start`'s first id when none is): the first token ≥ `key` lies in that
  /// block or starts the next. A galloping search over the blocks' first tokens, so that a
  /// key a few blocks ahead costs a few comparisons, not a search of the whole dictionary.
  package func blockStart(atMost key: [UInt8], fromBlock start: Int) throws(IndexFormatError)
    -> Int
  {
    guard start < blockCount else { return count }
    var lo = max(0, start)
    var step = 1
    var hi = blockCount
    while lo + step < blockCount {
      if key.lexicographicallyPrecedes(try firstToken(lo + step)) {
        hi = lo + step
        break
      }
      lo += step
      step *= 2
    }
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if key.lexicographicallyPrecedes(try firstToken(mid)) { hi = mid } else { lo = mid }
    }
    return lo * blockSize
  }

  /// The ids of all tokens that start with `prefix`.
  package func prefixRange(_ prefix: String) throws(IndexFormatError) -> Range<Int> {
    let key = Array(prefix.utf8)
    let lo = try lowerBound(key)
    guard let upper = Self.successor(key) else { return lo..<count }
    let hi = try lowerBound(upper)
    return lo..<max(lo, hi)
  }

  /// The id of `token`, if it is in the dictionary.
  package func exactID(_ token: String) throws(IndexFormatError) -> Int? {
    try exactID(token, inPrefixRange: prefixRange(token))
  }

  /// The id of the token equal to `token`, given its ``prefixRange(_:)``: the first id of the
  /// range when that token is `token` itself (one block scan, no second search).
  package func exactID(_ token: String, inPrefixRange range: Range<Int>) throws(IndexFormatError)
    -> Int?
  {
    guard !range.isEmpty else { return nil }
    let id = range.lowerBound
    let key = Array(token.utf8)
    var equal = false
    try scanBlock(id / blockSize) { at, word, _ in
      guard at == id else { return at < id }
      equal = word == key
      return false
    }
    return equal ? id : nil
  }

  /// The bytes of token `id`.
  package func tokenBytes(_ id: Int) throws(IndexFormatError) -> [UInt8] {
    guard id >= 0, id < count else { throw reader.fault("token id \(id) out of range", at: 0) }
    var tokens: [[UInt8]] = []
    try block(id / blockSize, into: &tokens)
    return tokens[id % blockSize]
  }

  /// The text of token `id`.
  package func token(_ id: Int) throws(IndexFormatError) -> String {
    String(decoding: try tokenBytes(id), as: UTF8.self)
  }

  /// Calls `body` with every token in order (for typo search and verification).
  package func forEach(_ body: (Int, [UInt8]) throws(IndexFormatError) -> Void)
    throws(IndexFormatError)
  {
    var tokens: [[UInt8]] = []
    for b in 0..<blockCount {
      try block(b, into: &tokens)
      for (i, t) in tokens.enumerated() { try body(b * blockSize + i, t) }
    }
  }

  /// Checks that every block decodes and that tokens are strictly increasing.
  package func verify() throws(IndexFormatError) {
    var previous: [UInt8]? = nil
    try forEach { (id, t) throws(IndexFormatError) in
      if let p = previous, !p.lexicographicallyPrecedes(t) {
        throw reader.fault("token \(id) is not greater than its predecessor", at: 0)
      }
      previous = t
    }
  }

  /// The smallest byte string greater than every string starting with `key`, or nil if none.
  package static func successor(_ key: [UInt8]) -> [UInt8]? {
    var k = key
    while let last = k.last {
      if last < 0xFF {
        k[k.count - 1] = last + 1
        return k
      }
      k.removeLast()
    }
    return nil
  }
}

/// Writes a sorted token list as a front-coded TOKENS section.
package enum TokenDictionaryWriter {
  /// Tokens per block.
  package static let blockSize = 16

  /// The section bytes for `tokens`, which must be distinct and sorted bytewise.
  package static func serialize(_ tokens: [String]) -> [UInt8] {
    let blockCount = (tokens.count + blockSize - 1) / blockSize
    // Front coding first: the code fits the suffixes that remain.
    var firsts: [[UInt8]] = []
    var heads: [(shared: Int, suffix: ArraySlice<UInt8>)] = []
    var previous: [UInt8] = []
    for (i, token) in tokens.enumerated() {
      let bytes = Array(token.utf8)
      if i % blockSize == 0 {
        firsts.append(bytes)
      } else {
        precondition(
          previous.lexicographicallyPrecedes(bytes), "tokens must be sorted and distinct")
        var shared = 0
        while shared < min(previous.count, bytes.count) && previous[shared] == bytes[shared] {
          shared += 1
        }
        heads.append((shared, bytes[shared...]))
      }
      previous = bytes
    }
    let code = HuffmanCode.fitting(texts: heads.map(\.suffix))
    var data = ByteWriter()
    var offsets: [UInt32] = []
    for (b, first) in firsts.enumerated() {
      // Past 4 GiB the section is refused as a whole (IndexImageWriter.checkSectionSize).
      offsets.append(UInt32(truncatingIfNeeded: data.count))
      data.varint(first.count)
      data.append(first)
      let others = heads[(b * (blockSize - 1))..<min(heads.count, (b + 1) * (blockSize - 1))]
      for h in others {
        data.varint(h.shared << 4 | min(h.suffix.count, 15))
        if h.suffix.count >= 15 { data.varint(h.suffix.count - 15) }
      }
      var stream = HuffmanCode.Stream()
      for h in others { stream.append(h.suffix, code: code, into: &data) }
      stream.finish(into: &data)
    }
    var w = ByteWriter()
    w.u32(UInt32(tokens.count))
    w.u32(UInt32(blockSize))
    w.u32(UInt32(blockCount))
    for o in offsets { w.u32(o) }
    w.append(code.lengths)
    w.append(data.bytes)
    return w.bytes
  }
}
