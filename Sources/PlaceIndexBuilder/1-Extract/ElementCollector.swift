import OSMReader
import PlaceIndexFormat

/// The extract stage: receives OSM elements from the reader, keeps node and way geometry in
/// temporary files (``NodeStore``, ``WayStore``), and collects the elements that can become
/// places (in another, ``CandidateStore``).
///
/// An id that comes twice within a kind (two extracts merged) is counted, and the later element
/// wins: its position, geometry and tags replace the earlier ones, and a later element that is
/// no candidate removes the earlier candidate. Elements out of id order are put back in order
/// after reading, so that the index does not depend on the order of the file.
final class ElementCollector: OSMElementHandler {
  /// Counts of what the stage saw and could not resolve.
  struct Counts: Sendable, Equatable {
    var missingNodeRefs = 0
    var missingWayMembers = 0
    var missingNodeMembers = 0
    var missingRelationMembers = 0
    var waysWithoutGeometry = 0
    /// Ids seen again within a kind (the later element is kept).
    var duplicateNodes = 0
    var duplicateWays = 0
    var duplicateRelations = 0
    /// Elements with negative ids (unsaved edits in editor files): used for geometry only.
    var negativeIDs = 0
  }

  private(set) var nodes: NodeStore!
  private(set) var ways: WayStore!
  /// The candidates, in the order read until ``finish()``, then one per (kind, id) in that
  /// order.
  private(set) var candidates: CandidateStore
  private(set) var areas: [AreaElement] = []
  /// Index in `areas` of each relation id.
  private var areaIndex: [Int64: Int] = [:]
  /// The member ways of administrative boundaries, and the points of those that do not close
  /// (``BoundaryWays``): where a cut extract leaves no ring, they tell the admin stage which
  /// boundaries an area shares its borders with.
  private(set) var boundaries: [BoundaryWays] = []
  private(set) var counts = Counts()
  /// Relation ids present, for counting relation members that are missing.
  private var relationIDs: Set<Int64> = []
  private var pendingRelationMembers: [Int64] = []
  /// The largest id read so far of each kind: an id at or below it may be a duplicate, and
  /// means the file is out of order.
  private var maxID: [Int64] = [.min, .min, .min]
  private var inOrder = true
  private var lastKind = 0

  init(budget: SpillBudget) throws {
    nodes = try NodeStore(budget)
    ways = try WayStore(budget)
    candidates = try CandidateStore(budget)
  }

  /// Notes an element's id; true when an element of its kind with this id may have come
  /// before (so the candidate table must be consulted).
  private func seen(_ kind: OSMElementKind, _ id: Int64) -> Bool {
    let k = Int(kind.rawValue)
    if k < lastKind { inOrder = false }
    lastKind = max(lastKind, k)
    if id > maxID[k] {
      maxID[k] = id
      return false
    }
    inOrder = false
    return true
  }

  /// Removes the candidate of (kind, id) read earlier, if any: a later element that is no
  /// candidate replaces it.
  private func dropEarlier(_ kind: OSMElementKind, _ id: Int64) {
    candidates.remove(kind: kind, id: id)
  }

  /// Whether tags make an element a place candidate.
  static func isCandidate(_ tags: [OSMTag]) -> Bool {
    var hasHousenumber = false
    var hasStreet = false
    for t in tags {
      switch t.key {
      case "name", "place", "brand": return true
      case "addr:housenumber", "addr:conscriptionnumber": hasHousenumber = true
      case "addr:street", "addr:place": hasStreet = true
      default: continue
      }
    }
    return hasHousenumber && hasStreet
  }

  /// Adds a candidate, replacing an earlier one with the same kind and id.
  private func add(_ e: ExtractedElement) throws {
    guard e.id >= 0 else {
      counts.negativeIDs += 1
      return
    }
    try candidates.append(e)
  }

  func handle(node: OSMNode) throws {
    try nodes.append(id: node.id, latitudeE7: node.latitudeE7, longitudeE7: node.longitudeE7)
    let again = seen(.node, node.id)
    if !node.tags.isEmpty, ElementCollector.isCandidate(node.tags) {
      try add(
        ExtractedElement(
          kind: .node, id: node.id, latitudeE7: node.latitudeE7, longitudeE7: node.longitudeE7,
          tags: PackedTags(node.tags), isArea: false))
    } else if again {
      dropEarlier(.node, node.id)
    }
  }

  func handle(way: OSMWay) throws {
    if !ways.isFrozen { try nodes.freeze() }
    let again = seen(.way, way.id)
    if again { dropEarlier(.way, way.id) }
    var points: [(Int32, Int32)] = []
    points.reserveCapacity(way.nodeRefs.count)
    for ref in way.nodeRefs {
      if let p = nodes.position(of: ref) { points.append(p) } else { counts.missingNodeRefs += 1 }
    }
    try ways.append(id: way.id, points: points)
    guard ElementCollector.isCandidate(way.tags) else { return }
    let closedRing = points.count >= 4 && points.first! == points.last!
    // An open way tagged as a boundary is a stretch of border ("Österreich — Liechtenstein"),
    // not a place; the area is its relation.
    if !closedRing, way.tags[key: "boundary"] != nil, way.tags[key: "place"] == nil { return }
    guard let point = Geometry.representativePoint(points) else {
      counts.waysWithoutGeometry += 1
      return
    }
    try add(
      ExtractedElement(
        kind: .way, id: way.id, latitudeE7: point.0, longitudeE7: point.1,
        tags: PackedTags(way.tags), isArea: closedRing, box: GeoBoxE7(around: points)))
  }

  func handle(relation: OSMRelation) throws {
    try nodes.freeze()
    try ways.freeze()
    if seen(.relation, relation.id) {
      dropEarlier(.relation, relation.id)
      if let i = areaIndex.removeValue(forKey: relation.id) { areas[i].rings = [] }
    }
    if !relationIDs.insert(relation.id).inserted { counts.duplicateRelations += 1 }
    let tags = PackedTags(relation.tags)
    let type = tags["type"] ?? ""
    let isAreaRelation = type == "multipolygon" || type == "boundary"
    var rings: [[(Int32, Int32)]] = []
    var labelPoint: (Int32, Int32)? = nil
    var memberPoints: [(Int32, Int32)] = []
    var outerWays: [[(Int32, Int32)]] = []
    var wayIDs: [Int64] = []
    for m in relation.members {
      switch m.kind {
      case .node:
        if let p = nodes.position(of: m.ref) {
          if m.role == "admin_centre" || m.role == "label" { labelPoint = labelPoint ?? p }
          memberPoints.append(p)
        } else {
          counts.missingNodeMembers += 1
        }
      case .way:
        if let pts = ways.points(of: m.ref), !pts.isEmpty {
          if isAreaRelation && m.role != "inner" { outerWays.append(pts) }
          wayIDs.append(m.ref)
          memberPoints.append(contentsOf: pts)
        } else {
          counts.missingWayMembers += 1
        }
      case .relation:
        if !relationIDs.contains(m.ref) { pendingRelationMembers.append(m.ref) }
      }
    }
    if isAreaRelation { rings = RingAssembler.rings(from: outerWays) }
    if isAreaRelation, tags["boundary"] == "administrative", !wayIDs.isEmpty {
      boundaries.append(
        BoundaryWays(
          id: relation.id, tags: tags.dictionary, wayIDs: wayIDs,
          openPoints: rings.isEmpty ? outerWays.flatMap { $0 } : []))
    }
    if isAreaRelation,
      tags["boundary"] == "administrative" || tags["place"] != nil
        || tags["boundary"] == "postal_code", !rings.isEmpty
    {
      areaIndex[relation.id] = areas.count
      areas.append(
        AreaElement(kind: .relation, id: relation.id, tags: tags.dictionary, rings: rings))
    }
    guard ElementCollector.isCandidate(relation.tags), isAreaRelation || tags["place"] != nil
    else { return }
    let point: (Int32, Int32)?
    if let labelPoint {
      point = labelPoint
    } else if let largest = rings.max(by: { $0.count < $1.count }),
      let c = Geometry.ringCentroid(largest)
    {
      point = c
    } else {
      point = Geometry.boundingBoxCenter(memberPoints)
    }
    guard let point else { return }
    try add(
      ExtractedElement(
        kind: .relation, id: relation.id, latitudeE7: point.0, longitudeE7: point.1, tags: tags,
        isArea: isAreaRelation,
        box: GeoBoxE7(around: rings.isEmpty ? memberPoints : rings.flatMap { $0 })))
  }

  /// The tags the admin stage reads of the candidates (``AdminResolver``: settlements and
  /// the `addr:*` majority cells).
  static let adminKeys: Set<String> = ["place", "name", "addr:country", "addr:city", "addr:state"]

  /// The candidates the admin stage reads, in order, with only the tags it reads
  /// (``adminKeys``): place nodes with a name, and elements with `addr:country`,
  /// `addr:city` or `addr:state`. (Only after ``finish()``.)
  func adminElements() -> [ExtractedElement] {
    var out: [ExtractedElement] = []
    for var e in candidates.elements {
      let tags = e.tags.keeping(ElementCollector.adminKeys)
      let settlement = e.kind == .node && tags["place"] != nil && tags["name"] != nil
      guard
        settlement || tags["addr:country"] != nil || tags["addr:city"] != nil
          || tags["addr:state"] != nil
      else { continue }
      e.tags = tags
      out.append(e)
    }
    return out
  }

  /// Counts what the extract lacked, then lets go of what only reading needed: node and way
  /// geometry and the element and relation ids.
  ///
  /// Candidates and areas replaced by a later element are dropped here, and when the file was
  /// out of order both are sorted by (kind, id): the order of a sorted file.
  func finish() throws {
    counts.missingRelationMembers =
      pendingRelationMembers.filter { !relationIDs.contains($0) }
      .count
    counts.duplicateNodes = nodes.duplicates
    counts.duplicateWays = ways.duplicates
    // The temporary files go with the stores.
    nodes = nil
    ways = nil
    try candidates.finish(inOrder: inOrder)
    areas.removeAll { $0.rings.isEmpty }
    if !inOrder { areas.sort { $0.id < $1.id } }
    areaIndex = [:]
    relationIDs = []
    pendingRelationMembers = []
  }
}
