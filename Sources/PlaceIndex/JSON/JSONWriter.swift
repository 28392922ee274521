/// Compact JSON written straight into bytes, without a ``JSONValue`` tree in between: what the
/// hot responses use (autocomplete answers, `placeidx serve` and `query --jsonl`). The output is
/// byte for byte what ``JSONValue/serialized`` writes for the same values (same escapes, same
/// numbers); `JSONWriterTests` holds the two against each other.
///
/// Commas are the writer's: `key(_:)` and the value writers put one before a member or an item
/// that is not the first of its object or array.
package struct JSONWriter {
  package private(set) var bytes: [UInt8] = []
  /// One bit a level, lowest the innermost: whether that object or array has a member yet.
  private var started: UInt64 = 0
  /// Whether the value about to be written follows a key (no comma before it).
  private var afterKey = false

  package init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

  /// The comma before a member or an item that is not the first.
  @inline(__always) private mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    if started & 1 != 0 { bytes.append(UInt8(ascii: ",")) }
    started |= 1
  }

  package mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    started <<= 1
  }

  package mutating func endObject() {
    started >>= 1
    bytes.append(UInt8(ascii: "}"))
  }

  package mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    started <<= 1
  }

  package mutating func endArray() {
    started >>= 1
    bytes.append(UInt8(ascii: "]"))
  }

  /// Bytes of JSON text as they are, no comma: for a fixed stretch of a known shape
  /// (`{"text":`), the caller answering for its commas.
  package mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// A string's JSON text, no comma (with ``raw(_:)``).
  package mutating func rawString(_ s: String) { Self.writeString(s, to: &bytes) }

  /// The inside of a string's JSON text, escaped, no quotes (with ``raw(_:)``).
  package mutating func rawEscaped(_ s: String) {
    var s = s
    s.withUTF8 { Self.writeEscaped($0, to: &bytes) }
  }

  /// A number's JSON text, no comma (with ``raw(_:)``).
  package mutating func rawNumber(_ n: Double) {
    if n.isFinite, n == n.rounded(), abs(n) < 1e15 {
      Self.writeInteger(Int64(n), to: &bytes)
    } else if n.isFinite {
      bytes.append(contentsOf: "\(n)".utf8)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }

  /// An object member's key; its value comes next.
  package mutating func key(_ k: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    k.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    afterKey = true
  }

  /// An object member's key that is not a literal (escaped as any string).
  package mutating func key(_ k: String) {
    separate()
    Self.writeString(k, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    afterKey = true
  }

  package mutating func string(_ s: String) {
    separate()
    Self.writeString(s, to: &bytes)
  }

  /// Two strings as one JSON string (`"places/" + id` without the concatenation).
  package mutating func string(_ prefix: StaticString, _ s: String) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    prefix.withUTF8Buffer { Self.writeEscaped($0, to: &bytes) }
    var s = s
    s.withUTF8 { Self.writeEscaped($0, to: &bytes) }
    bytes.append(UInt8(ascii: "\""))
  }

  /// An integer, as ``JSONValue/number(_:)`` writes an integral Double below 1e15.
  package mutating func integer(_ n: Int) {
    separate()
    Self.writeInteger(Int64(n), to: &bytes)
  }

  /// A number exactly as ``JSONValue/number(_:)`` writes it.
  package mutating func number(_ n: Double) {
    separate()
    rawNumber(n)
  }

  package mutating func bool(_ b: Bool) {
    separate()
    bytes.append(contentsOf: (b ? "true" : "false").utf8)
  }

  package mutating func null() {
    separate()
    bytes.append(contentsOf: "null".utf8)
  }

  /// A value already built as a tree.
  package mutating func value(_ v: JSONValue) {
    separate()
    v.write(to: &bytes)
  }

  /// Decimal digits, no allocation.
  static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
    if value == 0 {
      out.append(UInt8(ascii: "0"))
      return
    }
    var magnitude = value.magnitude
    if value < 0 { out.append(UInt8(ascii: "-")) }
    // 20 digits hold any UInt64.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var at = 20
      while magnitude > 0 {
        at -= 1
        digits[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at..<20]))
    }
  }

  /// A JSON string: the escapes of ``JSONValue``'s writer.
  static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { writeEscaped($0, to: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// The inside of a JSON string: runs of plain bytes copied whole, `"`, `\\` and control
  /// characters escaped as ``JSONValue/writeString(_:to:)`` escapes them. Eight bytes at a time
  /// are looked at for one that needs an escape (SWAR), byte by byte only where one may.
  static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    guard let base = utf8.baseAddress else { return }
    let n = utf8.count
    var runStart = 0
    var i = 0
    while i < n {
      if n - i >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
        if !mayNeedEscape(word) {
          i += 8
          continue
        }
      }
      let end = min(i + 8, n)
      while i < end {
        let b = base[i]
        if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
          i += 1
          continue
        }
        if runStart < i {
          out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
        }
        appendEscape(b, to: &out)
        i += 1
        runStart = i
      }
    }
    if runStart < n {
      out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: n - runStart))
    }
  }

  /// Whether one of the eight bytes may be a control character, `"` or `\\` (never false when
  /// one is; sometimes true when none is, past a byte of 0x80 or more).
  @inline(__always) static func mayNeedEscape(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let control = (w &- ones &* 0x20) & ~w & high
    let q = w ^ (ones &* 0x22)
    let quote = (q &- ones) & ~q & high
    let s = w ^ (ones &* 0x5C)
    let slash = (s &- ones) & ~s & high
    return (control | quote | slash) != 0
  }

  @inline(__always) static func appendEscape(_ b: UInt8, to out: inout [UInt8]) {
    switch b {
    case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
    case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    default:
      let hex: StaticString = "0123456789abcdef"
      let digits = hex.utf8Start
      out.append(contentsOf: [
        0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(b >> 4)], digits[Int(b & 15)],
      ])
    }
  }
}
