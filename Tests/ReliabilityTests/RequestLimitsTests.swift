import Foundation
import PlaceCore
import PlaceIndex
import Testing

/// Every documented maximum (docs/LIMITS.md) is enforced with an error, not by truncating: the
/// request at the limit is answered, the request one past it is refused with the documented code.
@Suite("Request limits")
struct RequestLimitsTests {
  var client: PlacesClient { FuzzHarness.sampleClient }

  /// Whether `error` is an INVALID_ARGUMENT (code 400) error mentioning `text`.
  func isRequestError(_ error: PlacesError?, mentioning text: String) -> Bool {
    guard let error, error.code == 400, error.status == "INVALID_ARGUMENT" else { return false }
    return error.message.contains(text)
  }

  func outcome(_ request: AutocompleteRequest) -> PlacesError? {
    do {
      _ = try client.autocompleteSuggestions(for: request)
      return nil
    } catch {
      return error
    }
  }

  @Test("the documented values")
  func documentedValues() throws {
    #expect(RequestLimits.maxQueryLength == 500)
    #expect(RequestLimits.maxTypes == 5)
    #expect(RequestLimits.maxCountries == 15)
    #expect(RequestLimits.maxResults == 100)
    let doc = try String(
      contentsOfFile: FuzzHarness.repositoryRoot + "/docs/LIMITS.md", encoding: .utf8)
    for value in ["500", "5", "15", "100", "50000", "20"] {
      #expect(doc.contains("| \(value) "), "docs/LIMITS.md does not list \(value)")
    }
  }

  @Test("query length: 500 Unicode scalars answered, 501 refused (ASCII, umlauts, emoji)")
  func queryLength() {
    for unit in ["a", "ä", "🏔", "e\u{301}"] {
      let scalarsPerUnit = unit.unicodeScalars.count
      let atLimit = String(repeating: unit, count: RequestLimits.maxQueryLength / scalarsPerUnit)
      #expect(outcome(AutocompleteRequest(query: atLimit)) == nil, "\(unit) × limit")
      let over = atLimit + "a"
      #expect(
        isRequestError(outcome(AutocompleteRequest(query: over)), mentioning: "limit is 500"),
        "\(unit): \(String(describing: outcome(AutocompleteRequest(query: over))))")
    }
    // A huge query is refused as quickly as a short one, not truncated or scanned.
    let huge = String(repeating: "sankt quirin ", count: 400_000)
    let start = Date()
    #expect(isRequestError(outcome(AutocompleteRequest(query: huge)), mentioning: "limit"))
    #expect(Date().timeIntervalSince(start) < 60)
  }

  @Test("types: 5 primary types answered, 6 refused; one collection alone")
  func types() {
    let five = ["restaurant", "cafe", "bar", "pharmacy", "bakery"]
    #expect(
      outcome(AutocompleteRequest(query: "a", filter: AutocompleteFilter(types: five))) == nil)
    let six = five + ["locality"]
    #expect(
      isRequestError(
        outcome(AutocompleteRequest(query: "a", filter: AutocompleteFilter(types: six))),
        mentioning: "at most 5 types"))
    #expect(
      outcome(AutocompleteRequest(query: "a", filter: AutocompleteFilter(types: ["(cities)"])))
        == nil)
    #expect(
      isRequestError(
        outcome(
          AutocompleteRequest(query: "a", filter: AutocompleteFilter(types: ["(cities)", "bar"]))),
        mentioning: "cannot be combined"))
    #expect(
      isRequestError(
        outcome(
          AutocompleteRequest(query: "a", filter: AutocompleteFilter(types: ["no_such_type"]))),
        mentioning: "unknown place type"))
    // Many collections: refused by the collection rule, not silently cut to 5.
    let many = [String](repeating: "(cities)", count: 1000)
    #expect(
      isRequestError(
        outcome(AutocompleteRequest(query: "a", filter: AutocompleteFilter(types: many))),
        mentioning: "cannot be combined"))
  }

  @Test("countries: 15 answered, 16 refused; each must be a two-letter code")
  func countries() {
    let codes = [
      "AT", "CH", "DE", "LI", "IT", "FR", "US", "FI", "SE", "NO", "DK", "NL", "BE", "LU", "PL",
    ]
    #expect(
      outcome(AutocompleteRequest(query: "a", filter: AutocompleteFilter(countries: codes)))
        == nil)
    #expect(
      isRequestError(
        outcome(
          AutocompleteRequest(query: "a", filter: AutocompleteFilter(countries: codes + ["CZ"]))),
        mentioning: "at most 15 countries"))
    for bad in ["A", "AUT", "1A", "ÄT", ""] {
      #expect(
        isRequestError(
          outcome(AutocompleteRequest(query: "a", filter: AutocompleteFilter(countries: [bad]))),
          mentioning: "region code"), "\(bad)")
    }
  }

  @Test("results: 1 and 100 answered, 0, -1 and 101 refused")
  func results() throws {
    for n in [1, 100] {
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: "a", maxResultCount: n))
      #expect(s.count <= n)
    }
    let many = try client.autocompleteSuggestions(
      for: AutocompleteRequest(query: "s", maxResultCount: 100))
    #expect(many.count > 5, "100 results were asked for, \(many.count) came back")
    for n in [0, -1, 101, Int.max, Int.min] {
      #expect(
        isRequestError(
          outcome(AutocompleteRequest(query: "a", maxResultCount: n)), mentioning: "maxResultCount"),
        "\(n)")
    }
  }

  @Test("input offset: 0 through the query length answered, outside refused")
  func inputOffset() {
    let q = "sankt quirin"
    for offset in [0, 5, q.unicodeScalars.count] {
      #expect(
        outcome(AutocompleteRequest(query: q, filter: AutocompleteFilter(inputOffset: offset)))
          == nil)
    }
    for offset in [-1, q.unicodeScalars.count + 1, Int.max, Int.min] {
      #expect(
        isRequestError(
          outcome(AutocompleteRequest(query: q, filter: AutocompleteFilter(inputOffset: offset))),
          mentioning: "inputOffset"), "\(offset)")
    }
  }

  @Test("circle radius: up to 50,000 m answered, more refused")
  func circleRadius() {
    let c = Coordinate(latitude: 47.18, longitude: 9.9)
    for r in [0.0, 50_000] {
      #expect(
        outcome(
          AutocompleteRequest(
            query: "a",
            filter: AutocompleteFilter(coordinateRegionBias: .circle(center: c, radiusMeters: r))))
          == nil)
    }
    for r in [50_000.5, -1, .infinity, .nan] {
      #expect(
        isRequestError(
          outcome(
            AutocompleteRequest(
              query: "a",
              filter: AutocompleteFilter(coordinateRegionBias: .circle(center: c, radiusMeters: r)))
          ),
          mentioning: "radius"), "\(r)")
    }
  }

  @Test("place IDs: 20 characters at most, N/W/R and ASCII digits")
  func placeIDs() {
    func error(_ id: String) -> PlacesError? {
      do {
        _ = try client.fetchPlace(with: FetchPlaceRequest(placeID: id, placeProperties: [.placeID]))
        return nil
      } catch {
        return error
      }
    }
    // 20 characters: well-formed, so the answer is "not found" (404), not a format error.
    #expect(error("N" + String(repeating: "1", count: 19))?.code == 404)
    for bad in [
      "N" + String(repeating: "1", count: 20), "N", "", "X1", "N-1", "N 1", "N١٢", "N1\u{0}",
      "N99999999999999999999",
    ] {
      #expect(isRequestError(error(bad), mentioning: "not a place ID"), "\(bad)")
    }
  }

  @Test("the same limits through the JSON protocol")
  func jsonProtocol() throws {
    func run(_ line: String) -> PlacesError? {
      do {
        _ = try client.autocompleteSuggestions(for: PlacesJSONProtocol.decodeRequest(line))
        return nil
      } catch {
        return error
      }
    }
    let long = String(repeating: "a", count: 501)
    #expect(isRequestError(run(#"{"input":"\#(long)"}"#), mentioning: "limit is 500"))
    #expect(run(#"{"input":"\#(long.dropLast())"}"#) == nil)
    #expect(isRequestError(run(#"{"input":"a","maxResultCount":101}"#), mentioning: "between 1"))
    #expect(isRequestError(run(#"{"input":"a","maxResultCount":1e300}"#), mentioning: "integer"))
    #expect(isRequestError(run(#"{"input":"a","maxResultCount":2.5}"#), mentioning: "integer"))
    let sixTypes = #"["bar","cafe","restaurant","pharmacy","bakery","locality"]"#
    #expect(
      isRequestError(run(#"{"input":"a","includedPrimaryTypes":\#(sixTypes)}"#), mentioning: "5"))
    let codes = (0..<16).map { _ in "\"AT\"" }.joined(separator: ",")
    #expect(
      isRequestError(run(#"{"input":"a","includedRegionCodes":[\#(codes)]}"#), mentioning: "15"))
    #expect(isRequestError(run(#"{"input":"a","inputOffset":-1}"#), mentioning: "inputOffset"))
  }
}
