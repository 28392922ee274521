import Foundation
import OSMReader
import TestSupport

/// An independent, regex-based reading of a small OSM XML file, to check the reader against.
///
/// It relies only on the text: element blocks, attributes in double quotes, and the five XML
/// entities plus character references. It is meant for small, well-formed files written in
/// the usual OSM layout (such as `Data/sample.osm`), not as a general parser.
enum XMLTextScanner {
  /// Every node, way and relation of `text`, in file order.
  static func elements(of text: String) -> [RecordedElement] {
    let withoutComments = text.replacing(/<!--.*?-->/.dotMatchesNewlines(), with: "")
    let block = /<(node|way|relation)\s([^>]*?)(?:\/>|>(.*?)<\/(?:node|way|relation)>)/
      .dotMatchesNewlines()
    var result: [RecordedElement] = []
    for match in withoutComments.matches(of: block) {
      let kind = OSMElementKind(xmlName: String(match.output.1))!
      let attributes = attributes(of: match.output.2)
      let body = match.output.3 ?? ""
      var element = RecordedElement(
        kind: kind, id: Int64(attributes["id"] ?? "") ?? 0, tags: [])
      if kind == .node {
        element.latitudeE7 = e7(attributes["lat"])
        element.longitudeE7 = e7(attributes["lon"])
      }
      for tag in body.matches(of: /<tag\s+k="([^"]*)"\s+v="([^"]*)"\s*\/>/) {
        element.tags.append(
          OSMTag(key: unescape(tag.output.1), value: unescape(tag.output.2)))
      }
      for nd in body.matches(of: /<nd\s+ref="(-?[0-9]+)"\s*\/>/) {
        element.nodeRefs.append(Int64(nd.output.1)!)
      }
      for member in body.matches(
        of: /<member\s+type="(\w+)"\s+ref="(-?[0-9]+)"\s+role="([^"]*)"\s*\/>/)
      {
        element.members.append(
          RecordedMember(
            OSMElementKind(xmlName: String(member.output.1))!, Int64(member.output.2)!,
            unescape(member.output.3)))
      }
      result.append(element)
    }
    return result
  }

  /// The newest `timestamp="…"` in `text`, as seconds since 1970.
  static func newestTimestamp(of text: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    var newest: Int64 = 0
    for match in text.matches(of: /timestamp="([^"]+)"/) {
      if let date = formatter.date(from: String(match.output.1)) {
        newest = max(newest, Int64(date.timeIntervalSince1970))
      }
    }
    return newest
  }

  /// How many times `pattern` occurs in `text`.
  static func count(_ pattern: Regex<Substring>, in text: String) -> Int {
    text.matches(of: pattern).count
  }

  private static func attributes(of head: Substring) -> [String: String] {
    var result: [String: String] = [:]
    for match in head.matches(of: /([A-Za-z_][A-Za-z0-9_:.-]*)\s*=\s*"([^"]*)"/) {
      result[String(match.output.1)] = unescape(match.output.2)
    }
    return result
  }

  private static func e7(_ text: String?) -> Int32 {
    guard let text, let value = Double(text) else { return Int32.min }
    return Int32((value * 1e7).rounded())
  }

  /// Decodes the predefined entities and character references of an attribute value.
  static func unescape(_ raw: Substring) -> String { XMLText.unescape(raw) }
}
