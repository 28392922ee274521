import Foundation
import PlaceIndexBuilder
import TestSupport

/// A node of an extract made for a test: its id, position and tags.
struct FixtureNode {
  var id: Int
  var latitude: Double
  var longitude: Double
  var tags: [(key: String, value: String)]
}

/// Builds an index of `nodes`, written first as the OSM XML extract `name`.osm in a fresh
/// temporary directory; the index's path.
func buildFixtureIndex(_ nodes: [FixtureNode], name: String) throws -> String {
  func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }
  var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\">\n"
  for n in nodes {
    xml += "  <node id=\"\(n.id)\" lat=\"\(n.latitude)\" lon=\"\(n.longitude)\" version=\"1\">\n"
    for (k, v) in n.tags { xml += "    <tag k=\"\(escaped(k))\" v=\"\(escaped(v))\"/>\n" }
    xml += "  </node>\n"
  }
  xml += "</osm>\n"
  let dir = try TestPaths.temporaryDirectory()
  let extract = dir.appendingPathComponent("\(name).osm")
  try xml.write(to: extract, atomically: true, encoding: .utf8)
  let out = dir.appendingPathComponent("\(name).placeidx").path
  _ = try IndexBuilder(tables: BuildTables(directory: TestPaths.data)).build(
    IndexBuilder.Options(extract: extract.path, output: out))
  return out
}
