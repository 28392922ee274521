/// The three kinds of OSM element.
public enum OSMElementKind: UInt8, Sendable, Hashable, CaseIterable {
  case node = 0
  case way = 1
  case relation = 2

  /// The element's XML name: `node`, `way` or `relation`.
  public var xmlName: String {
    switch self {
    case .node: "node"
    case .way: "way"
    case .relation: "relation"
    }
  }

  /// The kind named by an OSM XML member `type` attribute.
  public init?(xmlName: String) {
    switch xmlName {
    case "node": self = .node
    case "way": self = .way
    case "relation": self = .relation
    default: return nil
    }
  }
}

/// One `<tag k=… v=…/>` of an element.
public struct OSMTag: Sendable, Hashable {
  /// The key, e.g. `amenity`.
  public var key: String
  /// The value, e.g. `restaurant`.
  public var value: String

  /// Creates a tag.
  public init(key: String, value: String) {
    self.key = key
    self.value = value
  }
}

/// A node: an id, a position in 1e-7 degrees, and its tags.
public struct OSMNode: Sendable {
  /// The OSM id.
  public var id: Int64
  /// Latitude in units of 1e-7 degrees.
  public var latitudeE7: Int32
  /// Longitude in units of 1e-7 degrees.
  public var longitudeE7: Int32
  /// The node's tags, in file order.
  public var tags: [OSMTag]
}

/// A way: an id, its node references in order, and its tags.
public struct OSMWay: Sendable {
  /// The OSM id.
  public var id: Int64
  /// The referenced node ids, in order.
  public var nodeRefs: [Int64]
  /// The way's tags, in file order.
  public var tags: [OSMTag]
}

/// One member of a relation.
public struct OSMMember: Sendable, Hashable {
  /// What the member is.
  public var kind: OSMElementKind
  /// The member's id.
  public var ref: Int64
  /// Its role, e.g. `outer`, `admin_centre`.
  public var role: String
}

/// A relation: an id, its members, and its tags.
public struct OSMRelation: Sendable {
  /// The OSM id.
  public var id: Int64
  /// The members, in order.
  public var members: [OSMMember]
  /// The relation's tags, in file order.
  public var tags: [OSMTag]
}

extension Array where Element == OSMTag {
  /// The value of the first tag with `key`, if any.
  public subscript(key key: String) -> String? {
    for tag in self where tag.key == key { return tag.value }
    return nil
  }
}
