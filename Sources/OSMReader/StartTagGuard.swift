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
  private enum State: UInt8 {
    case text
    /// After `<`: deciding what follows.
    case opening
    case startTag
    /// Inside a quoted value (its quote is ``quote``).
    case quoted
    /// Skipping an end tag to its `>`.
    case endTag
    /// Skipping to ``terminator`` (``matched`` bytes of it so far).
    case markup
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
  private var quote: UInt8 = 0
  private var terminator: [UInt8] = []
  private var matched = 0

  init(path: String) { self.path = path }

  private func tooLarge(_ reason: String) -> OSMReaderError {
    let element = name.isEmpty ? "?" : String(decoding: name, as: UTF8.self)
    return .elementTooLarge(path: path, line: tagLine, element: element, reason: reason)
  }

  /// Starts skipping markup to `end`.
  private mutating func skip(to end: String) {
    terminator = Array(end.utf8)
    matched = 0
  }

  /// Scans the next `count` bytes of the document. The state that changes with every tag
  /// lives in locals while a chunk is scanned (written back when it ends), so that the loop
  /// keeps it in registers.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    let end = bytes.count
    var i = 0
    let maxBytes = OSMLimits.maxStartTagBytes
    let maxAttributes = OSMLimits.maxAttributesPerElement
    let classes = startTagByteClasses
    var state = self.state
    var line = self.line
    var tagBytes = self.tagBytes
    var attributes = self.attributes
    var quote = self.quote
    defer {
      self.state = state
      self.line = line
      self.tagBytes = tagBytes
      self.attributes = attributes
      self.quote = quote
    }
    /// The position of the next `byte` from `i` (or `end`), counting the lines before it.
    func find(_ byte: UInt8) -> Int {
      let found = memchr(base + i, Int32(byte), end - i)
      let stop = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
      line += Self.newlines(base + i, stop - i)
      return stop
    }
    while i < end {
      switch state {
      case .text:
        // Text and end tags inline, to the next start tag (or other markup).
        let stop = find(UInt8(ascii: "<"))
        if stop == end { return }
        i = stop + 1
        tagLine = line
        guard i < end else {
          opener.removeAll(keepingCapacity: true)
          state = .opening
          return
        }
        let b = base[i]
        if b == UInt8(ascii: "/") {
          i += 1
          let close = find(UInt8(ascii: ">"))
          if close == end {
            state = .endTag
            return
          }
          i = close + 1
          continue
        }
        if b == UInt8(ascii: "?") || b == UInt8(ascii: "!") {
          opener.removeAll(keepingCapacity: true)
          state = .opening
          continue
        }
        // A start tag: its name's first byte is at `i`.
        tagBytes = 1
        attributes = 0
        name.removeAll(keepingCapacity: true)
        nameDone = false
        state = .startTag
        fallthrough
      case .startTag:
        // The name, up to the first byte that ends it (kept for the error, at most 64 bytes).
        if !nameDone {
          let start = i
          while i < end, classes[Int(base[i])] & Self.endsName == 0 { i += 1 }
          let keep = min(64 - name.count, i - start)
          if keep > 0 {
            name.append(contentsOf: UnsafeBufferPointer(start: base + start, count: keep))
          }
          tagBytes += i - start
          if i == end {
            if tagBytes > maxBytes {
              throw tooLarge("its start tag is over \(maxBytes) bytes (the limit)")
            }
            return
          }
          nameDone = true
        }
        // The attributes: only `>`, quotes, `=` and new lines change anything; quoted values
        // are skipped inline.
        while true {
          let from = i
          var special: UInt8 = 0
          while i < end {
            special = classes[Int(base[i])] & Self.special
            i += 1
            if special != 0 { break }
          }
          tagBytes += i - from
          if tagBytes > maxBytes {
            throw tooLarge("its start tag is over \(maxBytes) bytes (the limit)")
          }
          if special == 0 { return }
          let b = base[i - 1]
          if b == UInt8(ascii: ">") {
            state = .text
            break
          } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
            let stop = find(b)
            tagBytes += stop - i
            if tagBytes > maxBytes {
              throw tooLarge("its start tag is over \(maxBytes) bytes (the limit)")
            }
            if stop == end {
              quote = b
              state = .quoted
              return
            }
            tagBytes += 1
            i = stop + 1
          } else if b == UInt8(ascii: "=") {
            attributes += 1
            if attributes > maxAttributes {
              throw tooLarge("more than \(maxAttributes) attributes (the limit per element)")
            }
          } else {
            line += 1
          }
        }
      case .opening:
        let b = base[i]
        if opener.isEmpty {
          if b == UInt8(ascii: "/") {
            state = .endTag
            i += 1
            continue
          }
          if b == UInt8(ascii: "?") {
            skip(to: "?>")
            state = .markup
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
          skip(to: "-->")
          state = .markup
        } else if opener == cdata {
          skip(to: "]]>")
          state = .markup
        } else if !comment.starts(with: opener) && !cdata.starts(with: opener) {
          // A declaration (<!DOCTYPE, <!ENTITY…): to its `>`.
          if b == UInt8(ascii: ">") {
            state = .text
          } else {
            skip(to: ">")
            state = .markup
          }
        }
      case .quoted:
        let stop = find(quote)
        tagBytes += stop - i
        if tagBytes > maxBytes {
          throw tooLarge("its start tag is over \(maxBytes) bytes (the limit)")
        }
        if stop == end { return }
        tagBytes += 1
        i = stop + 1
        state = .startTag
      case .endTag:
        let stop = find(UInt8(ascii: ">"))
        if stop == end { return }
        i = stop + 1
        state = .text
      case .markup:
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
        if matched == terminator.count { state = .text }
      }
    }
  }

  /// A byte class: it ends an element's name (white space, `/`, `>`, and the bytes that
  /// matter after it: quotes, `=`).
  static let endsName: UInt8 = 1
  /// A byte class: it matters in a start tag outside quoted values (`>`, quotes, `=`, new line).
  static let special: UInt8 = 2

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

/// ``StartTagGuard``'s byte classes, by byte value (allocated once, never freed, never written
/// after: `nonisolated(unsafe)` only because a pointer is not `Sendable`).
nonisolated(unsafe) private let startTagByteClasses: UnsafePointer<UInt8> = {
  let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  table.initialize(repeating: 0, count: 256)
  for b in " \t\n\r/>\"'=".utf8 { table[Int(b)] |= StartTagGuard.endsName }
  for b in ">\"'=\n".utf8 { table[Int(b)] |= StartTagGuard.special }
  return UnsafePointer(table)
}()
