import Foundation
import OSMReader
import PlaceIndex
import TestSupport
import Testing

@testable import PlaceIndexBuilder

extension SplitMix64 {
  /// A whole number in 0..<n, from `next()` alone (not the standard library's range methods,
  /// whose output may change between releases).
  mutating func below(_ n: Int) -> Int { Int(next().multipliedFullWidth(by: UInt64(n)).high) }
}

/// Builds `xml` (written to a temporary file) into an index; returns the report and its bytes.
/// The input is always named `extract.osm` (the index records its file name), each in a
/// folder of its own.
func buildXML(
  _ xml: String, name: String = "x", configure: (inout IndexBuilder.Options) -> Void = { _ in }
) throws -> (BuildReport, [UInt8], URL) {
  let dir = try TestPaths.temporaryDirectory()
  let input = dir.appendingPathComponent("extract.osm")
  try xml.write(to: input, atomically: true, encoding: .utf8)
  return try buildFile(input.path, in: dir, name: name, configure: configure)
}

func buildFile(
  _ path: String, in dir: URL, name: String,
  configure: (inout IndexBuilder.Options) -> Void = { _ in }
) throws -> (BuildReport, [UInt8], URL) {
  let output = dir.appendingPathComponent("\(name).placeidx")
  var options = IndexBuilder.Options(extract: path, output: output.path)
  configure(&options)
  let report = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(options)
  return (report, [UInt8](try Data(contentsOf: output)), output)
}

/// The extract's elements in random order within each kind (nodes still before ways before
/// relations, as geometry needs), for the out-of-order tests.
func shuffledWithinKinds(_ xml: String, seed: UInt64) -> String {
  var random = SplitMix64(seed: seed)
  let text = Array(xml.utf8)
  var head: [UInt8] = []
  var groups: [[[UInt8]]] = [[], [], []]
  var tail: [UInt8] = []
  var i = 0
  func starts(_ s: String, at k: Int) -> Bool {
    let p = Array(s.utf8)
    return k + p.count <= text.count && Array(text[k..<(k + p.count)]) == p
  }
  var seenElement = false
  while i < text.count {
    var kind: Int? = nil
    for (k, name) in ["node", "way", "relation"].enumerated()
    where starts("<" + name + " ", at: i) {
      kind = k
    }
    guard let kind else {
      if starts("</osm", at: i) {
        tail = Array(text[i...])
        break
      }
      if !seenElement { head.append(text[i]) }
      i += 1
      continue
    }
    seenElement = true
    let name = ["node", "way", "relation"][kind]
    var j = i
    while text[j] != UInt8(ascii: ">") { j += 1 }
    var end = j + 1
    if text[j - 1] != UInt8(ascii: "/") {
      while !starts("</" + name + ">", at: end) { end += 1 }
      end += name.utf8.count + 3
    }
    groups[kind].append(Array(text[i..<end]) + [0x0A])
    i = end
  }
  var out = head
  for var g in groups {
    // Fisher–Yates with SplitMix64.
    if g.count > 1 {
      for k in stride(from: g.count - 1, to: 0, by: -1) { g.swapAt(k, random.below(k + 1)) }
    }
    for e in g { out.append(contentsOf: e) }
  }
  out.append(contentsOf: tail)
  return String(decoding: out, as: UTF8.self)
}

/// Building at scale: duplicate and out-of-order ids, temporary files, the external sort.
@Suite struct ScaleBuildTests {
  static let header = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6'>\n"

  static func names(_ index: URL, _ query: String) throws -> [String] {
    let client = try PlacesClient(indexPaths: [index.path])
    return try client.autocompleteSuggestions(for: AutocompleteRequest(query: query))
      .compactMap(\.placeSuggestion).map(\.primaryText.text)
  }

  /// Two copies of one element (as `osmium merge` of overlapping extracts gives): counted per
  /// kind, the later one kept, the same bytes on every build.
  @Test func duplicateIDsAreCountedAndTheLaterElementWins() throws {
    var xml = ScaleBuildTests.header
    // Node 1 twice in a row, node 2 twice apart (out of order): the later name and position win.
    xml +=
      "<node id='1' lat='47.10' lon='9.50'><tag k='name' v='Alpha Cafe'/><tag k='amenity' v='cafe'/></node>\n"
    xml +=
      "<node id='1' lat='47.11' lon='9.51'><tag k='name' v='Beta Cafe'/><tag k='amenity' v='cafe'/></node>\n"
    xml +=
      "<node id='2' lat='47.12' lon='9.52'><tag k='name' v='Gamma Bakery'/><tag k='shop' v='bakery'/></node>\n"
    for k in 10..<14 {
      xml += "<node id='\(k)' lat='47.1\(k - 10)' lon='9.5\(k - 10)'/>\n"
    }
    xml += "<node id='2' lat='47.13' lon='9.53'/>\n"
    // Way 20 twice: the later one's tags; the earlier candidate is gone.
    xml +=
      "<way id='20'><nd ref='10'/><nd ref='11'/><tag k='highway' v='residential'/><tag k='name' v='Earlier Street'/></way>\n"
    xml +=
      "<way id='20'><nd ref='12'/><nd ref='13'/><tag k='highway' v='residential'/><tag k='name' v='Later Street'/></way>\n"
    // Relation 30 twice: the later name.
    xml +=
      "<relation id='30'><member type='node' ref='1' role='label'/><tag k='type' v='multipolygon'/><tag k='place' v='village'/><tag k='name' v='Firstdorf'/></relation>\n"
    xml +=
      "<relation id='30'><member type='node' ref='1' role='label'/><tag k='type' v='multipolygon'/><tag k='place' v='village'/><tag k='name' v='Seconddorf'/></relation>\n"
    xml += "</osm>\n"
    let (report, bytes, index) = try buildXML(xml, name: "dups")
    #expect(report.duplicateIDs.nodes == 2)
    #expect(report.duplicateIDs.ways == 1)
    #expect(report.duplicateIDs.relations == 1)
    #expect(report.lines(verbose: false).contains { $0.contains("2 node, 1 way, 1 relation ids") })
    #expect(try ScaleBuildTests.names(index, "beta cafe") == ["Beta Cafe"])
    #expect(try !ScaleBuildTests.names(index, "alpha cafe").contains("Alpha Cafe"))
    #expect(
      try !ScaleBuildTests.names(index, "gamma bakery").contains("Gamma Bakery"),
      "node 2's later copy has no tags")
    #expect(try ScaleBuildTests.names(index, "later street") == ["Later Street"])
    #expect(try !ScaleBuildTests.names(index, "earlier street").contains("Earlier Street"))
    #expect(try ScaleBuildTests.names(index, "seconddorf") == ["Seconddorf"])
    #expect(try !ScaleBuildTests.names(index, "firstdorf").contains("Firstdorf"))
    let (_, again, _) = try buildXML(xml, name: "dups2")
    let same = again == bytes
    #expect(same)
  }

  /// The sample extract with its elements shuffled within each kind builds the same bytes as
  /// the sorted file (and a merged file of the sample twice builds them too).
  @Test func outOfOrderAndRepeatedElementsBuildTheSortedIndex() throws {
    let sample = try String(contentsOfFile: TestPaths.data + "/sample.osm", encoding: .utf8)
    let (sortedReport, sorted, _) = try buildXML(sample, name: "sorted")
    #expect(sortedReport.places > 100)
    for seed: UInt64 in [1, 2] {
      let shuffled = shuffledWithinKinds(sample, seed: seed)
      #expect(shuffled != sample)
      let (report, bytes, _) = try buildXML(shuffled, name: "shuffled\(seed)")
      #expect(report.places == sortedReport.places)
      let same = bytes == sorted
      #expect(same, "seed \(seed)")
    }
  }

  @Test(.enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm"))
  func outOfOrderRealExtractBuildsTheSortedIndex() throws {
    let path = TestPaths.osm("manhattan-lower-east-side-2020.osm").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let dir = try TestPaths.temporaryDirectory()
    let copy = dir.appendingPathComponent("extract.osm")
    try FileManager.default.copyItem(atPath: path, toPath: copy.path)
    let (sortedReport, sorted, _) = try buildFile(copy.path, in: dir, name: "les")
    #expect(sortedReport.places > 1000)
    #expect(sortedReport.duplicateIDs == (0, 0, 0))
    let (report, bytes, _) = try buildXML(shuffledWithinKinds(text, seed: 9), name: "les-shuffled")
    #expect(report.read.nodes == sortedReport.read.nodes && report.read.nodes > 10_000)
    let same = bytes == sorted
    #expect(same)
  }

  /// The record log's external sort (several 65,536-record chunks, merged) keeps the last
  /// value of each id and finds every id, against a dictionary.
  @Test func recordLogSortsOutOfOrderIDsAndKeepsTheLastValue() throws {
    let dir = try TestPaths.temporaryDirectory()
    let log = try RecordLog(SpillBudget(SpillSettings(directory: dir.path)), purpose: "test")
    var random = SplitMix64(seed: 19)
    var expected: [Int64: Int64] = [:]
    var appended = 0
    for k in 0..<250_000 {
      // Mostly ascending with jumps back, and about 10% repeated ids.
      let id = Int64(random.below(5) == 0 ? random.below(300_000) : k + random.below(50_000))
      let value = Int64(bitPattern: random.next())
      try log.append(id: id, value: value)
      expected[id] = value
      appended += 1
    }
    try log.freeze(pageLimit: 16)
    #expect(log.count == expected.count)
    #expect(log.duplicates == appended - expected.count)
    for (id, v) in expected { #expect(log.value(of: id) == v) }
    for id: Int64 in [-1, 400_000, 1 << 40] { #expect(log.value(of: id) == nil) }
    // Nothing of the log is left in the folder: its files were unlinked when created.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// A build whose temporary files cannot be created, or that runs out of room for them,
  /// fails with an error naming the folder and leaves nothing behind.
  @Test func temporaryFileFailuresAreCleanErrors() throws {
    let sample = try String(contentsOfFile: TestPaths.data + "/sample.osm", encoding: .utf8)
    let dir = try TestPaths.temporaryDirectory()
    let input = dir.appendingPathComponent("in.osm")
    try sample.write(to: input, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let spill = dir.appendingPathComponent("spill")
    try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
    let missing = dir.appendingPathComponent("no-such-folder").path
    func isTemporaryFiles(_ e: any Error, in folder: String, _ reason: String) -> Bool {
      guard case .temporaryFiles(let d, let r) = e as? BuildError else { return false }
      return d == folder && r.contains(reason)
    }
    for (folder, limit, reason) in [
      (missing, nil as Int64?, "No such file or directory"),
      (spill.path, 4_000, "No space left on device"),
    ] {
      var options = IndexBuilder.Options(
        extract: input.path, output: out.appendingPathComponent("x.placeidx").path)
      options.temporaryDirectory = folder
      options.temporaryByteLimit = limit
      #expect {
        _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(options)
      } throws: { isTemporaryFiles($0, in: folder, reason) }
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
      #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
    }
    #expect(
      BuildError.temporaryFiles(directory: "/t", reason: "r").description.contains("TMPDIR"))
    // With room, the same build succeeds and still leaves no temporary file.
    var options = IndexBuilder.Options(
      extract: input.path, output: out.appendingPathComponent("x.placeidx").path)
    options.temporaryDirectory = spill.path
    let report = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(options)
    #expect(report.places > 100)
    #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
  }
}
