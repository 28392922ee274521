#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans the XML bytes before libxml2 parses them and refuses a start tag with more than
/// ``OSMLimits/maxAttributesPerElement`` attributes or more than ``OSMLimits/maxStartTagBytes``
/// bytes, so that libxml2's duplicate-attribute check, which is quadratic in the number of
/// attributes, never runs on a hostile element.
///
/// A small state machine that survives chunk boundaries: text, the bytes after `<` that say
/// what follows, a start tag (attributes are counted as `=` outside quoted values), a quoted
/// value, and markup that is skipped to its terminator (comments, CDATA, processing
/// instructions, end tags, declarations). It counts lines, so the error names the line where
/// the start tag begins.
struct StartTagGuard {
  private enum State {
    case text
    /// After `<`: deciding what follows.
    case opening
    case startTag
    case quoted(UInt8)
    /// Skipping to `terminator` (matched bytes so far).
    case markup(terminator: [UInt8], matched: Int)
  }

  let path: String
  private var state = State.text
  private var line = 1
  private var opener: [UInt8] = []
  private var tagLine = 0
  private var tagBytes = 0
  private var attributes = 0
  private var name: [UInt8] = []
  private var nameDone = false

  init(path: String) { self.path = path }

  private func tooLarge(_ reason: String) -> OSMReaderError {
    let element = name.isEmpty ? "?" : String(decoding: name, as: UTF8.self)
    return .elementTooLarge(path: path, line: tagLine, element: element, reason: reason)
  }

  /// Scans the next `count` bytes of the document.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    let end = bytes.count
    var i = 0
    let maxBytes = OSMLimits.maxStartTagBytes
    let maxAttributes = OSMLimits.maxAttributesPerElement
    while i < end {
      switch state {
      case .text:
        // memchr to the next `<`, counting the lines in between.
        let rest = end - i
        let found = memchr(base + i, Int32(UInt8(ascii: "<")), rest)
        let stop = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
        line += Self.newlines(base + i, stop - i)
        if stop == end { return }
        i = stop + 1
        tagLine = line
        opener.removeAll(keepingCapacity: true)
        state = .opening
      case .opening:
        let b = base[i]
        if opener.isEmpty {
          if b == UInt8(ascii: "/") {
            state = .markup(terminator: [UInt8(ascii: ">")], matched: 0)
            i += 1
            continue
          }
          if b == UInt8(ascii: "?") {
            state = .markup(terminator: Array("?>".utf8), matched: 0)
            i += 1
            continue
          }
          if b != UInt8(ascii: "!") {
            state = .startTag
            tagBytes = 1
            attributes = 0
            name.removeAll(keepingCapacity: true)
            nameDone = false
            continue  // the byte is the name's first
          }
        }
        opener.append(b)
        i += 1
        if b == UInt8(ascii: "\n") { line += 1 }
        let comment = Array("!--".utf8)
        let cdata = Array("![CDATA[".utf8)
        if opener == comment {
          state = .markup(terminator: Array("-->".utf8), matched: 0)
        } else if opener == cdata {
          state = .markup(terminator: Array("]]>".utf8), matched: 0)
        } else if !comment.starts(with: opener) && !cdata.starts(with: opener) {
          // A declaration (<!DOCTYPE, <!ENTITY…): to its `>`.
          state =
            b == UInt8(ascii: ">") ? .text : .markup(terminator: [UInt8(ascii: ">")], matched: 0)
        }
      case .startTag:
        while i < end {
          let b = base[i]
          i += 1
          tagBytes += 1
          if !nameDone {
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n")
              || b == UInt8(ascii: "\r") || b == UInt8(ascii: "/") || b == UInt8(ascii: ">")
            {
              nameDone = true
            } else if name.count < 64 {
              name.append(b)
            }
          }
          if b == UInt8(ascii: ">") {
            state = .text
            break
          } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
            state = .quoted(b)
            break
          } else if b == UInt8(ascii: "=") {
            attributes += 1
            if attributes > maxAttributes {
              throw tooLarge("more than \(maxAttributes) attributes (the limit per element)")
            }
          } else if b == UInt8(ascii: "\n") {
            line += 1
          }
          if tagBytes > maxBytes {
            throw tooLarge("its start tag is over \(maxBytes) bytes (the limit)")
          }
        }
      case .quoted(let quote):
        let rest = end - i
        let found = memchr(base + i, Int32(quote), rest)
        let stop = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
        line += Self.newlines(base + i, stop - i)
        tagBytes += stop - i
        if tagBytes > maxBytes {
          throw tooLarge("its start tag is over \(maxBytes) bytes (the limit)")
        }
        if stop == end { return }
        tagBytes += 1
        i = stop + 1
        state = .startTag
      case .markup(let terminator, var matched):
        while i < end {
          let b = base[i]
          i += 1
          if b == UInt8(ascii: "\n") { line += 1 }
          if b == terminator[matched] {
            matched += 1
            if matched == terminator.count { break }
          } else if matched >= 2 && terminator[0] == terminator[1] && b == terminator[0] {
            matched = 2  // `]]]>`, `--->`: the last two bytes still match
          } else {
            matched = b == terminator[0] ? 1 : 0
          }
        }
        state =
          matched == terminator.count ? .text : .markup(terminator: terminator, matched: matched)
      }
    }
  }

  /// Newlines in `count` bytes at `p`.
  private static func newlines(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
    var n = 0
    var at = UnsafeRawPointer(p)
    var left = count
    while left > 0, let hit = memchr(at, Int32(UInt8(ascii: "\n")), left) {
      n += 1
      let next = UnsafeRawPointer(hit) + 1
      left -= next - at
      at = next
    }
    return n
  }
}
