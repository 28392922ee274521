import Dispatch
import Foundation
import PlaceCore
import Testing

@testable import PlaceIndex

/// Collects fetcher events in order.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [AutocompleteFetcher.Event] = []

  func append(_ e: AutocompleteFetcher.Event) {
    lock.lock()
    events.append(e)
    lock.unlock()
  }

  var all: [AutocompleteFetcher.Event] {
    lock.lock()
    defer { lock.unlock() }
    return events
  }

  var updates: [String] {
    all.compactMap { if case .didUpdate(let t, _) = $0 { t } else { nil } }
  }
}

/// Holds a fetcher for its own search closure.
final class FetcherBox: @unchecked Sendable {
  var fetcher: AutocompleteFetcher?
}

func waitUntil(_ seconds: Double = 30, _ condition: () -> Bool) async {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() && Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
}

@Suite struct FetcherTests {
  @Test func aSlowOlderRequestIsNeverDeliveredAfterANewerOne() async {
    let log = EventLog()
    let newerDelivered = DispatchSemaphore(value: 0)
    let olderFinished = DispatchSemaphore(value: 0)
    let box = FetcherBox()
    // While the search for "ab" runs, the user types "c"; "ab" finishes only after "abc"'s
    // result was delivered, so "ab"'s result is the late one. Nothing here depends on how
    // fast the test itself is scheduled.
    let fetcher = AutocompleteFetcher(callbackQueue: DispatchQueue(label: "test")) {
      request throws(PlacesError) in
      if request.query == "ab" {
        box.fetcher?.sourceTextHasChanged("abc")
        _ = newerDelivered.wait(timeout: .now() + 60)
        olderFinished.signal()
      }
      return []
    }
    box.fetcher = fetcher
    fetcher.onEvent { event in
      log.append(event)
      if case .didUpdate("abc", _) = event { newerDelivered.signal() }
    }
    fetcher.sourceTextHasChanged("ab")
    await waitUntil(60) { olderFinished.wait(timeout: .now()) == .success }
    // The late "ab" result goes through the fetcher's queues; flush them before looking.
    let flushed = DispatchSemaphore(value: 0)
    fetcher.onEvent { event in
      log.append(event)
      if case .didUpdate("abc", _) = event { flushed.signal() }
    }
    fetcher.sourceTextHasChanged("abc")
    await waitUntil(60) { flushed.wait(timeout: .now()) == .success }
    #expect(log.updates.first == "abc")
    #expect(!log.updates.contains("ab"))
    // The search for "ab" did run (it signalled olderFinished); its didRequest event may be
    // dropped too, when "abc" arrived before it was delivered, which is right: it is stale.
  }

  @Test func minimumLengthHoldsBackRequests() async {
    let log = EventLog()
    let searched = EventLog()
    let fetcher = AutocompleteFetcher(minimumLength: 3, callbackQueue: DispatchQueue(label: "t")) {
      request throws(PlacesError) in
      searched.append(.didRequest(text: request.query))
      return []
    }
    fetcher.onEvent { log.append($0) }
    fetcher.sourceTextHasChanged("a")
    fetcher.sourceTextHasChanged("ab")
    fetcher.sourceTextHasChanged("abc")
    await waitUntil { log.updates.contains("abc") }
    #expect(searched.all.count == 1)
  }

  @Test func debounceSkipsIntermediateText() async {
    let searched = EventLog()
    let log = EventLog()
    let fetcher = AutocompleteFetcher(
      debounce: .milliseconds(1500), callbackQueue: DispatchQueue(label: "t")
    ) {
      request throws(PlacesError) in
      searched.append(.didRequest(text: request.query))
      return []
    }
    fetcher.onEvent { log.append($0) }
    for t in ["h", "ha", "hau", "haup"] { fetcher.sourceTextHasChanged(t) }
    await waitUntil { log.updates.contains("haup") }
    #expect(searched.all.count == 1)
    #expect(log.updates == ["haup"])
  }

  @Test func errorsAreDeliveredAsEvents() async {
    let log = EventLog()
    let fetcher = AutocompleteFetcher(callbackQueue: DispatchQueue(label: "t")) {
      _ throws(PlacesError) in throw PlacesError.invalidRequest("boom")
    }
    fetcher.onEvent { log.append($0) }
    fetcher.sourceTextHasChanged("x")
    await waitUntil { log.all.contains { if case .didFail = $0 { true } else { false } } }
    #expect(
      log.all.contains {
        if case .didFail("x", .invalidRequest("boom")) = $0 { true } else { false }
      })
  }

  @Test func fetcherOverARealClientAndSessionFigures() async throws {
    let client = try sampleClient()
    let log = EventLog()
    let token = AutocompleteSessionToken()
    let fetcher = AutocompleteFetcher(
      client: client, sessionToken: token, callbackQueue: DispatchQueue(label: "t"))
    fetcher.onEvent { log.append($0) }
    for t in ["a", "ap", "apo"] {
      fetcher.sourceTextHasChanged(t)
      await waitUntil { log.updates.contains(t) }
    }
    let last = log.all.compactMap { if case .didUpdate("apo", let s) = $0 { s } else { nil } }.first
    let id = try #require(last?.first?.placeSuggestion?.placeID)
    let result = await client.fetchPlace(
      with: FetchPlaceRequest(placeID: id, placeProperties: [.displayName], sessionToken: token))
    #expect((try? result.get().displayName) == "Apotheke zum Löwen")
    let session = try #require(client.sessions.finishedSessions.last)
    #expect(session.token == token.value && session.requests == 3 && session.selectedPlaceID == id)
  }

  @Test func sessionTokensAreVersion4UUIDs() {
    let a = AutocompleteSessionToken()
    let b = AutocompleteSessionToken()
    #expect(a != b)
    let uuid = UUID(uuidString: a.value)
    #expect(uuid != nil)
    #expect(Array(a.value)[14] == "4")
  }

  @Test func legacyShapeIgnoresTheBiasWhenARestrictionIsSet() async throws {
    let client = try sampleClient()
    let center = Coordinate(latitude: 47.185, longitude: 9.9)
    let filter = AutocompleteFilter(
      coordinateRegionBias: .circle(center: center, radiusMeters: 10),
      coordinateRegionRestriction: .circle(center: center, radiusMeters: 20_000))
    #expect(
      throws: PlacesError.invalidRequest("locationBias and locationRestriction cannot both be set")
    ) {
      try client.autocompleteSuggestions(for: AutocompleteRequest(query: "apo", filter: filter))
    }
    let box = EventLog()
    client.findAutocompletePredictions(
      fromQuery: "apo", filter: filter, queue: DispatchQueue(label: "t")
    ) {
      predictions, error in
      #expect(error == nil)
      if let p = predictions?.first {
        box.append(.didUpdate(text: p.attributedPrimaryText.text, suggestions: []))
      }
    }
    await waitUntil { !box.updates.isEmpty }
    #expect(box.updates == ["Apotheke zum Löwen"])
  }
}
