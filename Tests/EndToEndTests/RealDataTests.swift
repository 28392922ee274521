import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import TestSupport
import Testing

/// Builds an index from a shared extract into a temporary folder.
func buildShared(_ name: String) throws -> (path: String, report: BuildReport) {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("\(name).placeidx").path
  let tables = try BuildTables(directory: TestPaths.data)
  let report = try IndexBuilder(tables: tables).build(
    IndexBuilder.Options(extract: TestPaths.osm(name).path, output: out))
  return (out, report)
}

let helsinki: Result<(path: String, report: BuildReport), Error> = Result {
  try buildShared("helsinki-center-2019.osm")
}

/// Named POIs of an extract read independently of the pipeline (a regex over the XML), so the
/// tests do not take their expectations from the code under test.
func namedNodes(_ file: URL, key: String, value: String) throws -> [(
  id: String, name: String, lat: Double, lon: Double
)] {
  let text = try String(contentsOf: file, encoding: .utf8)
  let node = try NSRegularExpression(
    pattern: #"<node id="(\d+)"[^>]*lat="([-\d.]+)" lon="([-\d.]+)"[^/]*?>(.*?)</node>"#,
    options: [.dotMatchesLineSeparators])
  var out: [(String, String, Double, Double)] = []
  let ns = text as NSString
  for m in node.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
    let body = ns.substring(with: m.range(at: 4))
    guard body.contains(#"<tag k="\#(key)" v="\#(value)"/>"#),
      let r = body.range(of: #"<tag k="name" v=""#)
    else { continue }
    let rest = body[r.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { continue }
    let name = String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
    out.append(
      (
        "N" + ns.substring(with: m.range(at: 1)), name, Double(ns.substring(with: m.range(at: 2)))!,
        Double(ns.substring(with: m.range(at: 3)))!
      ))
  }
  return out
}

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct RealDataTests {
  @Test func helsinkiRestaurantsAreFoundByThreeLetterPrefixWithAnOrigin() throws {
    let (path, _) = try helsinki.get()
    let client = try PlacesClient(indexPaths: [path])
    let restaurants = try namedNodes(
      TestPaths.osm("helsinki-center-2019.osm"), key: "amenity", value: "restaurant")
    try #require(restaurants.count > 50, "read \(restaurants.count) restaurants")
    var found = 0
    var checked = 0
    for r in restaurants where r.name.count >= 3 {
      let prefix = String(r.name.prefix(3))
      guard TextNormalizer.fold(prefix).count == 3 else { continue }
      checked += 1
      let origin = Coordinate(latitude: r.lat + 0.0005, longitude: r.lon)
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: prefix, filter: AutocompleteFilter(origin: origin)))
      if s.contains(where: { $0.placeSuggestion?.placeID == r.id }) { found += 1 }
    }
    print(
      "helsinki: \(found) of \(checked) restaurants in the top 5 for their 3-letter prefix with a near origin"
    )
    #expect(checked > 50)
    #expect(Double(found) / Double(checked) > 0.8)
  }

  @Test func distancesAgreeWithHaversine() throws {
    let (path, _) = try helsinki.get()
    let client = try PlacesClient(indexPaths: [path])
    let origin = Coordinate(latitude: 60.1699, longitude: 24.9384)
    var n = 0
    for q in ["kah", "ravintola", "hotel", "stock", "kamp"] {
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: q, filter: AutocompleteFilter(origin: origin)))
      for p in s.compactMap(\.placeSuggestion) {
        let place = try client.fetchPlace(
          with: FetchPlaceRequest(placeID: p.placeID, placeProperties: [.coordinate]))
        let c = try #require(place.coordinate)
        // Haversine computed here, independently of the library.
        let r = 6_371_008.8
        let toRad = Double.pi / 180
        let dLat = (c.latitude - origin.latitude) * toRad
        let dLon = (c.longitude - origin.longitude) * toRad
        let a =
          sin(dLat / 2) * sin(dLat / 2) + cos(origin.latitude * toRad) * cos(c.latitude * toRad)
          * sin(dLon / 2) * sin(dLon / 2)
        let d = 2 * r * asin(sqrt(a))
        #expect(abs(Double(try #require(p.distanceMeters)) - d) <= 1.0)
        n += 1
      }
    }
    #expect(n > 10)
  }

  @Test func diacriticsFoldOnARealName() throws {
    let (path, _) = try helsinki.get()
    let client = try PlacesClient(indexPaths: [path])
    // Names with ä/ö from the extract, typed without their diacritics.
    let names = try namedNodes(
      TestPaths.osm("helsinki-center-2019.osm"), key: "amenity", value: "cafe"
    )
    .map(\.name).filter { $0.contains("ä") || $0.contains("ö") }
    try #require(!names.isEmpty)
    var ok = 0
    for name in names {
      let typed = name.replacingOccurrences(of: "ä", with: "a").replacingOccurrences(
        of: "ö", with: "o")
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: typed, maxResultCount: 10))
      if s.contains(where: { $0.placeSuggestion?.primaryText.text == name }) { ok += 1 }
    }
    print("helsinki: \(ok) of \(names.count) cafés with ä/ö found typed without diacritics")
    #expect(ok == names.count)
  }

  @Test(arguments: [
    "helsinki-center-2019.osm", "manhattan-lower-east-side-2020.osm",
    "liechtenstein-2013-08-03.osm.bz2",
  ])
  func everyExtractBuildsAndCountsWhatItSaw(_ name: String) throws {
    let stats =
      try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.osm("STATS.json")))
      as? [[String: Any]]
    let (path, report) = try buildShared(name)
    print(report.lines(verbose: false).joined(separator: "\n"))
    if let entry = stats?.first(where: { ($0["file"] as? String) == name }),
      let counts = entry["counts"] as? [String: Int]
    {
      #expect(report.read.nodes == counts["node"])
      #expect(report.read.ways == counts["way"])
      #expect(report.read.relations == counts["relation"])
    }
    #expect(report.places > 1000)
    let index = try LoadedIndex(path: path)
    try index.verify()
    #expect(index.placeCount == report.places)
  }

  @Test func sidewalksNamedAfterTheirStreetAreNotPlaces() throws {
    let (path, report) = try buildShared("manhattan-lower-east-side-2020.osm")
    // The extract maps sidewalks and crossings as footways carrying the street's name.
    #expect(report.streetPartsSkipped > 50)
    let client = try PlacesClient(indexPaths: [path])
    for street in ["Orchard Street", "East Houston Street", "Delancey Street"] {
      let s = try client.autocompleteSuggestions(
        for: AutocompleteRequest(query: street, maxResultCount: 10)
      ).compactMap(\.placeSuggestion).filter { $0.primaryText.text == street }
      #expect(s.map(\.types.first) == ["route"], "\(street): \(s.map(\.placeID))")
    }
  }

  @Test func rebuildIsByteIdentical() throws {
    let a = try buildShared("manhattan-lower-east-side-2020.osm")
    let b = try buildShared("manhattan-lower-east-side-2020.osm")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: a.path))
        == Data(contentsOf: URL(fileURLWithPath: b.path)))
  }
}

@Suite struct CLITests {
  var sampleIndex: String {
    get throws {
      let dir = try TestPaths.temporaryDirectory()
      let out = dir.appendingPathComponent("sample.placeidx").path
      let r = try runProcess(
        TestPaths.placeidx,
        ["build", TestPaths.data + "/sample.osm", "-o", out, "--data", TestPaths.data])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("places"))
      return out
    }
  }

  @Test func jsonLinesAnswerEachLineInOrder() throws {
    let index = try sampleIndex
    let input =
      [
        #"{"input":"apo"}"#,
        #"{"input":"haupt","origin":{"latitude":47.2,"longitude":9.8}}"#,
        "not json",
        #"{"input":"x","includedPrimaryTypes":["bank","(cities)"]}"#,
        #"{"input":"sankt","locationRestriction":{"rectangle":{"low":{"latitude":0,"longitude":180},"high":{"latitude":1,"longitude":-180}}}}"#,
        #"{"input":""}"#,
      ].joined(separator: "\n") + "\n"
    let r = try runProcess(
      TestPaths.placeidx, ["query", "--index", index, "--jsonl"], input: input)
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 6, "\(r.stdout)")
    #expect(lines[0].contains(#""placeId":"N"#) && lines[0].contains("Apotheke"))
    #expect(lines[1].contains("distanceMeters"))
    #expect(lines[2].contains(#""code":400"#))
    #expect(lines[3].contains(#""code":400"#) && lines[3].contains("(cities)"))
    #expect(lines[4].contains(#""code":400"#) && lines[4].contains("empty"))
    #expect(lines[5] == #"{"suggestions":[]}"#)
  }

  @Test func detailsPrintThePlaceDetailsShape() throws {
    let index = try sampleIndex
    let q = try runProcess(TestPaths.placeidx, ["query", "--index", index, "apotheke", "--json"])
    let id = try #require(q.stdout.firstMatch(of: /"placeId":"([NWR]\d+)"/)?.1)
    let r = try runProcess(TestPaths.placeidx, ["details", "--index", index, String(id), "--json"])
    #expect(r.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    #expect(json?["id"] as? String == String(id))
    #expect((json?["displayName"] as? [String: Any])?["text"] as? String == "Apotheke zum Löwen")
    #expect(
      json?["plusCode"] != nil && json?["location"] != nil && json?["addressComponents"] != nil)
    let masked = try runProcess(
      TestPaths.placeidx,
      ["details", "--index", index, String(id), "--json", "--fields", "displayName"])
    let m = try JSONSerialization.jsonObject(with: Data(masked.stdout.utf8)) as? [String: Any]
    #expect(m?.keys.sorted() == ["displayName"])
  }

  @Test func badInputsGiveOneClearErrorAndNonZeroExit() throws {
    let dir = try TestPaths.temporaryDirectory()
    let notIndex = dir.appendingPathComponent("x.placeidx")
    try Data("hello".utf8).write(to: notIndex)
    let badXML = dir.appendingPathComponent("bad.osm")
    try Data("<osm version=\"0.6\">\n<node id=\"1\" lat=\"1\" lon=\"1\">\n</osm>".utf8).write(
      to: badXML)
    let cases: [([String], String)] = [
      (
        ["query", "--index", dir.appendingPathComponent("missing.placeidx").path, "a"],
        "No such file"
      ),
      (["query", "--index", notIndex.path, "a"], "not a PlaceIndex file"),
      (
        [
          "build", dir.appendingPathComponent("none.osm").path, "-o",
          dir.appendingPathComponent("o.placeidx").path, "--data", TestPaths.data,
        ], "cannot open extract"
      ),
      (
        [
          "build", badXML.path, "-o", dir.appendingPathComponent("o.placeidx").path, "--data",
          TestPaths.data,
        ], "bad.osm:3:"
      ),
      (["frobnicate"], "unknown command"),
    ]
    for (args, message) in cases {
      let r = try runProcess(TestPaths.placeidx, args)
      #expect(r.status != 0, "\(args)")
      #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.placeidx").path))
  }

  @Test func theReaderLibraryDependsOnNeitherLibxml2NorZlib() throws {
    // Package.swift's graph, as SwiftPM reports it.
    let swift = URL(fileURLWithPath: "/usr/bin/env")
    // Its own scratch folder: the running `swift test` holds the lock on .build.
    let scratch = try TestPaths.temporaryDirectory().path
    let r = try runProcess(
      swift,
      [
        "swift", "package", "--package-path", TestPaths.repoRoot.path, "--scratch-path", scratch,
        "dump-package",
      ])
    try #require(r.status == 0, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let targets = try #require(json?["targets"] as? [[String: Any]])
    func deps(_ name: String) -> [String] {
      let t = targets.first { $0["name"] as? String == name }
      return (t?["dependencies"] as? [[String: Any]] ?? []).compactMap {
        (($0["byName"] ?? $0["target"]) as? [Any])?.first as? String
      }
    }
    var closure = Set<String>()
    var stack = ["PlaceIndex"]
    while let t = stack.popLast() {
      for d in deps(t) where closure.insert(d).inserted { stack.append(d) }
    }
    #expect(closure == ["PlaceCore", "PlaceIndexFormat"])
    #expect(
      !closure.contains("CLibXML2") && !closure.contains("CZlib") && !closure.contains("OSMReader"))
  }
}
