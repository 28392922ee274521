/// Decides how the writer stores a text: split into two strings the record's components hold
/// anyway when it is exactly "A B" for two of them, whole otherwise.
struct TextSplitter {
  /// The texts a split may use.
  let parts: Set<String>

  /// The text's strings: one, or two to be joined by a space.
  func split(_ text: String) -> (String, String?) {
    guard !parts.isEmpty else { return (text, nil) }
    let utf8 = text.utf8
    var i = utf8.startIndex
    while let space = utf8[i...].firstIndex(of: UInt8(ascii: " ")) {
      let head = String(text[..<space])
      let tail = String(text[text.index(after: space)...])
      if parts.contains(head), parts.contains(tail) { return (head, tail) }
      i = utf8.index(after: space)
    }
    return (text, nil)
  }
}
