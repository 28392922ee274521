import CLibXML2

/// Streams an OSM extract and hands each element to a handler: OSM XML 0.6 (`.osm`, `.osm.gz`,
/// `.osm.bz2`) through libxml2's SAX2 push parser, or OSM PBF (`.osm.pbf`) through
/// ``PBFReader``, as the first bytes say. The path may be a file, a FIFO, `/dev/stdin`, or `-`
/// for standard input: the input is read once, front to back, never rewound or measured.
///
/// Memory stays bounded by one element: the document is never built. Entity substitution,
/// DTD loading and network access are off; libxml2's default limits on depth and text size
/// stay on, so hostile input fails with an error instead of exhausting memory.
public final class OSMExtractReader {
  /// The extract's path.
  public let path: String
  /// Bytes read from the file per parser call.
  static let chunkSize = 1 << 20

  /// Creates a reader for the file at `path` (`-` for standard input); nothing is opened until
  /// ``read(into:progress:)``.
  public init(path: String) {
    self.path = path
  }

  /// Reads the whole extract, calling `handler` for each element in order.
  ///
  /// - Parameter progress: called now and then with the compressed bytes read and the total
  ///   (0 when the input is a pipe, whose size is not known).
  /// - Throws: ``OSMReaderError`` for unreadable, corrupt or malformed input, or what the
  ///   handler threw.
  @discardableResult
  public func read(
    into handler: OSMElementHandler, progress: ((Int64, Int64) -> Void)? = nil
  ) throws -> OSMReadStatistics {
    let input = try ExtractInput(path: path)
    defer { input.close() }
    if input.format == .pbf {
      return try PBFReader(input: input).read(into: handler, progress: progress)
    }
    let name = input.displayPath
    let state = SAXState(path: name, handler: handler)
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    sax.startElementNs = saxStartElement
    sax.endElementNs = saxEndElement
    sax.serror = saxStructuredError
    let unmanaged = Unmanaged.passRetained(state)
    defer { unmanaged.release() }
    guard
      let ctxt = xmlCreatePushParserCtxt(&sax, unmanaged.toOpaque(), nil, 0, name)
    else {
      throw OSMReaderError.cannotOpen(path: name, reason: "libxml2 could not create a parser")
    }
    defer { xmlFreeParserCtxt(ctxt) }
    state.context = ctxt
    // Errors libxml2 raises without a parser context (encoding conversion, I/O) go to the
    // thread's structured handler, never to stderr; the reader reports them with the file and line.
    placeindex_xml_silence_generic_errors()
    xmlSetStructuredErrorFunc(unmanaged.toOpaque(), saxStructuredError)
    defer { xmlSetStructuredErrorFunc(nil, nil) }
    // No NOENT (entities stay unexpanded), no DTDLOAD, no HUGE; NONET forbids fetching.
    xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue))

    // The extract is read (and decompressed) on a thread of its own, ahead of the parser; that
    // thread also refuses over-large start tags before libxml2 sees them.
    let prefetch = PrefetchingInput(input, chunkSize: Self.chunkSize, guardingStartTags: true)
    prefetch.start()
    defer { prefetch.stop() }
    while true {
      let (buffer, n, position) = try prefetch.next()
      state.stats.xmlBytes += Int64(n)
      let rc = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(n, 1)) {
        xmlParseChunk(ctxt, $0, Int32(n), n == 0 ? 1 : 0)
      }
      // An input that ends before its first element (empty, blank, only a prolog) is not a
      // malformed document but no document at all.
      if n == 0 && !state.sawElement && (rc != 0 || state.error != nil) {
        if case .elementTooLarge = state.error as? OSMReaderError {
        } else {
          throw OSMReaderError.noData(path: name)
        }
      }
      if let error = state.error { throw error }
      if rc != 0, let message = state.encodingMessage {
        throw OSMReaderError.malformedXML(
          path: name, line: Int(xmlSAX2GetLineNumber(ctxt)),
          column: Int(xmlSAX2GetColumnNumber(ctxt)),
          message: "the text cannot be decoded in its declared encoding (\(message))")
      }
      if rc != 0 {
        throw OSMReaderError.malformedXML(
          path: name, line: Int(xmlSAX2GetLineNumber(ctxt)),
          column: Int(xmlSAX2GetColumnNumber(ctxt)), message: "parser error \(rc)")
      }
      if n == 0 { break }
      progress?(
        input.compressedSize > 0 ? min(position, input.compressedSize) : position,
        input.compressedSize)
    }
    if !state.sawOSMRoot {
      throw OSMReaderError.notOSM(path: name, reason: "the root element is not <osm>")
    }
    return state.stats
  }
}
