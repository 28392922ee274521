/// The matching data of every context of an index: reference point, country, shared name
/// tokens and context tokens (with the parent's), by context id, in flat buffers (no
/// per-context array to retain while many threads read them); and every place's importance,
/// by rank.
public final class DecodedContexts: Sendable {
  /// The buffers, for a search to copy into its own state. A copy holds no reference, so
  /// threads that read it at once write no shared reference count: this object's count shares
  /// a cache line with its first fields, and each retain by one thread stalled the other
  /// thread's reads of them (a fifth of the record decoding time with two threads).
  public let view: View

  /// The buffers of a ``DecodedContexts``, valid while it lives.
  public struct View: @unchecked Sendable {
    // @unchecked: the buffers are written once, before the owner is shared, and only read
    // after.
    let latitude: UnsafeBufferPointer<Int64>
    let longitude: UnsafeBufferPointer<Int64>
    /// Country code sid + 1, 0 when unknown.
    let country: UnsafeBufferPointer<Int>
    /// Every context's name tokens, then its context tokens.
    let ids: UnsafeBufferPointer<Int>
    /// Context c's name tokens are ids[bounds[2c] ..< bounds[2c + 1]], its context tokens
    /// ids[bounds[2c + 1] ..< bounds[2c + 2]].
    let bounds: UnsafeBufferPointer<Int>
    /// Each place's importance, by rank.
    let importance: UnsafeBufferPointer<UInt16>

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

  init(
    latitude: [Int64], longitude: [Int64], country: [Int], ids: [Int], bounds: [Int],
    importance: [UInt16]
  ) {
    func copy<T>(_ a: [T]) -> UnsafeBufferPointer<T> {
      let b = UnsafeMutableBufferPointer<T>.allocate(capacity: a.count)
      _ = b.initialize(from: a)
      return UnsafeBufferPointer(b)
    }
    view = View(
      latitude: copy(latitude), longitude: copy(longitude), country: copy(country),
      ids: copy(ids), bounds: copy(bounds), importance: copy(importance))
  }

  deinit {
    for b in [view.latitude, view.longitude] { b.deallocate() }
    for b in [view.country, view.ids, view.bounds] { b.deallocate() }
    view.importance.deallocate()
  }

  /// Number of contexts.
  public var count: Int { view.count }
}
