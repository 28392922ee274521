import Foundation
import TestSupport
import Testing

@testable import OSMReader

/// The scan that refuses over-large start tags before libxml2 sees them: whatever the chunks,
/// it finds what a plain byte-by-byte reading of the document finds.
@Suite("StartTagGuard")
struct StartTagGuardTests {
  /// What the guard found in `document`, read in chunks of the sizes `chunks` gives (cycled).
  func guarded(_ document: [UInt8], chunks: [Int]) -> OSMReaderError? {
    var scanner = StartTagGuard(path: "doc.osm")
    var at = 0
    var k = 0
    while at < document.count {
      let n = min(chunks[k % chunks.count], document.count - at)
      k += 1
      do {
        try document[at..<(at + n)].withUnsafeBytes { try scanner.scan($0) }
      } catch let error as OSMReaderError {
        return error
      } catch {
        Issue.record("unexpected error \(error)")
        return nil
      }
      at += n
    }
    return nil
  }

  /// The oracle: one byte at a time through the document, as the XML grammar reads it (start
  /// tags with quoted values, end tags, comments, CDATA, processing instructions,
  /// declarations), with the same limits.
  func reference(_ d: [UInt8], maxAttributes: Int, maxBytes: Int) -> OSMReaderError? {
    var line = 1
    var i = 0
    func starts(_ text: String, at p: Int) -> Bool {
      let t = Array(text.utf8)
      return p + t.count <= d.count && Array(d[p..<(p + t.count)]) == t
    }
    /// Skips to the end of `terminator` from `p`, counting lines; the end of the document when
    /// it never comes.
    func skip(to terminator: String, from p: Int) -> Int {
      var p = p
      while p < d.count && !starts(terminator, at: p) {
        if d[p] == UInt8(ascii: "\n") { line += 1 }
        p += 1
      }
      return min(d.count, p + terminator.utf8.count)
    }
    while i < d.count {
      let b = d[i]
      if b == UInt8(ascii: "\n") { line += 1 }
      guard b == UInt8(ascii: "<") else {
        i += 1
        continue
      }
      let tagLine = line
      if starts("</", at: i) {
        i = skip(to: ">", from: i + 2)
      } else if starts("<?", at: i) {
        i = skip(to: "?>", from: i + 2)
      } else if starts("<!--", at: i) {
        i = skip(to: "-->", from: i + 4)
      } else if starts("<![CDATA[", at: i) {
        i = skip(to: "]]>", from: i + 9)
      } else if starts("<!", at: i) {
        i = skip(to: ">", from: i + 2)
      } else {
        // A start tag: its name, then attributes outside quoted values.
        var name: [UInt8] = []
        var p = i + 1
        let ends = Array(" \t\n\r/>\"'=".utf8)
        while p < d.count, !ends.contains(d[p]) {
          if name.count < 64 { name.append(d[p]) }
          p += 1
        }
        var attributes = 0
        var quote: UInt8? = nil
        var closed = false
        func fault(_ reason: String) -> OSMReaderError {
          .elementTooLarge(
            path: "doc.osm", line: tagLine,
            element: name.isEmpty ? "?" : String(decoding: name, as: UTF8.self), reason: reason)
        }
        while p < d.count {
          let c = d[p]
          p += 1
          if c == UInt8(ascii: "\n") { line += 1 }
          if p - i > maxBytes {
            return fault("its start tag is over \(maxBytes) bytes (the limit)")
          }
          if let q = quote {
            if c == q { quote = nil }
          } else if c == UInt8(ascii: ">") {
            closed = true
          } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            quote = c
          } else if c == UInt8(ascii: "=") {
            attributes += 1
            if attributes > maxAttributes {
              return fault("more than \(maxAttributes) attributes (the limit per element)")
            }
          }
          if closed { break }
        }
        i = p
      }
    }
    return nil
  }

  /// A document of random markup: elements with quoted values that hold `>`, `=`, quotes of
  /// the other kind and new lines, end tags, comments, CDATA, processing instructions and
  /// declarations, and now and then an element with too many attributes or a long one.
  func document(_ rng: inout SplitMix64, maxAttributes: Int, maxBytes: Int) -> [UInt8] {
    var out = "<?xml version=\"1.0\"?>\n<osm>\n"
    let values = ["1", "a>b", "x=y", "it's", "\"q\"", "two\nlines", "<&lt;>", "", "]]>", "-->"]
    for _ in 0..<Int.random(in: 5...40, using: &rng) {
      switch Int.random(in: 0..<10, using: &rng) {
      case 0: out += "<!-- a comment with <tag a=\"1\"> and -- and \n a line -->"
      case 1: out += "<![CDATA[ <node a=b c=d> ]] ]]]>"
      case 2: out += "<?pi with ?> "
      case 3: out += "<!DOCTYPE osm>\n"
      case 4: out += "</node>\n  "
      default:
        let n = Int.random(in: 0...(maxAttributes + 2), using: &rng)
        var tag = "<node"
        for a in 0..<n {
          let v = values[Int.random(in: 0..<values.count, using: &rng)]
          let quote = v.contains("\"") ? "'" : "\""
          tag += (a % 3 == 0 ? "\n  " : " ") + "k\(a)=\(quote)\(v)\(quote)"
        }
        if Int.random(in: 0..<12, using: &rng) == 0 {
          // Half the byte limit, once or more: some such tags pass it.
          for _ in 0..<Int.random(in: 1...3, using: &rng) {
            tag += " long=\"" + String(repeating: "v", count: maxBytes / 2) + "\""
          }
        }
        out += tag + (Int.random(in: 0..<2, using: &rng) == 0 ? "/>\n" : ">\n")
      }
    }
    return Array((out + "</osm>\n").utf8)
  }

  @Test(
    "any chunking of random markup finds what a byte-by-byte reading finds",
    arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
  func chunkingsAgreeWithTheReference(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let (maxAttributes, maxBytes) = (OSMLimits.maxAttributesPerElement, OSMLimits.maxStartTagBytes)
    var faults = 0
    for _ in 0..<40 {
      let d = document(&rng, maxAttributes: maxAttributes, maxBytes: maxBytes)
      let expected = reference(d, maxAttributes: maxAttributes, maxBytes: maxBytes)
      if expected != nil { faults += 1 }
      for chunks in [[d.count], [1], [2, 3], [7], [Int.random(in: 1...64, using: &rng), 13]] {
        #expect(guarded(d, chunks: chunks) == expected, "seed \(seed), chunks \(chunks)")
      }
    }
    // The documents hold faults and clean ones alike: both ways are checked.
    #expect(faults > 0 && faults < 40, "seed \(seed): \(faults) of 40 documents with a fault")
  }
}
