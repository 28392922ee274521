import Foundation
import OSMReader
import PlaceCore
import TestSupport
import Testing

/// One element as a handler received it, in a form that can be compared.
struct RecordedElement: Equatable, CustomStringConvertible {
  var kind: OSMElementKind
  var id: Int64
  var latitudeE7: Int32 = 0
  var longitudeE7: Int32 = 0
  var nodeRefs: [Int64] = []
  var members: [RecordedMember] = []
  var tags: [OSMTag]

  /// The value of the first tag with `key`.
  subscript(key: String) -> String? { tags[key: key] }

  var description: String { PlaceID(kind: .init(rawValue: kind.rawValue)!, id: id).description }
}

/// One relation member (``OSMMember`` has no public initializer, so tests compare these).
struct RecordedMember: Equatable, CustomStringConvertible {
  var kind: OSMElementKind
  var ref: Int64
  var role: String

  init(_ kind: OSMElementKind, _ ref: Int64, _ role: String) {
    self.kind = kind
    self.ref = ref
    self.role = role
  }

  init(_ member: OSMMember) {
    self.init(member.kind, member.ref, member.role)
  }

  var description: String {
    PlaceID(kind: .init(rawValue: kind.rawValue)!, id: ref).description + "[\(role)]"
  }
}

/// Collects every element it is handed, in order.
final class CollectingHandler: OSMElementHandler {
  var elements: [RecordedElement] = []

  func handle(node: OSMNode) throws {
    elements.append(
      RecordedElement(
        kind: .node, id: node.id, latitudeE7: node.latitudeE7, longitudeE7: node.longitudeE7,
        tags: node.tags))
  }

  func handle(way: OSMWay) throws {
    elements.append(RecordedElement(kind: .way, id: way.id, nodeRefs: way.nodeRefs, tags: way.tags))
  }

  func handle(relation: OSMRelation) throws {
    elements.append(
      RecordedElement(
        kind: .relation, id: relation.id, members: relation.members.map(RecordedMember.init),
        tags: relation.tags))
  }

  func elements(_ kind: OSMElementKind) -> [RecordedElement] {
    elements.filter { $0.kind == kind }
  }
}

/// Counts objects by tag while reading, the way `STATS.json` counts them, without keeping them.
final class TagCountingHandler: OSMElementHandler {
  var counts: [String: Int] = [:]
  var place: [String: Int] = [:]
  var adminLevels: [String: Int] = [:]
  var addrCountry: [String: Int] = [:]
  var poiKeys: [String: Int] = [:]

  static let countedKeys = [
    "addr:housenumber", "addr:street", "addr:postcode", "addr:city", "name", "place",
  ]

  private func count(_ kind: OSMElementKind, _ tags: [OSMTag]) {
    counts["\(kind)", default: 0] += 1
    for key in TagCountingHandler.countedKeys where tags[key: key] != nil {
      counts[key, default: 0] += 1
    }
    var isPOI = false
    for key in ["amenity", "shop", "tourism"] where tags[key: key] != nil {
      poiKeys[key, default: 0] += 1
      isPOI = true
    }
    if isPOI { counts["amenity|shop|tourism", default: 0] += 1 }
    if let hn = tags[key: "addr:housenumber"] {
      if hn.contains("/") { counts["hn_with_slash", default: 0] += 1 }
      if hn.wholeMatch(of: /[0-9]+-[0-9]+/) != nil { counts["hn_with_hyphen", default: 0] += 1 }
    }
    if let value = tags[key: "place"] { place[value, default: 0] += 1 }
    if let value = tags[key: "addr:country"] { addrCountry[value, default: 0] += 1 }
    if kind == .relation {
      if tags[key: "type"] == "multipolygon" { counts["multipolygon_rel", default: 0] += 1 }
      if tags[key: "boundary"] == "administrative", let level = tags[key: "admin_level"] {
        adminLevels[level, default: 0] += 1
      }
    }
  }

  func handle(node: OSMNode) throws { count(.node, node.tags) }
  func handle(way: OSMWay) throws { count(.way, way.tags) }
  func handle(relation: OSMRelation) throws { count(.relation, relation.tags) }
}

extension TestPaths {
  /// A file under `shared/data/osm`.
  static func sharedOSM(_ name: String) -> URL { osm(name) }

  static func exists(_ url: URL) -> Bool {
    FileManager.default.fileExists(atPath: url.path)
  }
}

/// External compressors used to make test inputs.
enum Tools {
  static func find(_ name: String) -> String? {
    ["/bin/\(name)", "/usr/bin/\(name)", "/usr/local/bin/\(name)"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  static let gzip: String? = find("gzip")
  static let bzip2: String? = find("bzip2")

  /// Runs `tool -c <input>` and writes its standard output to `output`.
  static func compress(_ tool: String, _ input: URL, to output: URL) throws {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["-c", input.path]
    process.standardOutput = handle
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(tool) -c \(input.path) failed")
  }
}

/// A fresh temporary directory, removed when the value is released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("OSMReaderTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Writes `text` (UTF-8) to a file named `name` and returns its URL.
  func write(_ name: String, _ text: String) throws -> URL {
    try write(name, Data(text.utf8))
  }

  /// Writes `data` to a file named `name` and returns its URL.
  func write(_ name: String, _ data: Data) throws -> URL {
    let file = url.appendingPathComponent(name)
    try data.write(to: file)
    return file
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Reads the extract at `url`, collecting every element.
func readAll(_ url: URL) throws -> (CollectingHandler, OSMReadStatistics) {
  let handler = CollectingHandler()
  let stats = try OSMExtractReader(path: url.path).read(into: handler)
  return (handler, stats)
}

/// Reads `xml` from a temporary file, collecting every element.
func readXML(_ xml: String, in dir: TemporaryDirectory, name: String = "input.osm") throws -> (
  CollectingHandler, OSMReadStatistics
) {
  try readAll(dir.write(name, xml))
}

/// The error a read throws, or nil when it succeeds.
func readError(_ url: URL) -> OSMReaderError? {
  do {
    _ = try readAll(url)
    return nil
  } catch let error as OSMReaderError {
    return error
  } catch {
    Issue.record("unexpected error type: \(error)")
    return nil
  }
}

/// A minimal OSM document around `body`.
func osmDocument(_ body: String, prolog: String = "") -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  \(prolog)<osm version="0.6" generator="test">
  \(body)
  </osm>

  """
}

extension OSMReaderError {
  /// The case name, for readable expectations.
  var kind: String {
    switch self {
    case .cannotOpen: "cannotOpen"
    case .compression: "compression"
    case .malformedXML: "malformedXML"
    case .notOSM: "notOSM"
    case .noData: "noData"
    case .elementTooLarge: "elementTooLarge"
    case .pbf: "pbf"
    }
  }
}
