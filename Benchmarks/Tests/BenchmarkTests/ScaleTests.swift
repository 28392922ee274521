import Foundation
import PlaceCore
import Testing

@testable import placeidx_bench

/// The parts of `make bench-scale` that decide what it measures: the tiler's shards, the shard
/// split, the request mix and the reading of the build's report.
@Suite struct ScaleTests {
  /// The repository's sample extract (this file is Benchmarks/Tests/BenchmarkTests/…).
  static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Data/sample.osm").path

  static func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scale-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Tiles into a file; returns its text.
  static func tiled(_ t: Tiler.Template, factor: Int, copies: Range<Int>?, in dir: URL) throws
    -> String
  {
    let path = dir.appendingPathComponent("tiles-\(factor)-\(String(describing: copies)).osm").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let h = try #require(FileHandle(forWritingAtPath: path))
    let n = try Tiler.tile(template: t, factor: factor, copies: copies, to: h)
    try h.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.utf8.count == n)
    return text
  }

  /// The `id` values of the `<node` elements of an OSM XML text.
  static func nodeIDs(_ text: String) -> [Int64] {
    text.components(separatedBy: "<node ").dropFirst().compactMap { element in
      // The element's own attributes come first: its first `id="` is its id.
      guard let r = element.range(of: "id=\"") else { return nil }
      return Int64(element[r.upperBound...].prefix { $0 != "\"" })
    }
  }

  @Test("a shard of the tiling holds exactly its copies' nodes, with the ids of the whole tiling")
  func tilerShard() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let t = try Tiler.template(Self.sample)
    let one = Self.nodeIDs(try Self.tiled(t, factor: 1, copies: nil, in: dir))
    #expect(one.count > 10, "the sample has nodes")
    let whole = Self.nodeIDs(try Self.tiled(t, factor: 4, copies: nil, in: dir))
    let shardText = try Self.tiled(t, factor: 4, copies: 1..<3, in: dir)
    let shard = Self.nodeIDs(shardText)
    #expect(whole.count == 4 * one.count)
    #expect(shard.count == 2 * one.count)
    #expect(Set(shard.map { $0 / Tiler.idStride }) == [1, 2])
    #expect(Set(shard).isSubset(of: Set(whole)))
    #expect(shardText.hasSuffix("</osm>\n") || shardText.hasSuffix("</osm>"))
  }

  @Test("the shards of a factor cover its copies once, as even as they divide")
  func shardCopies() {
    for (factor, n) in [(5, 5), (10, 5), (50, 5), (50, 20), (200, 20), (201, 20)] {
      let ranges = (0..<n).map { ScaleShards.copies($0, of: n, factor: factor) }
      #expect(ranges.first?.lowerBound == 0)
      #expect(ranges.last?.upperBound == factor)
      for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
      let sizes = ranges.map(\.count)
      #expect(sizes.min()! >= 1 && sizes.max()! - sizes.min()! <= 1, "\(factor)/\(n): \(sizes)")
    }
  }

  @Test("the mix adds short multi-word prefixes and one letter with an origin to the keystrokes")
  func mix() throws {
    let places = [
      Coordinate(latitude: 47.14, longitude: 9.52), Coordinate(latitude: 32.47, longitude: -86.47),
      Coordinate(latitude: 47.2, longitude: 9.6),
    ]
    let targets = [
      Target(category: .poi, rank: 0, text: "Elektro Bühler Hauptstrasse", origin: nil),
      Target(
        category: .street, rank: 1, text: "County Line Road",
        origin: Coordinate(latitude: 32.48, longitude: -86.46)),
      Target(category: .place, rank: 2, text: "Vaduz", origin: nil),
    ]
    let (requests, kinds) = ScaleMix.requests(
      targets, coordinateOf: { places[$0] }, seed: 7)
    #expect(requests.count == kinds.count)
    let keystrokes = targets.map { $0.text.count }.reduce(0, +)
    #expect(kinds.filter { $0 == .keystroke }.count == keystrokes)
    let multi = requests.indices.filter { kinds[$0] == .multiWord }.map { requests[$0] }
    // Two-word and three-word prefixes of the first two targets; none of one-word "Vaduz".
    #expect(multi.map { $0.query.split(separator: " ").count } == [2, 3, 2, 3])
    for (r, text) in zip(
      multi,
      [
        "Elektro Bühler Hauptstrasse", "Elektro Bühler Hauptstrasse",
        "County Line Road", "County Line Road",
      ])
    {
      let words = text.split(separator: " ")
      for (i, w) in r.query.split(separator: " ").enumerated() {
        #expect((1...2).contains(w.count) && words[i].hasPrefix(w), "\(r.query)")
      }
    }
    let letters = requests.indices.filter { kinds[$0] == .letterOrigin }.map { requests[$0] }
    #expect(letters.map(\.query) == ["e", "c", "v"])
    for (r, t) in zip(letters, targets) {
      let origin = try #require(r.origin)
      let d = origin.distance(to: places[t.rank])
      #expect(d >= 90 && d <= 1_600, "an origin near the target: \(d) m")
    }
    #expect(letters[1].origin == targets[1].origin)
    // Every added request is a sequence of its own.
    let added = requests.indices.filter { kinds[$0] != .keystroke }.map { requests[$0].target }
    #expect(Set(added).count == added.count && added.allSatisfy { $0 >= targets.count })
  }

  @Test(
    "the build report's stages, places, elements and tokens are read as the builder prints them")
  func reportFigures() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (text, places, stages) = try BuildReportFigures.inProcessReport(
      extract: Self.sample, output: dir.appendingPathComponent("s.placeidx").path)
    let f = try BuildReportFigures(report: text)
    #expect(places > 0)
    #expect(f.places == places)
    #expect(f.stages.map(\.name) == stages)
    #expect(stages.first == "read")
    #expect(f.nodes > 0 && f.ways > 0 && f.tokens > 0)
    #expect(f.stages.allSatisfy { $0.seconds >= 0 && $0.cpuSeconds >= 0 && $0.peakRSSMiB > 0 })
  }

  @Test("a report without stage lines is refused, naming what is missing")
  func reportWithoutStages() {
    #expect {
      try BuildReportFigures(report: "places    12 (0 street ways merged)\n")
    } throws: { e in
      (e as? HarnessError)?.description.hasPrefix("the build's report has no stage lines") == true
    }
    #expect {
      try BuildReportFigures(report: "places    12\nstage     read: 1.0 s\n")
    } throws: { e in
      (e as? HarnessError)?.description.hasPrefix("cannot read the build's stage line") == true
    }
  }
}
