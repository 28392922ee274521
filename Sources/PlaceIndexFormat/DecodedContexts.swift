/// The matching data of every context of an index: reference point, country, shared name
/// tokens and context tokens (with the parent's), by context id, in flat arrays (no per-context
/// array to retain while many threads read them).
public final class DecodedContexts: @unchecked Sendable {
  // @unchecked: the buffers are written once, in `init`, and only read after; they are raw
  // buffers rather than arrays so that threads reading them at once do not all retain and
  // release the same array storage (an atomic write to one shared cache line per read).
  let latitude: UnsafeBufferPointer<Int64>
  let longitude: UnsafeBufferPointer<Int64>
  /// Country code sid + 1, 0 when unknown.
  let country: UnsafeBufferPointer<Int>
  /// Every context's name tokens, then its context tokens.
  let ids: UnsafeBufferPointer<Int>
  /// Context c's name tokens are ids[bounds[2c] ..< bounds[2c + 1]], its context tokens
  /// ids[bounds[2c + 1] ..< bounds[2c + 2]].
  let bounds: UnsafeBufferPointer<Int>

  init(latitude: [Int64], longitude: [Int64], country: [Int], ids: [Int], bounds: [Int]) {
    func copy<T>(_ a: [T]) -> UnsafeBufferPointer<T> {
      let b = UnsafeMutableBufferPointer<T>.allocate(capacity: a.count)
      _ = b.initialize(from: a)
      return UnsafeBufferPointer(b)
    }
    self.latitude = copy(latitude)
    self.longitude = copy(longitude)
    self.country = copy(country)
    self.ids = copy(ids)
    self.bounds = copy(bounds)
  }

  deinit {
    for b in [latitude, longitude] { b.deallocate() }
    for b in [country, ids, bounds] { b.deallocate() }
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
    m.tokens.append(contentsOf: ids[bounds[2 * c]..<bounds[2 * c + 1]])
    m.contextTokens.append(contentsOf: ids[bounds[2 * c + 1]..<bounds[2 * c + 2]])
    return (latitude[c], longitude[c])
  }
}
