import OSMReader

/// The extract stage: receives OSM elements from the reader, keeps node and way geometry in
/// compact stores, and collects the elements that can become places.
final class ElementCollector: OSMElementHandler {
  /// Counts of what the stage saw and could not resolve.
  struct Counts: Sendable, Equatable {
    var missingNodeRefs = 0
    var missingWayMembers = 0
    var missingNodeMembers = 0
    var missingRelationMembers = 0
    var waysWithoutGeometry = 0
    var duplicateNodes = 0
    /// Elements seen again under an id already used (the later one is kept).
    var duplicateElements = 0
    /// Elements with negative ids (unsaved edits in editor files): used for geometry only.
    var negativeIDs = 0
  }

  let nodes = NodeStore()
  let ways = WayStore()
  private(set) var elements: [ExtractedElement] = []
  /// Index in `elements` of each (kind, id), to keep one place per element.
  private var elementIndex: [Int64: Int] = [:]
  private(set) var areas: [AreaElement] = []
  private(set) var counts = Counts()
  /// Relation ids present, for counting relation members that are missing.
  private var relationIDs: Set<Int64> = []
  private var pendingRelationMembers: [Int64] = []

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
  private func add(_ e: ExtractedElement) {
    guard e.id >= 0 else {
      counts.negativeIDs += 1
      return
    }
    let key = e.id << 2 | Int64(e.kind.rawValue)
    if let i = elementIndex[key] {
      counts.duplicateElements += 1
      elements[i] = e
    } else {
      elementIndex[key] = elements.count
      elements.append(e)
    }
  }

  func handle(node: OSMNode) throws {
    nodes.append(id: node.id, latitudeE7: node.latitudeE7, longitudeE7: node.longitudeE7)
    if !node.tags.isEmpty, ElementCollector.isCandidate(node.tags) {
      add(
        ExtractedElement(
          kind: .node, id: node.id, latitudeE7: node.latitudeE7, longitudeE7: node.longitudeE7,
          tags: PackedTags(node.tags), isArea: false))
    }
  }

  func handle(way: OSMWay) throws {
    var points: [(Int32, Int32)] = []
    points.reserveCapacity(way.nodeRefs.count)
    for ref in way.nodeRefs {
      if let p = nodes.position(of: ref) { points.append(p) } else { counts.missingNodeRefs += 1 }
    }
    ways.append(id: way.id, points: points)
    guard ElementCollector.isCandidate(way.tags) else { return }
    let closedRing = points.count >= 4 && points.first! == points.last!
    // An open way tagged as a boundary is a stretch of border ("Österreich — Liechtenstein"),
    // not a place; the area is its relation.
    if !closedRing, way.tags[key: "boundary"] != nil, way.tags[key: "place"] == nil { return }
    guard let point = Geometry.representativePoint(points) else {
      counts.waysWithoutGeometry += 1
      return
    }
    add(
      ExtractedElement(
        kind: .way, id: way.id, latitudeE7: point.0, longitudeE7: point.1,
        tags: PackedTags(way.tags), isArea: closedRing))
  }

  func handle(relation: OSMRelation) throws {
    relationIDs.insert(relation.id)
    let tags = PackedTags(relation.tags)
    let type = tags["type"] ?? ""
    let isAreaRelation = type == "multipolygon" || type == "boundary"
    var rings: [[(Int32, Int32)]] = []
    var labelPoint: (Int32, Int32)? = nil
    var memberPoints: [(Int32, Int32)] = []
    var outerWays: [[(Int32, Int32)]] = []
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
          memberPoints.append(contentsOf: pts)
        } else {
          counts.missingWayMembers += 1
        }
      case .relation:
        if !relationIDs.contains(m.ref) { pendingRelationMembers.append(m.ref) }
      }
    }
    if isAreaRelation { rings = RingAssembler.rings(from: outerWays) }
    if isAreaRelation,
      tags["boundary"] == "administrative" || tags["place"] != nil
        || tags["boundary"] == "postal_code", !rings.isEmpty
    {
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
    add(
      ExtractedElement(
        kind: .relation, id: relation.id, latitudeE7: point.0, longitudeE7: point.1, tags: tags,
        isArea: isAreaRelation))
  }

  /// Hands over the collected elements, keeping none: their only copy can then be let go of
  /// piece by piece.
  func takeElements() -> [ExtractedElement] {
    defer { elements = [] }
    return elements
  }

  /// Counts what the extract lacked, then lets go of what only reading needed: node and way
  /// geometry and the element and relation ids.
  func finish() {
    counts.missingRelationMembers =
      pendingRelationMembers.filter { !relationIDs.contains($0) }
      .count
    counts.duplicateNodes = nodes.duplicates
    nodes.release()
    ways.release()
    elementIndex = [:]
    relationIDs = []
    pendingRelationMembers = []
  }
}
