// A text reference in a record is one varint v, then a second varint when v is odd:
//   v even: the text is string v >> 1
//   v odd:  the text is string v >> 1, a space, and string (next varint)
// so that "Kanalstrasse 18" is stored as the street and the number the index holds anyway.

/// A text stored as one string of STRINGS or as two joined by a space.
package struct TextRef: Sendable, Hashable {
  /// The string id of the text, or of its first part.
  package var first: Int
  /// The string id of the part after the space, if the text is two strings.
  package var second: Int?

  /// Creates a reference to `first`, or to `first` + " " + `second`.
  package init(_ first: Int, _ second: Int? = nil) {
    self.first = first
    self.second = second
  }
}

extension ByteReader {
  /// Reads a text reference whose string ids must be below `stringCount`.
  mutating func textRef(stringCount: Int) throws(IndexFormatError) -> TextRef {
    let at = offset
    let v = try varint()
    guard v >> 1 < UInt64(stringCount) else {
      throw fault("string id \(v >> 1) out of range (limit \(stringCount))", at: at)
    }
    if v & 1 == 0 { return TextRef(Int(v >> 1)) }
    return TextRef(Int(v >> 1), try varint(below: stringCount))
  }
}

extension ByteWriter {
  /// Appends a text reference.
  mutating func textRef(_ ref: TextRef) {
    varint(ref.first << 1 | (ref.second == nil ? 0 : 1))
    if let second = ref.second { varint(second) }
  }
}
