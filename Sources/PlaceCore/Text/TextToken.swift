/// One searchable word of a text: its folded form and where it stands in the source.
public struct TextToken: Sendable, Hashable {
  /// The folded form (see ``TextNormalizer/fold(_:)``).
  public var text: String
  /// Offsets in Unicode scalars of the token in the source text, end exclusive.
  public var range: Range<Int>

  /// Creates a token.
  public init(text: String, range: Range<Int>) {
    self.text = text
    self.range = range
  }
}
