/// A strict JSON parser (RFC 8259) for request lines and the index's META section: what
/// Foundation's parser lets through is refused here with the byte offset of the fault — a
/// trailing comma, a duplicate key, text after the value, a lone surrogate escape — and
/// `true` stays a boolean (Foundation hands it over as the number 1 on Linux).
struct JSONParser {
  /// Nesting deeper than this is refused (the parser recurses once per level).
  static let maximumDepth = 512

  private let bytes: [UInt8]
  private var at = 0

  private init(_ utf8: [UInt8]) {
    bytes = utf8
    // A byte order mark may be ignored (RFC 8259, section 8.1).
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
  }

  /// Parses one JSON text: one value, with only whitespace around it.
  static func parse(_ text: String) throws(PlacesError) -> JSONValue {
    try parse(utf8: Array(text.utf8))
  }

  /// Parses one JSON text given as valid UTF-8 bytes (the bytes of a String: invalid sequences
  /// would be kept in strings, where the String path has U+FFFD).
  static func parse(utf8: [UInt8]) throws(PlacesError) -> JSONValue {
    var p = JSONParser(utf8)
    p.skipSpace()
    guard p.at < p.bytes.count else { throw p.fault("no JSON value (empty text)") }
    let value = try p.value(depth: 0)
    p.skipSpace()
    guard p.at == p.bytes.count else { throw p.fault("unexpected text after the JSON value") }
    return value
  }

  private func fault(_ what: String, at offset: Int? = nil) -> PlacesError {
    .invalidArgument("malformed JSON: \(what) at byte \(offset ?? at)")
  }

  private mutating func skipSpace() {
    while at < bytes.count {
      switch bytes[at] {
      case 0x20, 0x09, 0x0A, 0x0D: at += 1
      default: return
      }
    }
  }

  private func describe(_ b: UInt8) -> String {
    b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
  }

  private mutating func value(depth: Int) throws(PlacesError) -> JSONValue {
    guard at < bytes.count else { throw fault("the text ends where a value should be") }
    switch bytes[at] {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    case let b: throw fault("unexpected \(describe(b)) where a value should be")
    }
  }

  private mutating func literal(_ word: String) throws(PlacesError) {
    let w = Array(word.utf8)
    guard bytes.count - at >= w.count, bytes[at..<(at + w.count)].elementsEqual(w) else {
      throw fault("unknown literal (expected \(word))")
    }
    at += w.count
  }

  private mutating func object(depth: Int) throws(PlacesError) -> JSONValue {
    guard depth <= Self.maximumDepth else {
      throw fault("nested deeper than \(Self.maximumDepth) levels")
    }
    at += 1
    var pairs: [(String, JSONValue)] = []
    // Duplicate keys: looked for among the pairs while there are few, in a set past that.
    var keys: Set<String>? = nil
    var comma = at
    skipSpace()
    if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
      at += 1
      return .object(pairs)
    }
    while true {
      skipSpace()
      guard at < bytes.count else { throw fault("the text ends inside an object") }
      if bytes[at] == UInt8(ascii: "}"), !pairs.isEmpty {
        throw fault("trailing comma before '}'", at: comma)
      }
      guard bytes[at] == UInt8(ascii: "\"") else {
        throw fault("unexpected \(describe(bytes[at])) where an object key should be")
      }
      let keyStart = at
      let key = try string()
      let duplicate: Bool
      if keys == nil && pairs.count < 16 {
        duplicate = pairs.contains { $0.0 == key }
      } else {
        if keys == nil { keys = Set(pairs.map(\.0)) }
        duplicate = !keys!.insert(key).inserted
      }
      guard !duplicate else {
        throw fault("duplicate key '\(key)'", at: keyStart)
      }
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else {
        throw fault("expected ':' after the key '\(key)'")
      }
      at += 1
      skipSpace()
      pairs.append((key, try value(depth: depth)))
      skipSpace()
      guard at < bytes.count else { throw fault("the text ends inside an object") }
      switch bytes[at] {
      case UInt8(ascii: ","):
        comma = at
        at += 1
      case UInt8(ascii: "}"):
        at += 1
        return .object(pairs)
      case let b:
        throw fault("unexpected \(describe(b)) after an object member (expected ',' or '}')")
      }
    }
  }

  private mutating func array(depth: Int) throws(PlacesError) -> JSONValue {
    guard depth <= Self.maximumDepth else {
      throw fault("nested deeper than \(Self.maximumDepth) levels")
    }
    at += 1
    var items: [JSONValue] = []
    var comma = at
    skipSpace()
    if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
      at += 1
      return .array(items)
    }
    while true {
      skipSpace()
      if at < bytes.count, bytes[at] == UInt8(ascii: "]"), !items.isEmpty {
        throw fault("trailing comma before ']'", at: comma)
      }
      items.append(try value(depth: depth))
      skipSpace()
      guard at < bytes.count else { throw fault("the text ends inside an array") }
      switch bytes[at] {
      case UInt8(ascii: ","):
        comma = at
        at += 1
      case UInt8(ascii: "]"):
        at += 1
        return .array(items)
      case let b: throw fault("unexpected \(describe(b)) after an array item (expected ',' or ']')")
      }
    }
  }

  private mutating func hex4() throws(PlacesError) -> UInt32 {
    guard bytes.count - at >= 4 else { throw fault("a \\u escape needs 4 hex digits") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[at]
      let d: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
      default: throw fault("a \\u escape needs 4 hex digits")
      }
      v = v << 4 | UInt32(d)
      at += 1
    }
    return v
  }

  private mutating func string() throws(PlacesError) -> String {
    let start = at
    at += 1
    var out: [UInt8] = []
    while true {
      guard at < bytes.count else { throw fault("unterminated string", at: start) }
      let b = bytes[at]
      switch b {
      case UInt8(ascii: "\""):
        at += 1
        return String(decoding: out, as: UTF8.self)
      case 0..<0x20:
        throw fault("unescaped control character 0x\(String(b, radix: 16)) in a string")
      case UInt8(ascii: "\\"):
        at += 1
        guard at < bytes.count else { throw fault("unterminated string", at: start) }
        let e = bytes[at]
        at += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          let escape = at - 2
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code) {
            guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"),
              bytes[at + 1] == UInt8(ascii: "u")
            else { throw fault("lone surrogate escape in a string", at: escape) }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
              throw fault("lone surrogate escape in a string", at: escape)
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(code) {
            throw fault("lone surrogate escape in a string", at: escape)
          }
          out.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
        default: throw fault("unknown escape \\\(describe(e)) in a string", at: at - 2)
        }
      default:
        // A run of plain bytes at once (a long input is mostly one run).
        var end = at + 1
        while end < bytes.count {
          let c = bytes[end]
          if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
          end += 1
        }
        out.append(contentsOf: bytes[at..<end])
        at = end
      }
    }
  }

  private mutating func number() throws(PlacesError) -> Double {
    let start = at
    func digits(_ p: inout JSONParser) -> Int {
      let s = p.at
      while p.at < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.at]) {
        p.at += 1
      }
      return p.at - s
    }
    if bytes[at] == UInt8(ascii: "-") { at += 1 }
    let intStart = at
    let n = digits(&self)
    guard n > 0 else { throw fault("a number needs digits", at: start) }
    if n > 1, bytes[intStart] == UInt8(ascii: "0") {
      throw fault("a number may not start with 0", at: start)
    }
    if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
      at += 1
      guard digits(&self) > 0 else { throw fault("digits must follow a decimal point") }
    }
    if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
      at += 1
      if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
        at += 1
      }
      guard digits(&self) > 0 else { throw fault("digits must follow an exponent") }
    }
    let text = String(decoding: bytes[start..<at], as: UTF8.self)
    guard let v = Double(text) else { throw fault("unreadable number", at: start) }
    return v
  }
}
