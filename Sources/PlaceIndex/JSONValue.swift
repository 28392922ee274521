import Foundation

/// A JSON value, for the JSON-lines protocol: parsed with Foundation, written compactly.
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

  /// Parses one JSON text; throws a readable message for malformed input.
  public static func parse(_ text: String) throws(PlacesError) -> JSONValue {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
    } catch {
      throw .invalidArgument(
        "malformed JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "cannot parse")"
      )
    }
    return convert(object)
  }

  private static func convert(_ any: Any) -> JSONValue {
    switch any {
    case let d as [String: Any]:
      return .object(d.keys.sorted().map { ($0, convert(d[$0]!)) })
    case let a as [Any]: return .array(a.map(convert))
    case let s as String: return .string(s)
    case let b as Bool where type(of: any) == Bool.self: return .bool(b)
    case let n as NSNumber: return .number(n.doubleValue)
    default: return .null
    }
  }

  /// The value of `key` in an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  /// Compact JSON text.
  public var serialized: String {
    var out = ""
    write(to: &out)
    return out
  }

  func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n):
      if n.isFinite, n == n.rounded(), abs(n) < 1e15 {
        out += String(Int64(n))
      } else if n.isFinite {
        out += "\(n)"
      } else {
        out += "null"
      }
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let a):
      out += "["
      for (i, v) in a.enumerated() {
        if i > 0 { out += "," }
        v.write(to: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out += "," }
        JSONValue.writeString(k, to: &out)
        out += ":"
        v.write(to: &out)
      }
      out += "}"
    }
  }

  static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if u.value < 0x20 {
          let hex = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    out += "\""
  }
}
