/// Receives the elements of an extract in file order.
///
/// A handler that throws stops the read; the error is rethrown by ``OSMExtractReader/read(into:progress:)``.
public protocol OSMElementHandler: AnyObject {
  /// Called for every node with a valid id and position.
  func handle(node: OSMNode) throws
  /// Called for every way with a valid id.
  func handle(way: OSMWay) throws
  /// Called for every relation with a valid id.
  func handle(relation: OSMRelation) throws
}

/// What a read saw: element counts, skipped elements, and the data's age.
public struct OSMReadStatistics: Sendable, Equatable {
  /// Nodes delivered.
  public var nodes = 0
  /// Ways delivered.
  public var ways = 0
  /// Relations delivered.
  public var relations = 0
  /// Elements skipped for a missing or invalid id or position.
  public var skippedElements = 0
  /// The first few reasons for skipped elements, with line numbers.
  public var warnings: [String] = []
  /// Uncompressed XML bytes parsed.
  public var xmlBytes: Int64 = 0
  /// Newest element `timestamp` seen, as seconds since 1970, or 0 when none carried one.
  public var newestTimestamp: Int64 = 0
  /// The `generator` attribute of the `<osm>` element, if any.
  public var generator: String = ""

  /// Creates empty statistics.
  public init() {}

  /// All elements delivered.
  public var elements: Int { nodes + ways + relations }
}
