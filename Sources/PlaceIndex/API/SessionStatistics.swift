import Foundation

/// Per-session figures: how many autocomplete requests a search took before its selection.
///
/// Users tune their debounce and minimum length with these. Every path counts: the Swift API
/// (sync, async, legacy, the fetcher), `placeidx query --jsonl` and `placeidx serve`. A
/// successful autocomplete request with a token counts in its session; a successful details
/// request with a token ends it. Refused requests (an invalid token among them) do not count.
public final class SessionStatistics: @unchecked Sendable {
  // @unchecked: all state is guarded by `lock`; this is not on the query path's hot loop.

  /// The figures of one finished session.
  public struct Session: Sendable, Hashable {
    /// The session token.
    public var token: String
    /// Autocomplete requests made in the session.
    public var requests: Int
    /// The place selected, if the session ended with a details request.
    public var selectedPlaceID: String?
  }

  private let lock = NSLock()
  private var open: [String: Int] = [:]
  private var finished: [Session] = []
  /// Most open sessions kept: a request of a new session when this many are open drops them
  /// all (their tokens never ended; the finished sessions stay).
  public static let maxOpenSessions = 10_000

  /// Counts one request of `token`'s session.
  package func recordRequest(_ token: AutocompleteSessionToken?) {
    guard let token else { return }
    lock.lock()
    defer { lock.unlock() }
    if open.count >= SessionStatistics.maxOpenSessions, open[token.value] == nil {
      open.removeAll()
    }
    open[token.value, default: 0] += 1
  }

  /// Ends `token`'s session with the selection of `placeID`.
  package func recordSelection(_ token: AutocompleteSessionToken?, placeID: String) {
    guard let token else { return }
    lock.lock()
    defer { lock.unlock() }
    let requests = open.removeValue(forKey: token.value) ?? 0
    finished.append(Session(token: token.value, requests: requests, selectedPlaceID: placeID))
    if finished.count > 1000 { finished.removeFirst(finished.count - 1000) }
  }

  /// The requests counted so far in `token`'s session while it has not ended (0 for a
  /// session with none, or one that ended).
  public func openRequests(_ token: AutocompleteSessionToken) -> Int {
    lock.lock()
    defer { lock.unlock() }
    return open[token.value] ?? 0
  }

  /// The sessions that ended, oldest first (at most the last 1000).
  public var finishedSessions: [Session] {
    lock.lock()
    defer { lock.unlock() }
    return finished
  }

  /// Mean requests per finished session, or nil when none finished.
  public var meanRequestsPerSession: Double? {
    let f = finishedSessions
    guard !f.isEmpty else { return nil }
    return Double(f.map(\.requests).reduce(0, +)) / Double(f.count)
  }
}
