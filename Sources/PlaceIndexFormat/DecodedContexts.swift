/// The matching data of every context of an index: reference point, country, shared name
/// tokens and context tokens (with the parent's), by context id, in flat arrays (no per-context
/// array to retain while many threads read them).
public final class DecodedContexts: Sendable {
  let latitude: [Int64]
  let longitude: [Int64]
  /// Country code sid + 1, 0 when unknown.
  let country: [Int]
  /// Every context's name tokens, then its context tokens.
  let ids: [Int]
  /// Context c's name tokens are ids[bounds[2c] ..< bounds[2c + 1]], its context tokens
  /// ids[bounds[2c + 1] ..< bounds[2c + 2]].
  let bounds: [Int]

  init(latitude: [Int64], longitude: [Int64], country: [Int], ids: [Int], bounds: [Int]) {
    self.latitude = latitude
    self.longitude = longitude
    self.country = country
    self.ids = ids
    self.bounds = bounds
  }

  /// Number of contexts.
  public var count: Int { latitude.count }

  /// Copies context `c`'s data into `m`; returns its reference point.
  @inline(__always)
  func load(_ c: Int, into m: inout PlaceMatch) -> (Int64, Int64) {
    let cc = country[c]
    m.countryCode = cc == 0 ? nil : cc - 1
    m.tokens.removeAll(keepingCapacity: true)
    m.contextTokens.removeAll(keepingCapacity: true)
    ids.withUnsafeBufferPointer { all in
      bounds.withUnsafeBufferPointer { b in
        m.tokens.append(contentsOf: all[b[2 * c]..<b[2 * c + 1]])
        m.contextTokens.append(contentsOf: all[b[2 * c + 1]..<b[2 * c + 2]])
      }
    }
    return (latitude[c], longitude[c])
  }
}
