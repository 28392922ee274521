/// The matching data of every context of an index: reference point and country (or the
/// parent's), by context id, in flat buffers (no per-context array to retain while many
/// threads read them); and every place's importance, by rank.
package final class DecodedContexts: Sendable {
  /// The buffers, for a search to copy into its own state. A copy holds no reference, so
  /// threads that read it at once write no shared reference count: this object's count shares
  /// a cache line with its first fields, and each retain by one thread stalled the other
  /// thread's reads of them (a fifth of the record decoding time with two threads).
  package let view: View

  /// The buffers of a ``DecodedContexts``, valid while it lives.
  package struct View: @unchecked Sendable {
    // @unchecked: the buffers are written once, before the owner is shared, and only read
    // after.
    let latitude: UnsafeBufferPointer<Int64>
    let longitude: UnsafeBufferPointer<Int64>
    /// Country code sid + 1, 0 when unknown.
    let country: UnsafeBufferPointer<Int>
    /// Each place's importance, by rank.
    let importance: UnsafeBufferPointer<UInt16>

    /// Number of contexts.
    package var count: Int { latitude.count }

    /// Copies context `c`'s data into `m`; returns its reference point.
    @inline(__always)
    func load(_ c: Int, into m: inout PlaceMatch) -> (Int64, Int64) {
      let cc = country[c]
      m.countryCode = cc == 0 ? nil : cc - 1
      return (latitude[c], longitude[c])
    }
  }

  init(
    latitude: [Int64], longitude: [Int64], country: [Int], importance: [UInt16]
  ) {
    func copy<T>(_ a: [T]) -> UnsafeBufferPointer<T> {
      let b = UnsafeMutableBufferPointer<T>.allocate(capacity: a.count)
      _ = b.initialize(from: a)
      return UnsafeBufferPointer(b)
    }
    view = View(
      latitude: copy(latitude), longitude: copy(longitude), country: copy(country),
      importance: copy(importance))
  }

  deinit {
    for b in [view.latitude, view.longitude] { b.deallocate() }
    view.country.deallocate()
    view.importance.deallocate()
  }

  /// Number of contexts.
  package var count: Int { view.count }
}
