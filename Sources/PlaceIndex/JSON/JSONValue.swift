import Foundation

/// A JSON value, for the JSON-lines protocol: parsed strictly (JSONParser.swift), written
/// compactly.
public indirect enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// Keys keep their insertion order when written.
  case object([(String, JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized == b.serialized }
  public func hash(into h: inout Hasher) { h.combine(serialized) }

  /// Parses one JSON text strictly (``JSONParser``); throws `invalidArgument` naming the
  /// fault and its byte offset for malformed input (trailing commas, duplicate keys, text
  /// after the value, nesting deeper than 512 levels included).
  public static func parse(_ text: String) throws(PlacesError) -> JSONValue {
    try JSONParser.parse(text)
  }

  /// The value of `key` in an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  /// Compact JSON text.
  public var serialized: String {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  func write(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .number(let n):
      if n.isFinite, n == n.rounded(), abs(n) < 1e15 {
        out.append(contentsOf: String(Int64(n)).utf8)
      } else if n.isFinite {
        out.append(contentsOf: "\(n)".utf8)
      } else {
        out.append(contentsOf: "null".utf8)
      }
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let a):
      out.append(UInt8(ascii: "["))
      for (i, v) in a.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        v.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let pairs):
      out.append(UInt8(ascii: "{"))
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.writeString(k, to: &out)
        out.append(UInt8(ascii: ":"))
        v.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Byte by byte (the writer's scan of 8 bytes at a time is held to this), with the
    // writer's one escape table.
    for b in s.utf8 {
      if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
        JSONWriter.appendEscape(b, to: &out)
      } else {
        out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
