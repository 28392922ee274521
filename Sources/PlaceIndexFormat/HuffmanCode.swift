/// A canonical Huffman code over the 256 byte values and an end symbol, as STRINGS stores its
/// text (StringTable.swift has the layout).
///
/// Codes are canonical: shorter codes first, codes of one length in symbol order, so the code
/// lengths alone define the code. The end symbol (256) always has the longest code, and the
/// last one, all 1 bits; coded text is padded to a byte with 1 bits, so the padding is the end
/// symbol or a prefix of it, and no end symbol needs to be written.
struct HuffmanCode: Sendable {
  /// Number of symbols: the byte values and the end symbol.
  static let symbolCount = 257
  /// The end symbol.
  static let end = 256
  /// The longest code the writer makes and the reader accepts.
  static let maxLength = 24

  /// Each symbol's code length (0: the symbol does not occur).
  let lengths: [UInt8]
  /// Number of codes of each length, by length (index 0 unused).
  private let counts: [Int]
  /// Symbols in canonical order.
  private let symbols: [Int]
  /// Each symbol's code, for writing.
  private let codes: [UInt32]
  /// Bits of the lookup table: codes up to this long are decoded in one step.
  private static let fastBits = 11
  /// By the next ``fastBits`` bits: the symbol whose code they start with, shifted left by 5,
  /// or'ed with its code length; 0 when the code is longer (or no code starts so).
  private let fast: [UInt16]

  /// The code of `lengths` (one per symbol); throws when they cannot form a prefix code.
  init(lengths: [UInt8]) throws(HuffmanCodeError) {
    guard lengths.count == Self.symbolCount else { throw .init("\(lengths.count) code lengths") }
    var counts = [Int](repeating: 0, count: Self.maxLength + 1)
    for l in lengths {
      guard l <= Self.maxLength else { throw .init("a code length of \(l) bits") }
      if l > 0 { counts[Int(l)] += 1 }
    }
    // Kraft: no more codes of each length than the shorter ones leave room for.
    var room = 1
    for l in 1...Self.maxLength {
      room = 2 * room - counts[l]
      guard room >= 0 else { throw .init("more codes of \(l) bits than fit") }
    }
    self.lengths = lengths
    self.counts = counts
    // By length, then by symbol.
    var symbols: [Int] = []
    symbols.reserveCapacity(Self.symbolCount)
    for l in 1...Self.maxLength where counts[l] > 0 {
      for s in 0..<Self.symbolCount where lengths[s] == l { symbols.append(s) }
    }
    self.symbols = symbols
    var codes = [UInt32](repeating: 0, count: Self.symbolCount)
    var code: UInt32 = 0
    var length = 0
    for s in symbols {
      code <<= UInt32(Int(lengths[s]) - length)
      length = Int(lengths[s])
      codes[s] = code
      code += 1
    }
    self.codes = codes
    var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
    for s in symbols where Int(lengths[s]) <= Self.fastBits {
      let free = Self.fastBits - Int(lengths[s])
      let start = Int(codes[s]) << free
      for k in 0..<(1 << free) { fast[start + k] = UInt16(s << 5 | Int(lengths[s])) }
    }
    self.fast = fast
  }

  /// Reads the code lengths at `r` (``symbolCount`` bytes, one per symbol).
  init(reading r: inout ByteReader) throws(IndexFormatError) {
    let at = r.offset
    let lengths = Array(try r.bytes(Self.symbolCount))
    do throws(HuffmanCodeError) {
      try self.init(lengths: lengths)
    } catch {
      throw r.fault("code lengths: \(error.reason)", at: at)
    }
  }

  /// The code fitted to the bytes of `texts`.
  static func fitting<Texts: Sequence>(texts: Texts) -> HuffmanCode
  where Texts.Element: Sequence<UInt8> {
    var frequencies = [Int](repeating: 0, count: 256)
    for text in texts { for b in text { frequencies[Int(b)] += 1 } }
    return fitting(frequencies)
  }

  /// The code for text whose bytes occur `frequencies` times (256 counts): Huffman code
  /// lengths of at most ``maxLength`` bits, the end symbol given the longest.
  static func fitting(_ frequencies: [Int]) -> HuffmanCode {
    var weights = frequencies.map { max(0, $0) } + [1]
    // At least two symbols, so that every code is at least one bit long.
    if weights[0..<256].allSatisfy({ $0 == 0 }) { weights[0] = 1 }
    var lengths = huffmanLengths(weights)
    // Rarely, a skewed distribution gives codes too long: flatten the weights and retry.
    while lengths.max()! > maxLength {
      weights = weights.map { $0 == 0 ? 0 : max(1, $0 / 2) }
      lengths = huffmanLengths(weights)
    }
    // Swapping two symbols' lengths keeps the code complete; the end symbol takes the longest.
    let longest = lengths.max()!
    if lengths[end] < longest, let s = lengths.firstIndex(of: longest) {
      lengths.swapAt(s, end)
    }
    // The lengths come from a Huffman tree, so they form a prefix code.
    return try! HuffmanCode(lengths: lengths.map(UInt8.init))
  }

  /// Huffman code lengths of the symbols with a positive weight (0 for the others).
  static func huffmanLengths(_ weights: [Int]) -> [Int] {
    // Nodes: leaves (the symbols), then the merged ones; merge the two lightest, ties by
    // node number, so the result is deterministic.
    var weight: [Int] = weights
    var parent = [Int](repeating: -1, count: weights.count)
    var queue = weights.indices.filter { weights[$0] > 0 }
    func lighter(_ a: Int, _ b: Int) -> Bool { (weight[a], a) < (weight[b], b) }
    while queue.count > 1 {
      queue.sort { lighter($1, $0) }
      let a = queue.removeLast()
      let b = queue.removeLast()
      let node = weight.count
      weight.append(weight[a] + weight[b])
      parent.append(-1)
      parent[a] = node
      parent[b] = node
      queue.append(node)
    }
    return weights.indices.map { s in
      guard weights[s] > 0 else { return 0 }
      var depth = 0
      var n = s
      while parent[n] >= 0 {
        depth += 1
        n = parent[n]
      }
      return depth
    }
  }

  /// Appends the code of `bytes` to `w`, padded to a byte with 1 bits.
  func encode(_ bytes: some Sequence<UInt8>, into w: inout ByteWriter) {
    var stream = Stream()
    stream.append(bytes, code: self, into: &w)
    stream.finish(into: &w)
  }

  /// Codes written one after another with no padding between them (TOKENS' suffixes).
  struct Stream {
    /// The low `bits` bits are written next, the first one highest.
    private var buffer: UInt64 = 0
    private var bits = 0

    /// Appends the code of `bytes` in `code`, writing whole bytes to `w`.
    mutating func append(_ bytes: some Sequence<UInt8>, code: HuffmanCode, into w: inout ByteWriter)
    {
      for b in bytes {
        let length = Int(code.lengths[Int(b)])
        precondition(length > 0, "byte \(b) has no code")
        buffer = buffer << UInt64(length) | UInt64(code.codes[Int(b)])
        bits += length
        while bits >= 8 {
          bits -= 8
          w.u8(UInt8(truncatingIfNeeded: buffer >> UInt64(bits)))
        }
      }
    }

    /// Writes the last bits, padded to a byte with 1 bits.
    mutating func finish(into w: inout ByteWriter) {
      if bits > 0 {
        let pad = 8 - bits
        w.u8(UInt8(truncatingIfNeeded: buffer << UInt64(pad) | (1 << UInt64(pad) - 1)))
      }
      bits = 0
    }
  }

  /// A position in coded bytes, between two codes: the bits read from `reader` and not yet
  /// decoded.
  struct Cursor {
    var reader: ByteReader
    /// The next `available` bits are the low bits of `buffer`, the first one highest.
    fileprivate var buffer: UInt64 = 0
    fileprivate var available = 0

    /// A cursor at `reader`'s offset.
    init(_ reader: ByteReader) { self.reader = reader }
  }

  /// Appends the next `count` bytes the code at `c` stands for to `out`; the end symbol, or
  /// the end of the bytes, before them is an error.
  @inline(__always)
  func decode(_ count: Int, from c: inout Cursor, into out: inout [UInt8]) throws(IndexFormatError)
  {
    for _ in 0..<count {
      let symbol = try next(&c)
      guard symbol != Self.end else {
        throw c.reader.fault("the coded bytes end before their \(count) bytes", at: c.reader.offset)
      }
      out.append(UInt8(truncatingIfNeeded: symbol))
    }
  }

  /// Appends the bytes the code read by `r` (to its end) stands for to `out`, stopping at the
  /// end symbol or once `out` holds `limit` bytes.
  func decode(_ r: ByteReader, into out: inout [UInt8], upTo limit: Int) throws(IndexFormatError) {
    var c = Cursor(r)
    while out.count < limit {
      let symbol = try next(&c)
      if symbol == Self.end { return }
      out.append(UInt8(truncatingIfNeeded: symbol))
    }
  }

  /// The symbol whose code starts at `c`, moving past it. Past the last byte, the padding (a
  /// prefix of the end symbol's code, all 1 bits) reads as the end symbol.
  @inline(__always)
  private func next(_ c: inout Cursor) throws(IndexFormatError) -> Int {
    if c.available < Self.maxLength {
      while c.available <= 56, c.reader.remaining > 0 {
        c.buffer = c.buffer << 8 | UInt64(try c.reader.u8())
        c.available += 8
      }
    }
    // The common case: a code of at most fastBits bits, with that many bits at hand.
    if c.available >= Self.fastBits {
      let window =
        Int(truncatingIfNeeded: c.buffer >> UInt64(c.available - Self.fastBits))
        & (1 << Self.fastBits - 1)
      let entry = Int(fast[window])
      if entry != 0 {
        c.available -= entry & 31
        return entry >> 5
      }
    }
    guard c.available > 0 else { return Self.end }
    // The next bits, padded with 1 bits past the end.
    let take = min(c.available, Self.fastBits)
    let peek =
      Int(truncatingIfNeeded: c.buffer >> UInt64(c.available - take)) & (1 << take - 1)
    let window = peek << (Self.fastBits - take) | (1 << (Self.fastBits - take) - 1)
    let entry = Int(fast[window])
    let (symbol, length) =
      entry == 0 ? try slow(c.buffer, c.available, c.reader) : (entry >> 5, entry & 31)
    guard length <= c.available else {
      // Past the end: only padding, a prefix of the end symbol's code, may be left.
      let rest = Int(truncatingIfNeeded: c.buffer) & (1 << c.available - 1)
      guard rest == 1 << c.available - 1 else {
        throw c.reader.fault("the coded bytes end inside a code", at: c.reader.offset - 1)
      }
      c.available = 0
      return Self.end
    }
    c.available -= length
    return symbol
  }

  /// The symbol and code length of a code longer than ``fastBits`` at the start of the
  /// `available` bits of `buffer` (1 bits past them), bit by bit.
  private func slow(_ buffer: UInt64, _ available: Int, _ r: ByteReader) throws(IndexFormatError)
    -> (Int, Int)
  {
    var code = 0
    var first = 0
    var index = 0
    for length in 1...Self.maxLength {
      let bit =
        length <= available ? Int(truncatingIfNeeded: buffer >> UInt64(available - length)) & 1 : 1
      code |= bit
      let count = counts[length]
      if code - first < count { return (symbols[index + code - first], length) }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw r.fault("no string code starts with these bits", at: r.offset - 1)
  }
}

/// Code lengths that do not form a prefix code.
struct HuffmanCodeError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
