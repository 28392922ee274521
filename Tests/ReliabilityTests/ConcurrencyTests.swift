import Foundation
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// Many threads querying one client, and clients created and dropped over the same files while
/// other tasks query. `make tsan` runs this suite under the thread sanitizer.
@Suite("Concurrent queries and loading")
struct ConcurrencyTests {
  /// A second shard: a few places of its own, so that clients over two files are tested.
  static let secondShardPath: String = {
    let dir = FuzzHarness.scratchDirectory()
    let extract = dir + "/shard.osm"
    let xml = osmDocument(
      """
      <node id="1" lat="47.25" lon="9.95"><tag k="name" v="Bergdorf"/><tag k="place" v="village"/></node>
      <node id="2" lat="47.251" lon="9.951"><tag k="name" v="Bergbäckerei"/><tag k="shop" v="bakery"/></node>
      <node id="3" lat="47.252" lon="9.952"><tag k="name" v="Apotheke am Berg"/><tag k="amenity" v="pharmacy"/></node>
      """)
    _ = FileManager.default.createFile(atPath: extract, contents: Data(xml.utf8))
    let output = dir + "/shard.placeidx"
    do {
      _ = try IndexBuilder(tables: FuzzHarness.tables).build(
        IndexBuilder.Options(extract: extract, output: output))
    } catch {
      fatalError("cannot build the second shard: \(error)")
    }
    return output
  }()

  /// The requests every worker cycles through.
  static let requests: [AutocompleteRequest] =
    FuzzHarness.probeRequests + [
      AutocompleteRequest(query: "apo"), AutocompleteRequest(query: "berg"),
      AutocompleteRequest(query: "x" + String(repeating: "y", count: 400)),
      // Found only inside longer words: the first such request decodes the dictionary.
      AutocompleteRequest(query: "potheke"),
    ]

  /// Place IDs to fetch.
  static let placeIDs = ["N7100001", "W7200012", "R7300001", "N1", "N2"]

  /// The answer to request `i` of ``requests`` (or a details request) as one line.
  static func answer(_ client: PlacesClient, _ i: Int) -> String {
    if i % 5 == 4 {
      let id = placeIDs[(i / 5) % placeIDs.count]
      do {
        let place = try client.fetchPlace(
          with: FetchPlaceRequest(placeID: id, placeProperties: Set(PlaceProperty.allCases)))
        return "\(place)"
      } catch {
        return PlacesJSONProtocol.encodeError(error)
      }
    }
    return autocompleteAnswer(client, requests[i % requests.count])
  }

  /// The answer to `request` as one line.
  static func autocompleteAnswer(_ client: PlacesClient, _ request: AutocompleteRequest) -> String {
    do {
      return PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
    } catch {
      return PlacesJSONProtocol.encodeError(error)
    }
  }

  /// Runs `body(thread)` on `count` threads at once and waits for all of them.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for t in 0..<count {
      group.enter()
      let thread = Thread {
        body(t)
        group.leave()
      }
      thread.stackSize = 4 << 20
      thread.start()
    }
    group.wait()
  }

  /// Collects mismatches from many threads.
  final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ s: String) {
      lock.lock()
      items.append(s)
      lock.unlock()
    }

    var all: [String] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }
  }

  @Test("8 threads × 1,000 queries and details on one client give the single-thread answers")
  func manyThreadsOneClient() throws {
    let client = try PlacesClient(
      indexPaths: [FuzzHarness.sampleIndexPath, Self.secondShardPath])
    let n = Self.requests.count * 5
    let expected = (0..<n).map { Self.answer(client, $0) }
    #expect(expected.contains { $0.contains("Sankt Quirin") })
    #expect(expected.contains { $0.contains("Bergbäckerei") })
    let mismatches = Mismatches()
    Self.onThreads(8) { t in
      for k in 0..<1000 {
        let i = (k * 7 + t * 13) % n
        let got = Self.answer(client, i)
        if got != expected[i] { mismatches.add("thread \(t) request \(i): \(got)") }
      }
    }
    #expect(mismatches.all.isEmpty, "\(mismatches.all.prefix(5))")
  }

  @Test("clients loaded and dropped over the same files while other threads query")
  func loadAndUnloadWhileQuerying() throws {
    let paths = [FuzzHarness.sampleIndexPath, Self.secondShardPath]
    let shared = try PlacesClient(indexPaths: paths)
    let n = Self.requests.count * 5
    let expected = (0..<n).map { Self.answer(shared, $0) }
    let single = try PlacesClient(indexPaths: [FuzzHarness.sampleIndexPath])
    let expectedSingle = (0..<n).map { Self.answer(single, $0) }
    let mismatches = Mismatches()
    Self.onThreads(8) { t in
      if t < 3 {
        // Loaders: open a client (both shards, or one), ask it something, verify, drop it.
        for k in 0..<60 {
          let both = (k + t) % 2 == 0
          do {
            let client = try PlacesClient(
              indexPaths: both ? paths : [FuzzHarness.sampleIndexPath])
            let i = (k * 11 + t) % n
            let got = Self.answer(client, i)
            if got != (both ? expected[i] : expectedSingle[i]) {
              mismatches.add("loader \(t) request \(i): \(got)")
            }
            if k % 10 == 0 { try client.indexes[0].verify() }
          } catch {
            mismatches.add("loader \(t): \(error)")
          }
        }
      } else {
        // Queriers: the shared client, and clients handed over from loaders' files.
        for k in 0..<500 {
          let i = (k * 3 + t) % n
          let got = Self.answer(shared, i)
          if got != expected[i] { mismatches.add("querier \(t) request \(i): \(got)") }
        }
      }
    }
    #expect(mismatches.all.isEmpty, "\(mismatches.all.prefix(5))")
  }

  @Test("the async API from many tasks, with a client per task group")
  func asyncTasks() async throws {
    let expectedClient = try PlacesClient(indexPaths: [FuzzHarness.sampleIndexPath])
    let n = Self.requests.count
    let expected = Self.requests.map { Self.autocompleteAnswer(expectedClient, $0) }
    for round in 0..<3 {
      let client = try PlacesClient(indexPaths: [FuzzHarness.sampleIndexPath])
      let results = await withTaskGroup(of: (Int, String).self) { group in
        for task in 0..<64 {
          group.addTask {
            let i = (task + round) % n
            let result = await client.fetchAutocompleteSuggestions(with: Self.requests[i])
            switch result {
            case .success(let s): return (i, PlacesJSONProtocol.encodeResponse(s))
            case .failure(let e): return (i, PlacesJSONProtocol.encodeError(e))
            }
          }
        }
        var out: [(Int, String)] = []
        for await r in group { out.append(r) }
        return out
      }
      #expect(results.count == 64)
      for (i, got) in results { #expect(got == expected[i], "request \(i)") }
    }
  }
}
