import CLibXML2

/// A NUL-terminated element or attribute name owned by libxml2, valid during one callback.
struct RawName {
  let pointer: UnsafePointer<xmlChar>

  /// Whether the name is exactly `literal` (ASCII).
  @inline(__always)
  func equals(_ literal: StaticString) -> Bool {
    let bytes = literal.utf8Start
    let count = literal.utf8CodeUnitCount
    for i in 0..<count where pointer[i] != bytes[i] { return false }
    return pointer[count] == 0
  }

  var string: String { String(cString: pointer) }
}

/// One attribute of a SAX2 start-element callback: a name and a value slice [start, end).
struct RawAttribute {
  let name: RawName
  let start: UnsafePointer<xmlChar>
  let end: UnsafePointer<xmlChar>

  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: start, count: end - start)
  }

  /// The value as text. libxml2 (2.9, entities not substituted) hands over each `&` of an
  /// attribute value as the character reference `&#38;`; it is turned back into `&` here.
  var string: String {
    let b = bytes
    guard b.contains(UInt8(ascii: "&")) else { return String(decoding: b, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(b.count)
    var i = 0
    let ref: [UInt8] = Array("&#38;".utf8)
    while i < b.count {
      if b[i] == UInt8(ascii: "&"), i + ref.count <= b.count,
        b[i..<(i + ref.count)].elementsEqual(ref)
      {
        out.append(UInt8(ascii: "&"))
        i += ref.count
      } else {
        out.append(b[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The value as a decimal integer, or nil when it is not one.
  var integer: Int64? {
    let b = bytes
    var i = 0
    var negative = false
    if i < b.count && b[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    guard i < b.count, b.count - i <= 18 else { return nil }
    var value: Int64 = 0
    while i < b.count {
      let d = b[i] &- 48
      guard d < 10 else { return nil }
      value = value * 10 + Int64(d)
      i += 1
    }
    return negative ? -value : value
  }

  /// The value as a decimal number scaled by 1e7 and rounded, or nil when it is not a finite
  /// number in plain or exponent notation.
  var fixedE7: Int64? {
    let b = bytes
    var i = 0
    var negative = false
    if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) {
      negative = b[i] == UInt8(ascii: "-")
      i += 1
    }
    var intPart: Int64 = 0
    var digits = 0
    while i < b.count, b[i] &- 48 < 10 {
      intPart = intPart * 10 + Int64(b[i] &- 48)
      digits += 1
      i += 1
      if digits > 4 { return slowFixedE7 }
    }
    var frac: Int64 = 0
    var fracDigits = 0
    var roundUp = false
    if i < b.count && b[i] == UInt8(ascii: ".") {
      i += 1
      while i < b.count, b[i] &- 48 < 10 {
        if fracDigits < 7 {
          frac = frac * 10 + Int64(b[i] &- 48)
          fracDigits += 1
        } else if fracDigits == 7 {
          roundUp = b[i] >= UInt8(ascii: "5")
          fracDigits += 1
        }
        digits += 1
        i += 1
      }
    }
    guard digits > 0 else { return nil }
    if i != b.count { return slowFixedE7 }
    var scale = min(fracDigits, 7)
    while scale < 7 {
      frac *= 10
      scale += 1
    }
    let value = intPart * 10_000_000 + frac + (roundUp ? 1 : 0)
    return negative ? -value : value
  }

  /// A decimal number in the XML Schema sense (`[+-]? digits [. digits] [(e|E) [+-]? digits]`),
  /// the slow way. Hexadecimal floats (`0x1p3`), `inf`, `nan` and the other spellings that
  /// `Double(String)` accepts are refused: they are not coordinates.
  private var slowFixedE7: Int64? {
    let b = bytes
    var i = 0
    func digits() -> Int {
      let start = i
      while i < b.count, b[i] &- 48 < 10 { i += 1 }
      return i - start
    }
    if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
    var mantissa = digits()
    if i < b.count && b[i] == UInt8(ascii: ".") {
      i += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return nil }
    if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
      i += 1
      if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
      guard digits() > 0 else { return nil }
    }
    guard i == b.count else { return nil }
    guard let d = Double(string), d.isFinite, abs(d) <= 1000 else { return nil }
    return Int64((d * 1e7).rounded())
  }

  /// An ISO 8601 `YYYY-MM-DDTHH:MM:SSZ` value as seconds since 1970.
  var timestamp: Int64? {
    let b = bytes
    guard b.count >= 19 else { return nil }
    func num(_ from: Int, _ len: Int) -> Int64? {
      var v: Int64 = 0
      for i in from..<(from + len) {
        let d = b[i] &- 48
        guard d < 10 else { return nil }
        v = v * 10 + Int64(d)
      }
      return v
    }
    guard let y = num(0, 4), let m = num(5, 2), let d = num(8, 2), let hh = num(11, 2),
      let mm = num(14, 2), let ss = num(17, 2), (1...12).contains(m), (1...31).contains(d)
    else { return nil }
    // Days from the civil date (proleptic Gregorian), after H. Hinnant's algorithm.
    let yy = m <= 2 ? y - 1 : y
    let era = (yy >= 0 ? yy : yy - 399) / 400
    let yoe = yy - era * 400
    let mp = (m + 9) % 12
    let doy = (153 * mp + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    return days * 86_400 + hh * 3600 + mm * 60 + ss
  }
}

/// The attributes of a SAX2 start-element callback: five pointers per attribute
/// (local name, prefix, URI, value start, value end).
struct RawAttributes: Sequence {
  let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  let count: Int

  func makeIterator() -> AnyIterator<RawAttribute> {
    var i = 0
    return AnyIterator {
      guard let base, i < count else { return nil }
      defer { i += 1 }
      let p = base + 5 * i
      guard let name = p[0], let start = p[3], let end = p[4] else { return nil }
      return RawAttribute(name: RawName(pointer: name), start: start, end: end)
    }
  }
}
