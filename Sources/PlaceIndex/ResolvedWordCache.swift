import Foundation

/// The finished words an index resolved lately, so that a query growing keystroke by keystroke
/// does not resolve them again: "Sankt Florinsgasse 1", then "Sankt Florinsgasse 15", looks up
/// "sankt" and "florinsgasse" (prefix range, postings counts, typo walk) once. The word being
/// typed (the last) is never taken from it: it is new with every keystroke.
///
/// Bounded: when it holds ``capacity`` words it starts over. A resolution depends only on the
/// word, the result limit and the index, so a cached one is the one computing it gives.
final class ResolvedWordCache: @unchecked Sendable {
  // @unchecked: `entries` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var entries: [Key: ResolvedToken] = [:]

  /// Most words held.
  static let capacity = 512

  private struct Key: Hashable {
    var word: String
    var limit: Int
  }

  /// The resolution of `word` for `limit` results, computing and keeping it when it is not
  /// held.
  func resolution(
    of word: String, limit: Int, _ compute: () throws -> ResolvedToken
  ) rethrows -> ResolvedToken {
    let key = Key(word: word, limit: limit)
    lock.lock()
    let held = entries[key]
    lock.unlock()
    if let held { return held }
    let value = try compute()
    lock.lock()
    if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
    entries[key] = value
    lock.unlock()
    return value
  }
}
