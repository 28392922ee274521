import Dispatch
import Foundation

/// Receives the fetcher's events, as the SDK's fetcher delegate does.
public protocol AutocompleteFetcherDelegate: AnyObject, Sendable {
  /// A request for `text` was started (show an activity indicator).
  func fetcher(_ fetcher: AutocompleteFetcher, didRequestFor text: String)
  /// Suggestions for the newest text arrived.
  func fetcher(
    _ fetcher: AutocompleteFetcher, didUpdate suggestions: [AutocompleteSuggestion],
    for text: String)
  /// The request for the newest text failed.
  func fetcher(_ fetcher: AutocompleteFetcher, didFailWith error: PlacesError, for text: String)
}

/// Takes text as the user types and delivers predictions for the most recent text only.
///
/// Each call to ``sourceTextHasChanged(_:)`` starts a request (after the optional debounce and
/// once the text has ``minimumLength`` characters). A result for older text is never delivered
/// after a newer one: each request carries a generation number and only the newest
/// generation's result is delivered. Events arrive on ``callbackQueue``; errors arrive as
/// events, never as throws across threads.
public final class AutocompleteFetcher: @unchecked Sendable {
  // @unchecked: every mutable property is read and written only on `queue`, a serial queue.

  /// An event, for closure-based callers.
  public enum Event: Sendable {
    /// A request was started for the text.
    case didRequest(text: String)
    /// Suggestions for the newest text.
    case didUpdate(text: String, suggestions: [AutocompleteSuggestion])
    /// The request for the newest text failed.
    case didFail(text: String, error: PlacesError)
  }

  private let search:
    @Sendable (AutocompleteRequest) throws(PlacesError) -> [AutocompleteSuggestion]
  private let queue = DispatchQueue(label: "PlaceIndex.AutocompleteFetcher")
  /// Where events are delivered.
  public let callbackQueue: DispatchQueue
  /// Text shorter than this (in characters) requests nothing and clears the suggestions.
  public let minimumLength: Int
  /// Wait this long after a keystroke before requesting; a newer keystroke cancels the wait.
  public let debounce: Duration
  /// The filter applied to every request.
  public let filter: AutocompleteFilter
  /// The session this fetcher's requests belong to.
  public private(set) var sessionToken: AutocompleteSessionToken

  private var generation = 0
  private weak var delegateStorage: AutocompleteFetcherDelegate?
  private var handler: (@Sendable (Event) -> Void)?

  /// Creates a fetcher over a client.
  public convenience init(
    client: PlacesClient, filter: AutocompleteFilter = AutocompleteFilter(),
    sessionToken: AutocompleteSessionToken = AutocompleteSessionToken(), minimumLength: Int = 0,
    debounce: Duration = .zero, callbackQueue: DispatchQueue = .main
  ) {
    self.init(
      filter: filter, sessionToken: sessionToken, minimumLength: minimumLength, debounce: debounce,
      callbackQueue: callbackQueue
    ) { request throws(PlacesError) in
      try client.autocompleteSuggestions(for: request)  // counts the request in its session
    }
  }

  /// Creates a fetcher over any search function (tests inject slow ones).
  public init(
    filter: AutocompleteFilter = AutocompleteFilter(),
    sessionToken: AutocompleteSessionToken = AutocompleteSessionToken(), minimumLength: Int = 0,
    debounce: Duration = .zero, callbackQueue: DispatchQueue = .main,
    search:
      @escaping @Sendable (AutocompleteRequest) throws(PlacesError) -> [AutocompleteSuggestion]
  ) {
    self.filter = filter
    self.sessionToken = sessionToken
    self.minimumLength = minimumLength
    self.debounce = debounce
    self.callbackQueue = callbackQueue
    self.search = search
  }

  /// The delegate that receives events (held weakly).
  public var delegate: AutocompleteFetcherDelegate? {
    get { queue.sync { delegateStorage } }
    set { queue.sync { delegateStorage = newValue } }
  }

  /// Sets a closure that receives every event.
  public func onEvent(_ handler: @escaping @Sendable (Event) -> Void) {
    queue.sync { self.handler = handler }
  }

  /// Starts a new session (after a place was selected).
  public func startNewSession() {
    queue.sync { sessionToken = AutocompleteSessionToken() }
  }

  /// Tells the fetcher the text changed; results for earlier text will not be delivered.
  public func sourceTextHasChanged(_ text: String) {
    queue.async { [self] in
      generation += 1
      let current = generation
      if text.count < minimumLength {
        deliver(.didUpdate(text: text, suggestions: []), generation: current)
        return
      }
      var filter = self.filter
      filter.inputOffset = nil
      let request = AutocompleteRequest(query: text, sessionToken: sessionToken, filter: filter)
      let start: @Sendable () -> Void = { [self] in
        queue.async { [self] in
          guard current == generation else { return }
          deliver(.didRequest(text: text), generation: current)
          // Each search runs on a thread of its own: a slow search (a large index, a cold
          // disk) never waits for a pool thread held by another.
          Thread.detachNewThread { [self] in
            let event: Event
            do throws(PlacesError) {
              event = .didUpdate(text: text, suggestions: try search(request))
            } catch {
              event = .didFail(text: text, error: error)
            }
            queue.async { [self] in deliver(event, generation: current) }
          }
        }
      }
      if debounce > .zero {
        let c = debounce.components
        let nanos = Double(c.seconds) * 1e9 + Double(c.attoseconds) / 1e9
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanos)), execute: start)
      } else {
        start()
      }
    }
  }

  /// Delivers an event if it belongs to the newest generation. Runs on `queue`.
  private func deliver(_ event: Event, generation g: Int) {
    guard g == generation else { return }
    let delegate = delegateStorage
    let handler = handler
    callbackQueue.async { [self] in
      // Checked again on delivery: a newer text may have arrived meanwhile.
      guard queue.sync(execute: { g == generation }) else { return }
      handler?(event)
      switch event {
      case .didRequest(let text): delegate?.fetcher(self, didRequestFor: text)
      case .didUpdate(let text, let s): delegate?.fetcher(self, didUpdate: s, for: text)
      case .didFail(let text, let e): delegate?.fetcher(self, didFailWith: e, for: text)
      }
    }
  }
}
