import Foundation
import OSMReader
import TestSupport
import Testing

/// The real extracts in `shared/data/osm` that these tests read.
///
/// The 58 MB `.gz` extract is not read here: it takes too long in a debug build.
enum RealExtract: String, CaseIterable, CustomTestStringConvertible {
  case helsinki = "helsinki-center-2019.osm"
  case manhattan = "manhattan-lower-east-side-2020.osm"
  case liechtenstein2013 = "liechtenstein-2013-08-03.osm.bz2"

  var url: URL { TestPaths.sharedOSM(rawValue) }
  var testDescription: String { rawValue }

  static var statsURL: URL { TestPaths.sharedOSM("STATS.json") }

  /// Whether the extract and STATS.json are both present.
  static func available(_ extract: RealExtract) -> Bool {
    TestPaths.exists(extract.url) && TestPaths.exists(statsURL)
  }

  /// The plain extracts present on this machine.
  static var availablePlain: [RealExtract] {
    [.helsinki, .manhattan].filter(available)
  }
}

/// One entry of `STATS.json`.
struct ExtractStats: Decodable {
  var file: String
  var bytes: Int64
  var counts: [String: Int]
  var place: [String: Int]
  var admin_levels: [String: Int]
  var addr_country: [String: Int]
  var poi_keys: [String: Int]
  var timestamps: [String]
  var xml_bytes_uncompressed: Int64

  static func load(_ extract: RealExtract) throws -> ExtractStats {
    let data = try Data(contentsOf: RealExtract.statsURL)
    let all = try JSONDecoder().decode([ExtractStats].self, from: data)
    return try #require(all.first { $0.file == extract.rawValue }, "\(extract) not in STATS.json")
  }
}

@Suite(
  "OSMExtractReader on the real extracts in ../shared/data/osm",
  .enabled(
    if: !RealExtract.availablePlain.isEmpty,
    "shared extracts not found (set PLACEINDEX_SHARED to the shared directory)"))
struct RealExtractTests {
  func expectMatchesStats(_ extract: RealExtract) throws {
    let expected = try ExtractStats.load(extract)
    let handler = TagCountingHandler()
    let stats = try OSMExtractReader(path: extract.url.path).read(into: handler)

    #expect(stats.nodes == expected.counts["node"])
    #expect(stats.ways == expected.counts["way"])
    #expect(stats.relations == expected.counts["relation"])
    #expect(stats.skippedElements == 0)
    #expect(stats.xmlBytes == expected.xml_bytes_uncompressed)
    #expect(stats.generator.hasPrefix("osmium") || extract == .liechtenstein2013)

    // The tag counts test tag decoding as well as element delivery.
    for (key, count) in expected.counts.sorted(by: { $0.key < $1.key }) {
      #expect(handler.counts[key, default: 0] == count, "count of \(key)")
    }
    #expect(handler.place == expected.place)
    #expect(handler.adminLevels == expected.admin_levels)
    #expect(handler.addrCountry == expected.addr_country)
    #expect(handler.poiKeys == expected.poi_keys)

    let newest = try #require(expected.timestamps.last)
    let date = try #require(ISO8601DateFormatter().date(from: newest))
    #expect(stats.newestTimestamp == Int64(date.timeIntervalSince1970))
  }

  @Test(
    "element and tag counts equal STATS.json",
    .timeLimit(.minutes(6)),
    arguments: RealExtract.availablePlain)
  func counts(_ extract: RealExtract) throws {
    try expectMatchesStats(extract)
  }

  // The bzip2 extract (13.6 MB of XML) reads in a few seconds in a debug build.
  @Test(
    "the bzip2 Liechtenstein 2013 extract reads with the counts of STATS.json",
    .enabled(if: RealExtract.available(.liechtenstein2013) && Tools.bzip2 != nil),
    .timeLimit(.minutes(6)))
  func liechtensteinBzip2() throws {
    try expectMatchesStats(.liechtenstein2013)
  }

  @Test(
    "Helsinki: names with '&' and bilingual names come through intact",
    .enabled(if: RealExtract.available(.helsinki)))
  func helsinkiNames() throws {
    let handler = CollectingHandler()
    try OSMExtractReader(path: RealExtract.helsinki.url.path).read(into: handler)
    let names = Set(handler.elements.compactMap { $0["name"] })
    let hasMaya = names.contains("Maya Bar & Grill")
    #expect(hasMaya, "no element named \"Maya Bar & Grill\" (the file has it as &amp;)")
    let undecoded = names.filter { $0.contains("&#38;") || $0.contains("&amp;") }.sorted()
    #expect(
      undecoded.count == 0, "\(undecoded.count) names not decoded, e.g. \(undecoded.prefix(3))")
    #expect(handler.elements.contains { $0["name:sv"] == "Spinnerskan och Jakten" })
  }
}
