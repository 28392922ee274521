// PLACE IDS section layout: every place's element key kind × idLimit + osmID (kind 0 node, 1
// way, 2 relation, 3 a postcode derived from addresses, since 8.0), in rank order, as one
// Elias–Fano sequence. Places of equal importance are ranked by kind, then id, that is by
// key, so the keys in rank order fall into a few
// increasing runs (67 for the 8,520 places of the largest extract); a new run starts wherever
// a key is not greater than the one before. Place i, in run r_i, has the high part
// h_i = r_i × span + (key_i >> L) and the low part key_i & (2^L - 1); the pairs (h_i, low_i)
// strictly increase:
//   u32 count                  equals the place count
//   u8  lowBits                L (0...56)
//   u8  zero, u16 zero
//   u32 runs                   number of runs: at least 1 when there are places
//   u32 highWords              length of the high bits in 64-bit words
//   u64 idLimit                one more than the largest id (at most 2^60)
//   u64 span                   (largest key >> L) + 1
//   u32 samples[ceil(count / 64)]   sample s: the bit position in the high bits of place 64s
//   u64 high[highWords]        place i sets bit h_i + i, counting from bit 0 of word 0; no
//                              other bit is set (so h_i = (position of the i-th set bit) - i)
//   low bits                   count × L bits, low bits first: low_i
// A place's key is one sample, a few words of high bits and one low field. Place details find
// an ID by a binary search per run, over the samples, then within one block of 64. Per place of
// the largest extract (67 runs): 26 low bits, 2.9 high bits and 0.5 bits of samples, where the
// sorted keys and each place's position among them took 38.4 bits.

/// The element keys of the places: a place's OSM kind and id, and the place of an OSM element.
package struct PlaceIDTable: @unchecked Sendable {
  /// Places per sample.
  static let sampleEvery = 64
  /// Size of the header before the samples.
  static let headerSize = 32
  /// The kinds a key may have: node, way, relation, postcode (``PlaceID/Kind``).
  static let kinds: UInt64 = 4
  /// The largest id limit: keys of the four kinds stay below 2^62.
  static let maximumIDLimit: UInt64 = 1 << 60
  /// The widest low part: a packed field of up to 56 bits is read in one 64-bit word.
  static let maximumLowBits = 56
  let reader: ByteReader
  /// Number of places.
  package let count: Int
  let lowBits: Int
  let runs: Int
  let idLimit: UInt64
  let span: Int
  let highWords: Int
  let highStart: Int
  let lowStart: Int

  /// Reads the section header, checking that the parts fit; `placeCount` is PLACES' count.
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "PLACE IDS", fileOffset: fileOffset)
    count = Int(try r.u32())
    lowBits = Int(try r.u8())
    _ = try r.u8()
    _ = try r.u16()
    runs = Int(try r.u32())
    highWords = Int(try r.u32())
    idLimit = try r.u64()
    let span = try r.u64()
    guard count == placeCount else {
      throw r.fault("\(count) keys for \(placeCount) places", at: 0)
    }
    guard lowBits <= Self.maximumLowBits else {
      throw r.fault("\(lowBits) low bits, more than \(Self.maximumLowBits)", at: 4)
    }
    guard runs <= count, (runs == 0) == (count == 0) else {
      throw r.fault("\(runs) runs for \(count) places", at: 8)
    }
    guard idLimit >= 1, idLimit <= Self.maximumIDLimit else {
      throw r.fault("id limit \(idLimit) is not 1...2^60", at: 16)
    }
    // Every high part is below runs × span, and the high bits must hold them all.
    let (highs, overflow) = Int(clamping: span).multipliedReportingOverflow(by: runs)
    guard span >= 1, span < 1 << 62, !overflow, highs <= 64 * highWords - count else {
      throw r.fault("\(runs) runs of span \(span) do not fit \(highWords) words", at: 24)
    }
    self.span = Int(span)
    highStart =
      Self.headerSize + 4 * ((count + Self.sampleEvery - 1) / Self.sampleEvery)
    lowStart = highStart + 8 * highWords
    guard lowStart + (count * lowBits + 7) / 8 <= bytes.count else {
      throw r.fault("\(count) keys run past the end of the section", at: 0)
    }
    reader = r
  }

  /// The position in the high bits of place `i`'s set bit.
  @inline(__always)
  private func highPosition(_ i: Int) throws(IndexFormatError) -> Int {
    try EliasFano.bitPosition(
      reader, samples: Self.headerSize, highStart: highStart, highWords: highWords, of: i,
      naming: "place")
  }

  /// The low part of place `i`.
  @inline(__always)
  private func low(_ i: Int) throws(IndexFormatError) -> UInt64 {
    UInt64(
      try BitPacking.value(reader, start: lowStart, index: i, bits: lowBits, limit: Int.max))
  }

  /// The high part h of place `i`.
  @inline(__always)
  private func high(_ i: Int) throws(IndexFormatError) -> Int {
    let h = try highPosition(i) - i
    // Only a sample that points before the bits of the places ahead of it gets here.
    guard h >= 0 else {
      throw reader.fault(
        "sample \(i / Self.sampleEvery) points before place \(i)'s bit",
        at: Self.headerSize + 4 * (i / Self.sampleEvery))
    }
    return h
  }

  /// The key `kind × idLimit + osmID` of a high part and a low part.
  @inline(__always)
  private func key(high h: Int, low: UInt64) -> UInt64 {
    UInt64(h % span) << UInt64(lowBits) | low
  }

  /// The kind (0 node, 1 way, 2 relation, 3 postcode) and id of place `index`.
  package func element(_ index: Int) throws(IndexFormatError) -> (kind: UInt8, id: Int64) {
    guard index >= 0, index < count else {
      throw reader.fault("place \(index) of \(count)", at: 0)
    }
    let key = key(high: try high(index), low: try low(index))
    guard key / idLimit < Self.kinds else {
      throw reader.fault(
        "place \(index): element kind \(key / idLimit) is not 0, 1, 2 or 3", at: lowStart)
    }
    return (UInt8(key / idLimit), Int64(key % idLimit))
  }

  /// The high part of place `64 × block`, from its sample alone (no walk over the high bits).
  @inline(__always)
  private func blockHigh(_ block: Int) throws(IndexFormatError) -> Int {
    let h = Int(try reader.u32(at: Self.headerSize, index: block)) - block * Self.sampleEvery
    guard h >= 0 else {
      throw reader.fault(
        "sample \(block) points before place \(block * Self.sampleEvery)'s bit",
        at: Self.headerSize + 4 * block)
    }
    return h
  }

  /// The place index of element `kind`/`id`, or nil: a search in each run.
  ///
  /// The (high, low) pairs increase over all places, and the target's high part in run r is
  /// r × span + its own, so each run's search is one over all places: first over the
  /// samples (one word and one low part each) for the block of 64 places that holds the
  /// first pair at least the target's, then over that block's places. The targets grow from
  /// run to run, so each search starts at the block the one before found.
  package func placeIndex(kind: UInt8, id: Int64) throws(IndexFormatError) -> Int? {
    guard id >= 0, UInt64(id) < idLimit, UInt64(kind) < Self.kinds, count > 0 else { return nil }
    let key = UInt64(kind) * idLimit + UInt64(id)
    let keyHigh = key >> UInt64(lowBits)
    guard keyHigh < UInt64(span) else { return nil }
    let keyLow = key & (1 << UInt64(lowBits) - 1)
    let blocks = (count + Self.sampleEvery - 1) / Self.sampleEvery
    var fromBlock = 0
    for run in 0..<runs {
      let target = run * span + Int(keyHigh)
      // The first block whose first place's pair is at least the target's: the place sought
      // is in the block before it, or is that block's first place.
      var lo = fromBlock
      var hi = blocks
      while lo < hi {
        let mid = (lo + hi) / 2
        let h = try blockHigh(mid)
        var below = h < target
        if !below && h == target { below = try low(mid * Self.sampleEvery) < keyLow }
        if below { lo = mid + 1 } else { hi = mid }
      }
      let block = max(lo - 1, fromBlock)
      fromBlock = block
      // The first place of the block (and the next block's first place) whose (high, low) is
      // at least the target's, then a check.
      var first = block * Self.sampleEvery
      var last = min(count, first + Self.sampleEvery + 1)
      while first < last {
        let mid = (first + last) / 2
        let h = try high(mid)
        var below = h < target
        if !below && h == target { below = try low(mid) < keyLow }
        if below { first = mid + 1 } else { last = mid }
      }
      guard first < count, try high(first) == target else { continue }
      if try low(first) == keyLow { return first }
    }
    return nil
  }

  /// Checks that the high bits hold exactly `count` set bits, that the samples point at
  /// theirs, that the (high, low) pairs strictly increase within `runs` runs, that every kind
  /// is 0, 1, 2 or 3, and that no key is given twice.
  package func verify() throws(IndexFormatError) {
    var i = 0
    var previous: (Int, UInt64)? = nil
    var keys: [UInt64] = []
    keys.reserveCapacity(count)
    for w in 0..<highWords {
      var word = try reader.u64(at: highStart, index: w)
      while word != 0 {
        let position = w << 6 + word.trailingZeroBitCount
        word &= word - 1
        guard i < count else {
          throw reader.fault(
            "more than \(count) bits set in the high bits", at: highStart + 8 * w)
        }
        let s = i / Self.sampleEvery
        if i % Self.sampleEvery == 0,
          Int(try reader.u32(at: Self.headerSize, index: s)) != position
        {
          throw reader.fault(
            "sample \(s) is not place \(i)'s bit \(position)", at: Self.headerSize + 4 * s)
        }
        let h = position - i
        let low = try low(i)
        if let (ph, pl) = previous, (ph, pl) >= (h, low) {
          throw reader.fault("keys not increasing at place \(i)", at: lowStart + i * lowBits / 8)
        }
        guard h / span < runs else {
          throw reader.fault("place \(i) lies in run \(h / span) of \(runs)", at: highStart)
        }
        let key = key(high: h, low: low)
        guard key / idLimit < Self.kinds else {
          throw reader.fault(
            "place \(i): element kind \(key / idLimit) is not 0, 1, 2 or 3", at: lowStart)
        }
        keys.append(key)
        previous = (h, low)
        i += 1
      }
    }
    guard i == count else {
      throw reader.fault("\(i) bits set in the high bits for \(count) keys", at: highStart)
    }
    keys.sort()
    for k in 1..<max(keys.count, 1) where keys[k] == keys[k - 1] {
      throw reader.fault("key \(keys[k]) given to two places", at: lowStart)
    }
  }
}

/// Writes a PLACE IDS section.
package enum PlaceIDTableWriter {
  /// The section bytes for places in rank order; their elements must differ, and their ids
  /// be below 2^60 (the reader takes no more than 18 digits).
  package static func serialize<Places: RandomAccessCollection<PlaceRecord>>(_ places: Places)
    -> [UInt8]
  {
    let idLimit = UInt64(places.map(\.osmID).max() ?? 0) + 1
    precondition(idLimit <= PlaceIDTable.maximumIDLimit, "element ids must be below 2^60")
    let keys = places.map { UInt64($0.osmKind) * idLimit + UInt64($0.osmID) }
    var run = [Int](repeating: 0, count: keys.count)
    for i in keys.indices.dropFirst() {
      run[i] = run[i - 1] + (keys[i] > keys[i - 1] ? 0 : 1)
    }
    let runs = keys.isEmpty ? 0 : run[keys.count - 1] + 1
    let largest = keys.max() ?? 0
    // About one high bit per place: L = floor(log2(runs × (largest + 1) / count)).
    let universe = Double(max(runs, 1)) * (Double(largest) + 1) / Double(max(keys.count, 1))
    let lowBits = universe < 1 ? 0 : min(PlaceIDTable.maximumLowBits, Int(universe.exponent))
    let span = Int(largest >> UInt64(lowBits)) + 1
    let highBits = keys.count + runs * span
    var high = [UInt64](repeating: 0, count: (highBits + 63) / 64)
    var samples: [UInt32] = []
    for (i, key) in keys.enumerated() {
      let position = run[i] * span + Int(key >> UInt64(lowBits)) + i
      high[position >> 6] |= 1 << UInt64(position & 63)
      if i % PlaceIDTable.sampleEvery == 0 { samples.append(UInt32(position)) }
    }
    var w = ByteWriter()
    w.u32(UInt32(keys.count))
    w.u8(UInt8(lowBits))
    w.u8(0)
    w.u16(0)
    w.u32(UInt32(runs))
    w.u32(UInt32(high.count))
    w.u64(idLimit)
    w.u64(UInt64(span))
    samples.forEach { w.u32($0) }
    high.forEach { w.u64($0) }
    w.append(BitPacking.pack(keys.map { Int($0 & (1 << UInt64(lowBits) - 1)) }, bits: lowBits))
    return w.bytes
  }
}
