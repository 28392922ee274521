/// The limits on one element of an extract (docs/LIMITS.md, "Extracts"). OSM elements have a
/// handful of attributes and rarely more than a hundred tags; these bound the work and memory
/// one hostile element can cost.
public enum OSMLimits {
  /// Attributes on one XML element. Checked on the bytes before libxml2 sees the start tag, so
  /// that its duplicate-attribute check (quadratic in the count) never runs on more.
  public static let maxAttributesPerElement = 64
  /// Bytes of one XML start tag, from `<` to `>`. Checked on the bytes before libxml2 sees it.
  public static let maxStartTagBytes = 1 << 20
  /// Tags of one node, way or relation (XML `<tag>` children, PBF keys).
  public static let maxTagsPerElement = 10_000
}
