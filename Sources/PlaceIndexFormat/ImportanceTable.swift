// IMPORTANCE section layout: each place's importance (0...65535, higher is more important),
// by rank, as runs of equal values. Places are in rank order, importance descending, so a few
// hundred runs cover any number of places (94 for 8,520 places, where a value in each record
// took 2 bytes a place):
//   u32 runCount                     at least 1 when there are places, 0 when there are none
//   u32 firstRanks[runCount]         each run's first rank: 0, then increasing, each below
//                                    the place count; a run lasts until the next one's first
//                                    rank, the last one until the place count
//   u16 values[runCount]             each run's importance

/// Reads the places' importance by rank.
package struct ImportanceTable: @unchecked Sendable {
  let reader: ByteReader
  /// Number of runs.
  let runCount: Int
  /// Number of places.
  let placeCount: Int

  /// Reads the section header; checks its length and first run (O(1)).
  package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, placeCount: Int)
    throws(IndexFormatError)
  {
    var r = ByteReader(bytes, section: "IMPORTANCE", fileOffset: fileOffset)
    let runs = Int(try r.u32())
    guard runs <= (bytes.count - 4) / 6, bytes.count == 4 + 6 * runs else {
      throw r.fault("\(runs) runs do not fill the section's \(bytes.count) bytes", at: 0)
    }
    guard (runs == 0) == (placeCount == 0) else {
      throw r.fault("\(runs) runs for \(placeCount) places", at: 0)
    }
    reader = r
    runCount = runs
    self.placeCount = placeCount
    if runs > 0, try firstRank(0) != 0 {
      throw r.fault("the first run starts at rank \(try firstRank(0)), not 0", at: 4)
    }
  }

  @inline(__always)
  func firstRank(_ run: Int) throws(IndexFormatError) -> Int {
    Int(try reader.u32(at: 4, index: run))
  }

  @inline(__always)
  func value(ofRun run: Int) throws(IndexFormatError) -> UInt16 {
    var r = reader
    r.offset = 4 + 4 * runCount + 2 * run
    return try r.u16()
  }

  /// The importance of place `rank`.
  package func importance(of rank: Int) throws(IndexFormatError) -> UInt16 {
    guard rank >= 0, rank < placeCount else {
      throw reader.fault("rank \(rank) is not below the place count \(placeCount)", at: 0)
    }
    // The last run whose first rank is at most `rank`.
    var lo = 0
    var hi = runCount
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if try firstRank(mid) <= rank { lo = mid } else { hi = mid }
    }
    return try value(ofRun: lo)
  }

  /// Every place's importance, by rank (O(places + runs)).
  package func decodeAll() throws(IndexFormatError) -> [UInt16] {
    var out: [UInt16] = []
    out.reserveCapacity(placeCount)
    var run = 0
    var next = runCount > 1 ? try firstRank(1) : Int.max
    var value = runCount > 0 ? try self.value(ofRun: 0) : 0
    for rank in 0..<placeCount {
      while rank >= next {
        run += 1
        value = try self.value(ofRun: run)
        next = run + 1 < runCount ? try firstRank(run + 1) : Int.max
      }
      out.append(value)
    }
    return out
  }

  /// Checks that the runs start at 0 and their first ranks increase below the place count.
  package func verify() throws(IndexFormatError) {
    var previous = -1
    for run in 0..<runCount {
      let first = try firstRank(run)
      guard first > previous, first < placeCount else {
        throw reader.fault(
          "run \(run) starts at rank \(first), after \(previous), for \(placeCount) places",
          at: 4 + 4 * run)
      }
      previous = first
    }
  }
}

/// Writes the IMPORTANCE section.
package enum ImportanceTableWriter {
  /// The section's bytes for `places` in rank order.
  package static func serialize<Places: RandomAccessCollection<PlaceRecord>>(_ places: Places)
    -> [UInt8]
  {
    var firsts: [Int] = []
    var values: [UInt16] = []
    for (rank, p) in places.enumerated() where values.last != p.importance || rank == 0 {
      firsts.append(rank)
      values.append(p.importance)
    }
    var w = ByteWriter()
    w.u32(UInt32(firsts.count))
    for f in firsts { w.u32(UInt32(f)) }
    for v in values { w.u16(v) }
    return w.bytes
  }
}
