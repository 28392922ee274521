import CLibXML2

/// Streams an OSM XML 0.6 extract (`.osm`, `.osm.gz`, `.osm.bz2`) through libxml2's SAX2 push
/// parser and hands each element to a handler.
///
/// Memory stays bounded by one element: the document is never built. Entity substitution,
/// DTD loading and network access are off; libxml2's default limits on depth and text size
/// stay on, so hostile input fails with an error instead of exhausting memory.
public final class OSMExtractReader {
  /// The extract's path.
  public let path: String
  /// Bytes read from the file per parser call.
  static let chunkSize = 1 << 20

  /// Creates a reader for the file at `path`; nothing is opened until ``read(into:progress:)``.
  public init(path: String) {
    self.path = path
  }

  /// Reads the whole extract, calling `handler` for each element in order.
  ///
  /// - Parameter progress: called now and then with the compressed bytes read and the total.
  /// - Throws: ``OSMReaderError`` for unreadable, corrupt or malformed input, or what the
  ///   handler threw.
  @discardableResult
  public func read(
    into handler: OSMElementHandler, progress: ((Int64, Int64) -> Void)? = nil
  ) throws -> OSMReadStatistics {
    let input = try ExtractInput(path: path)
    defer { input.close() }
    let state = SAXState(path: path, handler: handler)
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    sax.startElementNs = saxStartElement
    sax.endElementNs = saxEndElement
    sax.serror = saxStructuredError
    let unmanaged = Unmanaged.passRetained(state)
    defer { unmanaged.release() }
    guard
      let ctxt = xmlCreatePushParserCtxt(&sax, unmanaged.toOpaque(), nil, 0, path)
    else {
      throw OSMReaderError.cannotOpen(path: path, reason: "libxml2 could not create a parser")
    }
    defer { xmlFreeParserCtxt(ctxt) }
    state.context = ctxt
    // No NOENT (entities stay unexpanded), no DTDLOAD, no HUGE; NONET forbids fetching.
    xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue))

    // The extract is read (and decompressed) on a thread of its own, ahead of the parser.
    let prefetch = PrefetchingInput(input, chunkSize: Self.chunkSize)
    prefetch.start()
    defer { prefetch.stop() }
    while true {
      let (buffer, n, position) = try prefetch.next()
      state.stats.xmlBytes += Int64(n)
      let rc = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(n, 1)) {
        xmlParseChunk(ctxt, $0, Int32(n), n == 0 ? 1 : 0)
      }
      if let error = state.error { throw error }
      if rc != 0 {
        throw OSMReaderError.malformedXML(
          path: path, line: Int(xmlSAX2GetLineNumber(ctxt)),
          column: Int(xmlSAX2GetColumnNumber(ctxt)), message: "parser error \(rc)")
      }
      if n == 0 { break }
      progress?(min(position, input.compressedSize), input.compressedSize)
    }
    if !state.sawOSMRoot {
      throw OSMReaderError.notOSM(path: path, reason: "the root element is not <osm>")
    }
    return state.stats
  }
}
