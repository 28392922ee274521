import Foundation
import PlaceCore
@_spi(Testing) import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

@testable import placeidx

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let manhattan: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("manhattan-lower-east-side-2020.osm")
}

let liechtenstein2013: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("liechtenstein-2013-08-03.osm.bz2")
}

/// Place details as the hosted service gives them (issue 22, part 3): compound plus codes of
/// the hosted length, plus-code suggestions under the request's filters and fetched by ID.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct CompoundCodeTests {
  /// A compound code's parts: the short code, the settlement's name, the country.
  func parts(_ compound: String) throws -> (short: String, name: String) {
    let space = try #require(compound.firstIndex(of: " "), "\(compound)")
    let short = String(compound[..<space])
    let label = compound[compound.index(after: space)...]
    let name = String(label.split(separator: ",").first ?? "")
    return (short, name)
  }

  /// The position of the settlement `name` nearest `point`, found by search (a city, town or
  /// village, else a borough or suburb), independently of how the compound code chose it.
  func settlement(_ name: String, near point: Coordinate, _ client: PlacesClient) throws
    -> Coordinate?
  {
    var best: Coordinate?
    for types in [["(cities)"], ["sublocality"]] where best == nil {
      let found = try client.autocompleteSuggestions(
        for: AutocompleteRequest(
          query: name, filter: AutocompleteFilter(types: types), maxResultCount: 10)
      ).compactMap(\.placeSuggestion).filter { $0.primaryText.text == name }
      for s in found {
        let c = try #require(
          client.fetchPlace(
            with: FetchPlaceRequest(placeID: s.placeID, placeProperties: [.coordinate])
          )
          .coordinate)
        if best.map({ c.distance(to: point) < $0.distance(to: point) }) ?? true { best = c }
      }
    }
    return best
  }

  /// Checks one place's codes: a global code containing it, and a compound code that drops
  /// exactly four digits and recovers to the global code from its settlement's position.
  /// Returns the compound code.
  @discardableResult
  func checkCodes(_ id: String, _ client: PlacesClient) throws -> String? {
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: id, placeProperties: [.coordinate, .plusCode]))
    let c = try #require(place.coordinate, "\(id)")
    let code = try #require(place.plusCode, "\(id)")
    #expect(try OpenLocationCode.decode(code.globalCode).contains(c), "\(id)")
    guard let compound = code.compoundCode else { return nil }
    let (short, name) = try parts(compound)
    // The hosted length: four digits before "+", two after ("5W8V+X2").
    #expect(
      short.count == 7 && short.firstIndex(of: "+") == short.index(short.startIndex, offsetBy: 4),
      "\(id) \(compound)")
    #expect(short == String(code.globalCode.dropFirst(4)), "\(id) \(compound)")
    let reference = try #require(
      try settlement(name, near: c, client), "\(id): no settlement '\(name)'")
    #expect(
      try OpenLocationCode.recoverNearest(short, reference: reference) == code.globalCode,
      "\(id) \(compound)")
    return compound
  }

  @Test func namedPlacesHaveCompoundCodesOfTheHostedLength() throws {
    let helsinkiClient = try PlacesClient(indexPaths: [try helsinki.get().path])
    let manhattanClient = try PlacesClient(indexPaths: [try manhattan.get().path])
    let liechtensteinClient = try PlacesClient(indexPaths: [try liechtenstein2013.get().path])
    // The city of Helsinki itself (which had none) and places in its centre.
    #expect(try checkCodes("N1372477580", helsinkiClient) == "5W8V+X2 Helsinki, Finland")
    for id in ["N340107890", "N673773964", "N1376356019"] {  // Kaartinkaupunki, Hakaniemi, Kluuvi
      let compound = try #require(try checkCodes(id, helsinkiClient), "\(id)")
      #expect(compound.hasSuffix(" Helsinki, Finland"), "\(id) \(compound)")
    }
    // Katz's Delicatessen (which had none): the extract has no New York locality, so the
    // reference is the nearest settlement the index has.
    let katz = try #require(try checkCodes("N290", manhattanClient))
    #expect(katz.hasPrefix("P2C7+W3 ") && katz.hasSuffix(", USA"), "\(katz)")
    for id in ["W63", "N11194"] { #expect(try checkCodes(id, manhattanClient) != nil, "\(id)") }
    // Liechtenstein: the museum and the town of Vaduz, Schaan, Malbun (a hamlet high up).
    #expect(try checkCodes("W333", liechtensteinClient) == "4GQC+QV Vaduz, Liechtenstein")
    #expect(try checkCodes("N58243", liechtensteinClient) == "4GQF+P4 Vaduz, Liechtenstein")
    #expect(try checkCodes("R44", liechtensteinClient) == "5GFC+M4 Schaan, Liechtenstein")
    #expect(try checkCodes("N7367", liechtensteinClient) == "4J35+49 Malbun, Liechtenstein")
  }

  /// The place's own locality names the code where it qualifies, not a nearer village: the
  /// airport of Prattville is nearer Hunting Ridge's node.
  @Test func theOwnLocalityIsTheReferenceWhereItQualifies() throws {
    let client = try PlacesClient(indexPaths: [try liechtenstein.get().path])
    let airport = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "W475703109", placeProperties: [.addressComponents]))
    #expect(airport.addressComponents?.first { $0.kind == .locality }?.longText == "Prattville")
    #expect(try checkCodes("W475703109", client) == "CFQP+8P Prattville, USA")
  }

  /// Every place of the three extracts (every 7th by rank) lies near a settlement, so every
  /// one has a compound code, and each recovers.
  @Test(arguments: ["helsinki", "manhattan", "liechtenstein2013"])
  func everyPlaceNearASettlementHasOne(_ name: String) throws {
    let path =
      switch name {
      case "helsinki": try helsinki.get().path
      case "manhattan": try manhattan.get().path
      default: try liechtenstein2013.get().path
      }
    let client = try PlacesClient(indexPaths: [path])
    let index = try #require(client.indexes.first)
    var checked = 0
    var missing: [String] = []
    for rank in stride(from: 0, to: index.placeCount, by: 7) {
      let id = try index.placeIDForTesting(rank: rank)
      if try checkCodes(id, client) == nil { missing.append(id) }
      checked += 1
    }
    print("\(name): \(checked) places checked, \(missing.count) without a compound code")
    #expect(checked > 100)
    #expect(missing.isEmpty, "\(missing.prefix(10))")
  }
}

/// Plus-code suggestions obey the request's restriction, countries and types, and their IDs
/// are answered by every details path.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct PlusCodeSuggestionTests {
  /// Helsinki and Lower Manhattan answering as one.
  func client() throws -> PlacesClient {
    try PlacesClient(indexPaths: [try helsinki.get().path, try manhattan.get().path])
  }

  static let katz = Coordinate(latitude: 40.722345, longitude: -73.9873614)

  func plusCodes(_ client: PlacesClient, _ query: String, _ filter: AutocompleteFilter) throws
    -> [AutocompletePlaceSuggestion]
  {
    try client.autocompleteSuggestions(for: AutocompleteRequest(query: query, filter: filter))
      .compactMap(\.placeSuggestion).filter { $0.types == ["plus_code"] }
  }

  @Test func aRestrictionInNewYorkDoesNotGiveAHelsinkiCode() throws {
    let client = try client()
    let near = AutocompleteFilter(
      coordinateRegionRestriction: .circle(center: Self.katz, radiusMeters: 100))
    // Without a filter, the Helsinki codes are suggested, named by the city.
    for query in ["9GG65W8V+X2", "5W8V+X2 Helsinki", "5W8V+X2 Helsinki, Finland"] {
      let free = try plusCodes(client, query, AutocompleteFilter())
      #expect(free.map(\.primaryText.text) == ["9GG65W8V+X2"], "\(query)")
      #expect(free.first?.secondaryText.text == "Helsinki, Finland", "\(query)")
      #expect(try plusCodes(client, query, near).isEmpty, "\(query)")
    }
    // A short code recovered near the restriction, inside it: Katz's own code.
    let local = try plusCodes(client, "C7+W3", near)
    #expect(local.map(\.primaryText.text) == ["87G8P2C7+W3"])
    // The same short code recovered near a restriction in Helsinki lies outside a 100 m one
    // there only if it is recovered elsewhere: it is recovered inside.
    let helsinkiCenter = Coordinate(latitude: 60.1674098, longitude: 24.9425769)
    let there = try plusCodes(
      client, "8V+X2",
      AutocompleteFilter(
        coordinateRegionRestriction: .circle(center: helsinkiCenter, radiusMeters: 100)))
    #expect(there.map(\.primaryText.text) == ["9GG65W8V+X2"])
    // A rectangle restriction around Lower Manhattan refuses the Helsinki code too.
    let rectangle = AutocompleteFilter(
      coordinateRegionRestriction: .rectangle(
        low: Coordinate(latitude: 40.70, longitude: -74.01),
        high: Coordinate(latitude: 40.74, longitude: -73.97)))
    #expect(try plusCodes(client, "9GG65W8V+X2", rectangle).isEmpty)
    #expect(try plusCodes(client, "87G8P2C7+W3", rectangle).count == 1)
  }

  @Test func countriesAndTypesFilterPlusCodes() throws {
    let client = try client()
    let code = "9GG65W8V+X2"
    #expect(try plusCodes(client, code, AutocompleteFilter(countries: ["fi"])).count == 1)
    #expect(try plusCodes(client, code, AutocompleteFilter(countries: ["us", "FI"])).count == 1)
    #expect(try plusCodes(client, code, AutocompleteFilter(countries: ["us"])).isEmpty)
    #expect(try plusCodes(client, "87G8P2C7+W3", AutocompleteFilter(countries: ["us"])).count == 1)
    #expect(try plusCodes(client, "87G8P2C7+W3", AutocompleteFilter(countries: ["fi"])).isEmpty)
    // A code in the ocean has no settlement: no country can be shown to match.
    #expect(try plusCodes(client, "7CGC2222+22", AutocompleteFilter()).count == 1)
    #expect(try plusCodes(client, "7CGC2222+22", AutocompleteFilter(countries: ["fi"])).isEmpty)
    for types in [["plus_code"], ["geocode"], ["plus_code", "restaurant"]] {
      #expect(
        try plusCodes(client, code, AutocompleteFilter(types: types)).count == 1, "\(types)")
    }
    for types in [["restaurant"], ["(cities)"], ["(regions)"], ["establishment"], ["address"]] {
      #expect(try plusCodes(client, code, AutocompleteFilter(types: types)).isEmpty, "\(types)")
    }
    // The requested region's country is left out, as for any place.
    let finnish = try plusCodes(client, code, AutocompleteFilter(regionCode: "fi"))
    #expect(finnish.first?.secondaryText.text == "Helsinki")
  }

  @Test func suggestionIDsAreFetched() async throws {
    let client = try client()
    let suggestion = try #require(
      try plusCodes(client, "5W8V+X2 Helsinki", AutocompleteFilter()).first)
    #expect(suggestion.placeID == "GLOBAL_CODE:9GG65W8V+X2")
    let request = FetchPlaceRequest(
      placeID: suggestion.placeID, placeProperties: Set(PlaceProperty.allCases))
    let place: Place = try client.fetchPlace(with: request)
    #expect(place.placeID == suggestion.placeID)
    #expect(place.types == ["plus_code"])
    #expect(place.displayName == "9GG65W8V+X2")
    #expect(place.plusCode?.globalCode == "9GG65W8V+X2")
    #expect(place.plusCode?.compoundCode == "5W8V+X2 Helsinki, Finland")
    #expect(place.formattedAddress == "5W8V+X2 Helsinki, Finland")
    let location = try #require(place.coordinate)
    #expect(try OpenLocationCode.decode("9GG65W8V+X2").contains(location))
    #expect(place.addressComponents?.map(\.kind) == [.locality, .country])
    #expect(place.addressComponents?.first?.longText == "Helsinki")
    // The async form, any case of the code, and a code that is not a full code.
    let async = await client.fetchPlace(with: request)
    #expect(try async.get() == place)
    let lower: Place = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "GLOBAL_CODE:9gg65w8v+x2", placeProperties: [.placeID]))
    #expect(lower.placeID == "GLOBAL_CODE:9GG65W8V+X2")
    for bad in ["GLOBAL_CODE:", "GLOBAL_CODE:8V+X2", "GLOBAL_CODE:9GG60000+", "GLOBAL_CODE:hello"] {
      #expect(
        throws: PlacesError.invalidArgument(
          "'\(bad)' is not a place ID (expected N, W, R or P and digits)")
      ) {
        try client.fetchPlace(with: FetchPlaceRequest(placeID: bad, placeProperties: [.placeID]))
          as Place
      }
    }
    // `placeidx details`.
    let cli = try runProcess(
      TestPaths.placeidx,
      ["details", "--index", try helsinki.get().path, suggestion.placeID, "--json"])
    #expect(cli.status == 0, "\(cli.stderr)")
    #expect(cli.stdout.contains(#""compoundCode":"5W8V+X2 Helsinki, Finland""#), "\(cli.stdout)")
    #expect(cli.stdout.contains(#""types":["plus_code"]"#), "\(cli.stdout)")
    // The router of `placeidx serve`.
    let router = PlacesRouter(client: client, apiKey: nil)
    let response = router.respond(
      to: HTTPRequest(method: "GET", path: "/v1/places/" + suggestion.placeID))
    let body = String(decoding: response.body, as: UTF8.self)
    #expect(response.status == 200, "\(body)")
    #expect(body.contains(#""id":"GLOBAL_CODE:9GG65W8V+X2""#), "\(body)")
  }

  /// Through a real server: the ID percent-encoded in the path, as a browser sends it.
  @Test func serveAnswersPlusCodeIDsAndRefusesBadRequests() async throws {
    let server = try ServeProcess(index: try helsinki.get().path)
    let base = "http://127.0.0.1:\(server.port)"
    func fetch(_ path: String, body: String? = nil) async throws -> (Int, String) {
      var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: 20)
      if let body {
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
      }
      let (data, response) = try await URLSession.shared.data(for: request)
      return (
        (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self)
      )
    }
    let (status, suggestions) = try await fetch(
      "/v1/places:autocomplete", body: #"{"input":"5W8V+X2 Helsinki"}"#)
    #expect(
      status == 200 && suggestions.contains(#""placeId":"GLOBAL_CODE:9GG65W8V+X2""#),
      "\(suggestions)")
    let (ok, place) = try await fetch("/v1/places/GLOBAL_CODE%3A9GG65W8V%2BX2?fields=id,plusCode")
    #expect(ok == 200, "\(place)")
    #expect(place.contains(#""compoundCode":"5W8V+X2 Helsinki, Finland""#), "\(place)")
    let (plain, _) = try await fetch("/v1/places/GLOBAL_CODE:9GG65W8V+X2?fields=id")
    #expect(plain == 200)
    for body in [
      #"{"input":"kamppi","regionCode":"zz"}"#, #"{"input":"kamppi","includedRegionCodes":["qq"]}"#,
      #"{"input":"kamppi","sessionToken":"not a uuid !!"}"#,
      #"{"input":"kamppi","sessionToken":""}"#,
    ] {
      let (refused, error) = try await fetch("/v1/places:autocomplete", body: body)
      #expect(refused == 400 && error.contains("INVALID_ARGUMENT"), "\(body): \(error)")
    }
    let (badToken, error) = try await fetch("/v1/places/N1372477580?sessionToken=a%20b")
    #expect(badToken == 400 && error.contains("sessionToken 'a b' has ' ' at offset 1"), "\(error)")
  }
}

/// Region codes are checked against ISO 3166-1 and the ccTLD exceptions ("uk").
@Suite struct RegionCodeRequestTests {
  /// A hand-made extract with places in the United Kingdom and in France.
  static let index: Result<String, Error> = Result {
    let dir = try TestPaths.temporaryDirectory()
    let extract = dir.appendingPathComponent("uk.osm")
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <osm version="0.6" generator="RegionCodeRequestTests">
        <node id="1" lat="51.5072" lon="-0.1276"><tag k="place" v="city"/><tag k="name" v="London"/><tag k="addr:country" v="GB"/></node>
        <node id="2" lat="51.5080" lon="-0.1281"><tag k="amenity" v="pharmacy"/><tag k="name" v="Trafalgar Pharmacy"/><tag k="addr:country" v="GB"/></node>
        <node id="3" lat="48.8566" lon="2.3522"><tag k="place" v="city"/><tag k="name" v="Paris"/><tag k="addr:country" v="FR"/></node>
        <node id="4" lat="48.8570" lon="2.3530"><tag k="amenity" v="pharmacy"/><tag k="name" v="Pharmacie Trafalgar"/><tag k="addr:country" v="FR"/></node>
      </osm>
      """
    try Data(xml.utf8).write(to: extract)
    let out = dir.appendingPathComponent("uk.placeidx").path
    let built = try runProcess(
      TestPaths.placeidx, ["build", extract.path, "-o", out, "--data", TestPaths.data])
    guard built.status == 0 else { throw ProcessError(message: built.stderr) }
    return out
  }

  struct ProcessError: Error { let message: String }

  func ids(_ client: PlacesClient, _ filter: AutocompleteFilter) throws -> [String] {
    try client.autocompleteSuggestions(
      for: AutocompleteRequest(query: "trafalgar", filter: filter)
    ).compactMap(\.placeSuggestion?.placeID).sorted()
  }

  @Test func invalidCodesAreRefusedAndUkIsGreatBritain() throws {
    let client = try PlacesClient(indexPaths: [try Self.index.get()])
    #expect(try ids(client, AutocompleteFilter()) == ["N2", "N4"])
    #expect(try ids(client, AutocompleteFilter(countries: ["uk"])) == ["N2"])
    #expect(try ids(client, AutocompleteFilter(countries: ["GB"])) == ["N2"])
    #expect(try ids(client, AutocompleteFilter(countries: ["uk", "fr"])) == ["N2", "N4"])
    // regionCode "uk" leaves the United Kingdom's name out, as "gb" does.
    for region in ["uk", "GB"] {
      let s = try #require(
        client.autocompleteSuggestions(
          for: AutocompleteRequest(
            query: "trafalgar pharmacy",
            filter: AutocompleteFilter(countries: ["gb"], regionCode: region))
        ).first?.placeSuggestion)
      let all = try #require(
        client.autocompleteSuggestions(
          for: AutocompleteRequest(
            query: "trafalgar pharmacy", filter: AutocompleteFilter(countries: ["gb"]))
        ).first?.placeSuggestion)
      #expect(all.fullText.text.hasSuffix("UK"), "\(all.fullText.text)")
      #expect(!s.fullText.text.hasSuffix("UK"), "\(region): \(s.fullText.text)")
    }
    let rule =
      "is not a region code (an assigned ISO 3166-1 alpha-2 code such as 'fi', or 'uk' for GB)"
    for bad in ["zz", "qq", "QQ", "eu", "xk", "a", "gbr", "1a"] {
      #expect(throws: PlacesError.invalidArgument("regionCode '\(bad)' \(rule)")) {
        try client.autocompleteSuggestions(
          for: AutocompleteRequest(query: "trafalgar", filter: AutocompleteFilter(regionCode: bad)))
      }
      #expect(throws: PlacesError.invalidArgument("country '\(bad)' \(rule)")) {
        try client.autocompleteSuggestions(
          for: AutocompleteRequest(
            query: "trafalgar", filter: AutocompleteFilter(countries: ["fi", bad])))
      }
    }
    // JSON lines, through the command's own line handler and through the process.
    let line = QueryCommand.answer(
      jsonLine: #"{"input":"trafalgar","includedRegionCodes":["zz"]}"#, client: client)
    #expect(
      line.contains(#""status":"INVALID_ARGUMENT""#)
        && line.contains("country 'zz' is not a region code"), "\(line)")
    let r = try runProcess(
      TestPaths.placeidx, ["query", "--index", try Self.index.get(), "--jsonl"],
      input: #"{"input":"trafalgar","regionCode":"qq"}"# + "\n"
        + #"{"input":"trafalgar","includedRegionCodes":["uk"]}"# + "\n")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 2, "\(r.stdout) \(r.stderr)")
    #expect(lines[0].contains("regionCode 'qq' is not a region code"), "\(lines[0])")
    #expect(
      lines[1].contains(#""placeId":"N2""#) && !lines[1].contains(#""placeId":"N4""#), "\(lines[1])"
    )
    // The command line: exit 1, the message on stderr.
    let cli = try runProcess(
      TestPaths.placeidx, ["query", "--index", try Self.index.get(), "trafalgar", "--region", "zz"])
    #expect(
      cli.status == 1 && cli.stderr.contains("regionCode 'zz' is not a region code"),
      "\(cli.stderr)")
  }
}

/// Session tokens are checked as the hosted API checks them, and sessions count on every path.
@Suite struct SessionTokenTests {
  static let index: Result<String, Error> = Result {
    let dir = try TestPaths.temporaryDirectory()
    let out = dir.appendingPathComponent("sample.placeidx").path
    let built = try runProcess(
      TestPaths.placeidx,
      ["build", TestPaths.data + "/sample.osm", "-o", out, "--data", TestPaths.data])
    guard built.status == 0 else {
      throw RegionCodeRequestTests.ProcessError(message: built.stderr)
    }
    return out
  }

  /// Bad tokens and the error each gets.
  static let bad: [(String, PlacesError)] = [
    ("", .invalidArgument("sessionToken is empty")),
    (
      String(repeating: "a", count: 5000),
      .invalidArgument(
        "sessionToken '\(String(repeating: "a", count: 40))…' is 5000 characters long; at most 36")
    ),
    (
      String(repeating: "b", count: 37),
      .invalidArgument(
        "sessionToken '\(String(repeating: "b", count: 37))' is 37 characters long; at most 36")
    ),
    (
      "not a uuid !!",
      .invalidArgument(
        "sessionToken 'not a uuid !!' has ' ' at offset 3: only A-Z, a-z, 0-9, '-', '_' (URL-safe base64) and '=' padding at the end are allowed"
      )
    ),
    (
      "abc=def",
      .invalidArgument(
        "sessionToken 'abc=def' has '=' at offset 3: only A-Z, a-z, 0-9, '-', '_' (URL-safe base64) and '=' padding at the end are allowed"
      )
    ),
    (
      "ab+/cd",
      .invalidArgument(
        "sessionToken 'ab+/cd' has '+' at offset 2: only A-Z, a-z, 0-9, '-', '_' (URL-safe base64) and '=' padding at the end are allowed"
      )
    ),
    (
      "über",
      .invalidArgument(
        "sessionToken 'über' has 'ü' at offset 0: only A-Z, a-z, 0-9, '-', '_' (URL-safe base64) and '=' padding at the end are allowed"
      )
    ),
    ("==", .invalidArgument("sessionToken '==' is only padding")),
  ]

  static let good = [
    AutocompleteSessionToken().value, "3519edfe-0f75-4a30-bfe4-7cbd89340b2c",
    String(repeating: "Z", count: 36), "a", "AbC_-09", "YWJjZA==",
  ]

  static func failure<T>(_ result: Result<T, PlacesError>) -> PlacesError? {
    if case .failure(let e) = result { return e }
    return nil
  }

  @Test func badTokensAreRefusedOnEveryPath() async throws {
    let client = try PlacesClient(indexPaths: [try Self.index.get()])
    let router = PlacesRouter(client: client, apiKey: nil)
    for (token, error) in Self.bad {
      let request = AutocompleteRequest(
        query: "apo", sessionToken: AutocompleteSessionToken(token))
      // Sync and async Swift.
      #expect(throws: error) { try client.autocompleteSuggestions(for: request) }
      let async = await client.fetchAutocompleteSuggestions(with: request)
      #expect(Self.failure(async) == error, "\(token.prefix(40))")
      // Details, sync and async.
      let details = FetchPlaceRequest(
        placeID: "N7100074", placeProperties: [.placeID],
        sessionToken: AutocompleteSessionToken(token))
      #expect(throws: error) { try client.fetchPlace(with: details) as Place }
      let fetched = await client.fetchPlace(with: details)
      #expect(Self.failure(fetched) == error, "\(token.prefix(40))")
      // JSON lines and HTTP (autocomplete and details).
      let json = String(
        decoding: try JSONSerialization.data(withJSONObject: [
          "input": "apo", "sessionToken": token,
        ]),
        as: UTF8.self)
      #expect(
        QueryCommand.answer(jsonLine: json, client: client) == PlacesJSONProtocol.encodeError(error)
      )
      let post = router.respond(
        to: HTTPRequest(
          method: "POST", path: "/v1/places:autocomplete",
          headers: [("content-length", "\(json.utf8.count)")], body: Array(json.utf8)))
      #expect(post.status == 400)
      #expect(String(decoding: post.body, as: UTF8.self).contains("INVALID_ARGUMENT"))
      let get = router.respond(
        to: HTTPRequest(
          method: "GET", path: "/v1/places/N7100074", query: [("sessionToken", token)]))
      // A 5000-character token makes the request target too long before it is read.
      #expect(
        get.status == (token.utf8.count > PlacesRouter.maxTargetBytes ? 414 : 400),
        "\(String(decoding: get.body, as: UTF8.self))")
    }
    // The legacy call reports the error to its callback.
    let (token, error) = Self.bad[3]
    let legacy: PlacesError? = await withCheckedContinuation { done in
      client.findAutocompletePredictions(
        fromQuery: "apo", sessionToken: AutocompleteSessionToken(token), queue: .global()
      ) { _, error in done.resume(returning: error) }
    }
    #expect(legacy == error)
    // The command line: exit 1 with the message.
    let cli = try runProcess(
      TestPaths.placeidx, ["query", "--index", try Self.index.get(), "apo", "--session", token])
    #expect(cli.status == 1 && cli.stderr.contains("sessionToken 'not a uuid !!'"), "\(cli.stderr)")
    // A good token on each path is taken.
    for token in Self.good {
      let t = AutocompleteSessionToken(token)
      #expect(
        !(try client.autocompleteSuggestions(
          for: AutocompleteRequest(query: "apo", sessionToken: t))).isEmpty, "\(token)")
      #expect(throws: Never.self) { try t.validate() }
    }
  }

  /// Three requests then a selection on each path: a finished session of three requests.
  @Test func sessionsAreCountedOnEveryPath() async throws {
    let client = try PlacesClient(indexPaths: [try Self.index.get()])
    let router = PlacesRouter(client: client, apiKey: nil)
    let place = "N7100074"
    func expectSession(_ token: AutocompleteSessionToken, _ path: String) throws {
      #expect(client.sessions.openRequests(token) == 3, "\(path)")
      _ = try client.fetchPlace(
        with: FetchPlaceRequest(placeID: place, placeProperties: [.placeID], sessionToken: token))
      #expect(client.sessions.openRequests(token) == 0, "\(path)")
      let last = client.sessions.finishedSessions.last
      #expect(last?.token == token.value && last?.requests == 3, "\(path)")
      #expect(last?.selectedPlaceID == place, "\(path)")
    }
    // Sync.
    let sync = AutocompleteSessionToken()
    for q in ["a", "ap", "apo"] {
      _ = try client.autocompleteSuggestions(for: AutocompleteRequest(query: q, sessionToken: sync))
    }
    try expectSession(sync, "sync")
    // Async.
    let async = AutocompleteSessionToken()
    for q in ["a", "ap", "apo"] {
      _ = try await client.fetchAutocompleteSuggestions(
        with: AutocompleteRequest(query: q, sessionToken: async)
      ).get()
    }
    try expectSession(async, "async")
    // The legacy call.
    let legacy = AutocompleteSessionToken()
    for q in ["a", "ap", "apo"] {
      await withCheckedContinuation { done in
        client.findAutocompletePredictions(fromQuery: q, sessionToken: legacy, queue: .global()) {
          _, _ in done.resume()
        }
      }
    }
    try expectSession(legacy, "legacy")
    // JSON lines.
    let lines = AutocompleteSessionToken()
    for q in ["a", "ap", "apo"] {
      let out = QueryCommand.answer(
        jsonLine: #"{"input":"\#(q)","sessionToken":"\#(lines.value)"}"#, client: client)
      #expect(out.hasPrefix(#"{"suggestions":["#), "\(out)")
    }
    try expectSession(lines, "JSON lines")
    // HTTP: three autocomplete requests, then the details request ends the session.
    let http = AutocompleteSessionToken()
    for q in ["a", "ap", "apo"] {
      let body = Array(#"{"input":"\#(q)","sessionToken":"\#(http.value)"}"#.utf8)
      let r = router.respond(
        to: HTTPRequest(
          method: "POST", path: "/v1/places:autocomplete",
          headers: [("content-length", "\(body.count)")], body: body))
      #expect(r.status == 200)
    }
    #expect(client.sessions.openRequests(http) == 3)
    let details = router.respond(
      to: HTTPRequest(
        method: "GET", path: "/v1/places/\(place)", query: [("sessionToken", http.value)]))
    #expect(details.status == 200)
    let last = client.sessions.finishedSessions.last
    #expect(last?.token == http.value && last?.requests == 3 && last?.selectedPlaceID == place)
    // A refused request does not count; a request without a token counts nowhere.
    let refused = AutocompleteSessionToken()
    _ = try? client.autocompleteSuggestions(
      for: AutocompleteRequest(
        query: "apo", sessionToken: refused, filter: AutocompleteFilter(regionCode: "zz")))
    #expect(client.sessions.openRequests(refused) == 0)
    #expect(client.sessions.finishedSessions.count == 5)
  }
}
