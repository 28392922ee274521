// PLACE IDS section layout: every place's element key (osmID << 2) | kind, as one sorted
// Elias–Fano sequence, and each place's position in that sequence:
//   u32 count                  equals the place count
//   u8  lowBits                L (0...40): the low L bits of each key are stored as they are
//   u8  rankBits               width of each rank: enough for count - 1, at least 1
//   u16 zero
//   u32 highWords              length of the high bits in 64-bit words
//   u32 samples[ceil(count / 64)]   sample s: the bit position in the high bits of key 64s's bit
//   u64 high[highWords]        key i of the sorted keys (strictly increasing) sets bit
//                              (key_i >> L) + i, counting from bit 0 of word 0; no other bit
//                              is set
//   low bits                   count × L bits, low bits first: key i & (2^L - 1)
//   ranks                      count × rankBits bits, low bits first: entry p is the position
//                              of place p's key among the sorted keys
// A place's key is its rank's sorted key: one sample, a few words of high bits and one low
// field. Place details find an ID by binary search over the sorted keys, then the place whose
// rank that is by a scan of the ranks. Per place of the largest extract (8,520 places, keys
// below 2^35): 21 low bits, 2.9 high bits, 0.5 bits of samples and 14 bits of rank.

/// The element keys of the places: a place's OSM kind and id, and the place of an OSM element.
public struct PlaceIDTable: @unchecked Sendable {
  /// Keys per sample.
  static let sampleEvery = 64
  let reader: ByteReader
  /// Number of places.
  public let count: Int
  let lowBits: Int
  let rankBits: Int
  let highWords: Int
  let highStart: Int
  let lowStart: Int
  let ranksStart: Int

  /// Reads the section header, checking that the parts fit; `placeCount` is PLACES' count.
  public init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int) throws {
    var r = ByteReader(bytes, section: "PLACE IDS", fileOffset: fileOffset)
    count = Int(try r.u32())
    lowBits = Int(try r.u8())
    rankBits = Int(try r.u8())
    _ = try r.u16()
    highWords = Int(try r.u32())
    guard count == placeCount else {
      throw r.fault("\(count) keys for \(placeCount) places", at: 0)
    }
    guard lowBits <= 40 else { throw r.fault("\(lowBits) low bits, more than 40", at: 4) }
    guard rankBits >= 1, rankBits <= 32, count == 0 || (count - 1) >> rankBits == 0 else {
      throw r.fault("rank width \(rankBits) bits cannot hold \(count) places", at: 5)
    }
    guard highWords >= (count + 63) / 64 else {
      throw r.fault("\(highWords) words of high bits for \(count) keys", at: 8)
    }
    highStart = 12 + 4 * ((count + PlaceIDTable.sampleEvery - 1) / PlaceIDTable.sampleEvery)
    lowStart = highStart + 8 * highWords
    ranksStart = lowStart + (count * lowBits + 7) / 8
    guard ranksStart + (count * rankBits + 7) / 8 <= bytes.count else {
      throw r.fault("\(count) keys run past the end of the section", at: 0)
    }
    reader = r
  }

  /// The position in the high bits of key `i`'s set bit.
  @inline(__always)
  private func highPosition(_ i: Int) throws -> Int {
    var position = Int(try reader.u32(at: 12, index: i / PlaceIDTable.sampleEvery))
    var skip = i % PlaceIDTable.sampleEvery
    var w = position >> 6
    guard w < highWords else {
      throw reader.fault("sample \(i / 64) points past the high bits", at: 12 + 4 * (i / 64))
    }
    var word = try reader.u64(at: highStart, index: w) & (~0 << UInt64(position & 63))
    while true {
      let ones = word.nonzeroBitCount
      if skip < ones { break }
      skip -= ones
      w += 1
      guard w < highWords else {
        throw reader.fault("key \(i) runs past the high bits", at: highStart)
      }
      word = try reader.u64(at: highStart, index: w)
    }
    for _ in 0..<skip { word &= word - 1 }
    position = w << 6 + word.trailingZeroBitCount
    return position
  }

  /// The `i`-th smallest key.
  public func sortedKey(_ i: Int) throws -> UInt64 {
    guard i >= 0, i < count else { throw reader.fault("key \(i) of \(count)", at: 0) }
    let high = UInt64(try highPosition(i) - i)
    let low = try BitPacking.value(
      reader, start: lowStart, index: i, bits: lowBits, limit: Int.max)
    return high << UInt64(lowBits) | UInt64(low)
  }

  /// The position among the sorted keys of place `index`'s key.
  func rank(_ index: Int) throws -> Int {
    try BitPacking.value(reader, start: ranksStart, index: index, bits: rankBits, limit: count)
  }

  /// The OSM kind (0 node, 1 way, 2 relation) and id of place `index`.
  public func element(_ index: Int) throws -> (kind: UInt8, id: Int64) {
    let key = try sortedKey(try rank(index))
    guard key & 3 < 3 else {
      throw reader.fault("place \(index): element kind 3 is not 0, 1 or 2", at: lowStart)
    }
    return (UInt8(key & 3), Int64(key >> 2))
  }

  /// The place index of element `kind`/`id`, or nil.
  public func placeIndex(kind: UInt8, id: Int64) throws -> Int? {
    guard id >= 0, id <= Int64.max >> 2, kind < 3 else { return nil }
    let target = (UInt64(id) << 2) | UInt64(kind)
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if try sortedKey(mid) < target { lo = mid + 1 } else { hi = mid }
    }
    guard lo < count, try sortedKey(lo) == target else { return nil }
    var found: Int? = nil
    try forEachRank { index, rank in
      if rank == lo { found = index }
      return rank != lo
    }
    return found
  }

  /// Calls `body` with each place index and its rank, in place order, while it returns true.
  private func forEachRank(_ body: (Int, Int) throws -> Bool) throws {
    var r = reader
    r.offset = ranksStart
    var buffer: UInt64 = 0
    var held = 0
    let mask = UInt64(1) << UInt64(rankBits) - 1
    for index in 0..<count {
      while held < rankBits {
        buffer |= UInt64(try r.u8()) << UInt64(held)
        held += 8
      }
      let rank = Int(buffer & mask)
      buffer >>= UInt64(rankBits)
      held -= rankBits
      guard rank < count else {
        throw reader.fault("place \(index) has rank \(rank) of \(count)", at: r.offset - 1)
      }
      guard try body(index, rank) else { return }
    }
  }

  /// Checks that the high bits hold exactly `count` set bits, that the samples point at
  /// theirs, that the keys strictly increase and that the ranks are a permutation.
  public func verify() throws {
    var i = 0
    var previous: UInt64? = nil
    for w in 0..<highWords {
      var word = try reader.u64(at: highStart, index: w)
      while word != 0 {
        let position = w << 6 + word.trailingZeroBitCount
        word &= word - 1
        guard i < count else {
          throw reader.fault("more than \(count) bits set in the high bits", at: highStart + 8 * w)
        }
        let s = i / PlaceIDTable.sampleEvery
        if i % PlaceIDTable.sampleEvery == 0, Int(try reader.u32(at: 12, index: s)) != position {
          throw reader.fault("sample \(s) is not key \(i)'s bit \(position)", at: 12 + 4 * s)
        }
        let low = try BitPacking.value(
          reader, start: lowStart, index: i, bits: lowBits, limit: Int.max)
        let key = UInt64(position - i) << UInt64(lowBits) | UInt64(low)
        if let p = previous, p >= key {
          throw reader.fault("keys not increasing at key \(i)", at: lowStart + i * lowBits / 8)
        }
        previous = key
        i += 1
      }
    }
    guard i == count else {
      throw reader.fault("\(i) bits set in the high bits for \(count) keys", at: highStart)
    }
    var seen = [Bool](repeating: false, count: count)
    try forEachRank { index, rank in
      guard !seen[rank] else {
        throw reader.fault(
          "rank \(rank) given twice (place \(index))", at: ranksStart + index * rankBits / 8)
      }
      seen[rank] = true
      return true
    }
  }
}

/// Writes a PLACE IDS section.
public enum PlaceIDTableWriter {
  /// The section bytes for places in rank order; their keys must differ.
  public static func serialize(_ places: [PlaceRecord]) -> [UInt8] {
    let keys = places.map { (UInt64($0.osmID) << 2) | UInt64($0.osmKind) }
    let order = keys.indices.sorted { keys[$0] < keys[$1] }
    let sorted = order.map { keys[$0] }
    var ranks = [Int](repeating: 0, count: keys.count)
    for (position, index) in order.enumerated() { ranks[index] = position }
    // The width that leaves about one high bit per key: floor(log2(universe / count)).
    let universe = (sorted.last ?? 0) + 1
    let ratio = universe / UInt64(max(1, keys.count))
    let lowBits = min(40, ratio == 0 ? 0 : UInt64.bitWidth - 1 - ratio.leadingZeroBitCount)
    let highBits = keys.count + Int((sorted.last ?? 0) >> UInt64(lowBits)) + 1
    var high = [UInt64](repeating: 0, count: (highBits + 63) / 64)
    var samples: [UInt32] = []
    for (i, key) in sorted.enumerated() {
      let position = Int(key >> UInt64(lowBits)) + i
      high[position >> 6] |= 1 << UInt64(position & 63)
      if i % PlaceIDTable.sampleEvery == 0 { samples.append(UInt32(position)) }
    }
    let rankBits = BitPacking.width(for: keys.count)
    var w = ByteWriter()
    w.u32(UInt32(keys.count))
    w.u8(UInt8(lowBits))
    w.u8(UInt8(rankBits))
    w.u16(0)
    w.u32(UInt32(high.count))
    samples.forEach { w.u32($0) }
    high.forEach { w.u64($0) }
    w.append(BitPacking.pack(sorted.map { Int($0 & (1 << UInt64(lowBits) - 1)) }, bits: lowBits))
    w.append(BitPacking.pack(ranks, bits: rankBits))
    return w.bytes
  }
}
