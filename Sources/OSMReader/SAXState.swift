import CLibXML2

/// The parser's per-read state, reached from libxml2's C callbacks through the user-data pointer.
final class SAXState {
  let path: String
  let handler: OSMElementHandler
  var context: xmlParserCtxtPtr?
  var stats = OSMReadStatistics()
  var error: Error?
  var sawOSMRoot = false
  /// Whether any start tag was parsed (an input without one is "no OSM data").
  var sawElement = false
  /// The first encoding-conversion error libxml2 raised, if any.
  var encodingMessage: String?
  /// Line of the current node/way/relation's start tag.
  var currentLine = 0
  var depth = 0

  // The element being assembled.
  var current: OSMElementKind?
  var currentDepth = 0
  var currentValid = false
  var id: Int64 = 0
  var latitudeE7: Int32 = 0
  var longitudeE7: Int32 = 0
  var tags: [OSMTag] = []
  var refs: [Int64] = []
  var members: [OSMMember] = []

  init(path: String, handler: OSMElementHandler) {
    self.path = path
    self.handler = handler
    tags.reserveCapacity(32)
    refs.reserveCapacity(2048)
  }

  /// The current line, for warnings.
  var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

  /// Records a skipped element.
  func warn(_ message: String) {
    stats.skippedElements += 1
    if stats.warnings.count < 20 {
      stats.warnings.append("\(path):\(line): \(message)")
    }
  }

  /// Records a problem inside an element that is still delivered.
  func note(_ message: String) {
    if stats.warnings.count < 20 { stats.warnings.append("\(path):\(line): \(message)") }
  }

  /// Stops the parse with `error`.
  func fail(_ error: Error) {
    if self.error == nil { self.error = error }
    if let context { xmlStopParser(context) }
  }

  /// Deepest element nesting accepted; OSM XML needs 3. libxml2's own limit is not enforced by
  /// its push parser in 2.9, so hostile nesting is stopped here.
  static let maxDepth = 256

  func start(name: RawName, attributes: RawAttributes) {
    depth += 1
    sawElement = true
    if error != nil { return }
    if depth > SAXState.maxDepth {
      fail(
        OSMReaderError.malformedXML(
          path: path, line: line, column: context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 0,
          message: "elements nested deeper than \(SAXState.maxDepth) levels"))
      return
    }
    if let kind = current {
      // Children of node/way/relation.
      guard depth == currentDepth + 1 else { return }
      if name.equals("tag") {
        var k: String? = nil
        var v: String? = nil
        for a in attributes {
          if a.name.equals("k") { k = a.string } else if a.name.equals("v") { v = a.string }
        }
        if let k, let v {
          guard tags.count < OSMLimits.maxTagsPerElement else {
            fail(
              OSMReaderError.elementTooLarge(
                path: path, line: currentLine, element: kind.xmlName,
                reason:
                  "more than \(OSMLimits.maxTagsPerElement) tags (the limit per element; id \(id))"
              ))
            return
          }
          tags.append(OSMTag(key: k, value: v))
        }
      } else if name.equals("nd"), kind == .way {
        for a in attributes where a.name.equals("ref") {
          if let r = a.integer {
            refs.append(r)
          } else {
            note("way \(id): <nd> without a valid ref")
          }
        }
      } else if name.equals("member"), kind == .relation {
        var type: OSMElementKind? = nil
        var ref: Int64? = nil
        var role = ""
        for a in attributes {
          if a.name.equals("type") {
            type = OSMElementKind(xmlName: a.string)
          } else if a.name.equals("ref") {
            ref = a.integer
          } else if a.name.equals("role") {
            role = a.string
          }
        }
        if let type, let ref { members.append(OSMMember(kind: type, ref: ref, role: role)) }
      }
      return
    }
    if depth == 1 {
      if name.equals("osm") {
        sawOSMRoot = true
        for a in attributes where a.name.equals("generator") { stats.generator = a.string }
      } else {
        fail(OSMReaderError.notOSM(path: path, reason: "the root element is <\(name.string)>"))
      }
      return
    }
    guard depth == 2 else { return }
    let kind: OSMElementKind
    if name.equals("node") {
      kind = .node
    } else if name.equals("way") {
      kind = .way
    } else if name.equals("relation") {
      kind = .relation
    } else {
      return
    }
    current = kind
    currentDepth = depth
    currentLine = line
    tags.removeAll(keepingCapacity: true)
    refs.removeAll(keepingCapacity: true)
    members.removeAll(keepingCapacity: true)
    var haveID = false
    var haveLat = false
    var haveLon = false
    currentValid = true
    for a in attributes {
      if a.name.equals("id") {
        if let v = a.integer {
          id = v
          haveID = true
        }
      } else if kind == .node, a.name.equals("lat") {
        if let v = a.fixedE7, abs(v) <= 900_000_000 {
          latitudeE7 = Int32(v)
          haveLat = true
        }
      } else if kind == .node, a.name.equals("lon") {
        if let v = a.fixedE7, abs(v) <= 1_800_000_000 {
          longitudeE7 = Int32(v)
          haveLon = true
        }
      } else if a.name.equals("timestamp") {
        if let t = a.timestamp, t > stats.newestTimestamp { stats.newestTimestamp = t }
      }
    }
    if !haveID {
      warn("<\(name.string)> without a valid id")
      currentValid = false
    } else if kind == .node && !(haveLat && haveLon) {
      warn("node \(id): missing or out-of-range lat/lon")
      currentValid = false
    }
  }

  func end() {
    defer { depth -= 1 }
    guard error == nil, let kind = current, depth == currentDepth else { return }
    current = nil
    guard currentValid else { return }
    do {
      switch kind {
      case .node:
        stats.nodes += 1
        try handler.handle(
          node: OSMNode(id: id, latitudeE7: latitudeE7, longitudeE7: longitudeE7, tags: tags))
      case .way:
        stats.ways += 1
        try handler.handle(way: OSMWay(id: id, nodeRefs: refs, tags: tags))
      case .relation:
        stats.relations += 1
        try handler.handle(relation: OSMRelation(id: id, members: members, tags: tags))
      }
    } catch {
      fail(error)
    }
  }

  func structuredError(_ err: xmlErrorPtr) {
    let e = err.pointee
    // Warnings (level 1) do not stop the parse.
    guard e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    var message = e.message.map { String(cString: $0) } ?? "error \(e.code)"
    while message.last?.isWhitespace == true { message.removeLast() }
    message = message.split(separator: "\n").joined(separator: " ")
    let known = e.line > 0
    if e.domain == Int32(XML_FROM_I18N.rawValue) || e.domain == Int32(XML_FROM_IO.rawValue) {
      // Raised in the middle of converting the input, before the parser reached the bytes (so
      // without their line): kept until the chunk's return code stops the read, which then
      // reports it at the parser's line. The parser is not stopped here: xmlStopParser frees
      // the input that the conversion is still using.
      if encodingMessage == nil { encodingMessage = message }
      return
    }
    fail(
      OSMReaderError.malformedXML(
        path: path, line: known ? Int(e.line) : line,
        column: known ? Int(e.int2) : context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 0,
        message: message))
  }
}

// MARK: - C callbacks

func saxState(_ ctx: UnsafeMutableRawPointer?) -> SAXState? {
  guard let ctx else { return nil }
  return Unmanaged<SAXState>.fromOpaque(ctx).takeUnretainedValue()
}

let saxStartElement: startElementNsSAX2Func = {
  ctx, localname, _, _, _, _, nbAttributes, _, attributes in
  guard let state = saxState(ctx), let localname else { return }
  state.start(
    name: RawName(pointer: localname),
    attributes: RawAttributes(base: attributes, count: Int(nbAttributes)))
}

let saxEndElement: endElementNsSAX2Func = { ctx, _, _, _ in
  saxState(ctx)?.end()
}

let saxStructuredError: xmlStructuredErrorFunc = { ctx, error in
  guard let error else { return }
  saxState(ctx)?.structuredError(error)
}
