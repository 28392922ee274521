// The bodies of the fuzz targets. This file is compiled twice: by the Fuzz package (with
// libFuzzer and AddressSanitizer) and by the main package's ReliabilityTests target, through the
// symlink Tests/ReliabilityTests/FuzzHarness.swift, so that every checked-in crashing input
// replays in `make test` exactly as the fuzzer ran it.
//
// A body returns normally for every input. A crash, an out-of-bounds read, an untyped error
// where the API promises a typed one, or an index the builder wrote that then fails its own
// checks stops the process (`fatalError`), which libFuzzer reports as a crash.
import Foundation
import PlaceCore
@_spi(Testing) @_spi(Fuzz) import PlaceIndex
import PlaceIndexBuilder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fuzz targets' bodies and the fixtures they share.
public enum FuzzHarness {
  // MARK: Fixtures

  /// The repository root: `PLACEINDEX_ROOT`, else the folder above this file that holds
  /// `Data/sample.osm`, else the current folder.
  public static let repositoryRoot: String = {
    let fm = FileManager.default
    if let env = ProcessInfo.processInfo.environment["PLACEINDEX_ROOT"], !env.isEmpty {
      return env
    }
    var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    for _ in 0..<6 {
      if fm.fileExists(atPath: dir.appendingPathComponent("Data/sample.osm").path) {
        return dir.path
      }
      dir.deleteLastPathComponent()
    }
    return fm.currentDirectoryPath
  }()

  /// The project's sample extract.
  public static var sampleExtractPath: String { repositoryRoot + "/Data/sample.osm" }

  /// A folder of this process for scratch files (in memory under /dev/shm when it exists);
  /// removed when the process exits normally, and by the next process when it crashed.
  public static let workDirectory: String = {
    let fm = FileManager.default
    let base = fm.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let prefix = "placeindex-fuzz-"
    for entry in (try? fm.contentsOfDirectory(atPath: base)) ?? [] where entry.hasPrefix(prefix) {
      if let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0 {
        try? fm.removeItem(atPath: (base as NSString).appendingPathComponent(entry))
      }
    }
    let dir = (base as NSString).appendingPathComponent(prefix + "\(getpid())")
    try? fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: FuzzHarness.workDirectory) }
    return dir
  }()

  /// A fresh, empty folder inside ``workDirectory``.
  public static func scratchDirectory() -> String {
    let dir = (workDirectory as NSString).appendingPathComponent(UUID().uuidString)
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// The data tables (Data/*.tsv), loaded once.
  public static let tables: BuildTables = {
    do {
      return try BuildTables(directory: repositoryRoot + "/Data")
    } catch {
      fatalError("FuzzHarness: cannot load the data tables: \(error)")
    }
  }()

  /// The sample index, built once per process from Data/sample.osm.
  public static let sampleIndexPath: String = {
    let path = (workDirectory as NSString).appendingPathComponent("sample.placeidx")
    do {
      _ = try IndexBuilder(tables: tables).build(
        IndexBuilder.Options(extract: sampleExtractPath, output: path))
    } catch {
      fatalError("FuzzHarness: cannot build the sample index: \(error)")
    }
    return path
  }()

  /// The bytes of the sample index.
  public static let sampleIndexBytes: [UInt8] = {
    guard let data = FileManager.default.contents(atPath: sampleIndexPath) else {
      fatalError("FuzzHarness: cannot read \(sampleIndexPath)")
    }
    return [UInt8](data)
  }()

  /// A client over the sample index, shared by every request.
  public static let sampleClient: PlacesClient = {
    do {
      return try PlacesClient(indexPaths: [sampleIndexPath])
    } catch {
      fatalError("FuzzHarness: cannot open the sample index: \(error)")
    }
  }()

  // MARK: Index reader

  /// What an index did when probed: where it failed, and every answer it gave.
  public struct IndexProbe: Sendable {
    /// The error from opening (header, section table, section headers), if any.
    public var openError: PlacesError?
    /// The error from `verify()`, if any.
    public var verifyError: PlacesError?
    /// The response or error of every probe request and details request, in order.
    public var answers: [String] = []

    /// Whether the index opened.
    public var opened: Bool { openError == nil }
  }

  /// The fuzz target body: `data` as an index file opened without the checksum check (so that
  /// mutations reach the section decoders as they are), then the same bytes with the header
  /// and every checksum made consistent, opened with it (the default of every reader).
  public static func indexReader(_ data: [UInt8]) {
    _ = probeIndex(data, verification: .skip)
    if let repaired = repairingChecksums(data), repaired != data {
      _ = probeIndex(repaired)
    }
  }

  /// Opens `bytes` as an index (checking the section checksums unless `verification` is
  /// `.skip`), verifies it, and runs the probe requests and details requests on it whether or
  /// not it verified. Errors must be typed; anything else stops the process.
  public static func probeIndex(
    _ bytes: [UInt8], path: String = "fuzz.placeidx",
    verification: IndexVerification = .checksums
  ) -> IndexProbe {
    var probe = IndexProbe()
    let loaded: LoadedIndex
    do throws(PlacesError) {
      loaded = try LoadedIndex(copying: bytes, path: path, verification: verification)
    } catch {
      probe.openError = error
      return probe
    }
    do {
      try loaded.verify()
    } catch {
      probe.verifyError = error
    }
    let client = PlacesClient(indexes: [loaded])
    for request in probeRequests + tokenRequests(loaded) {
      do {
        let suggestions = try client.autocompleteSuggestions(for: request)
        probe.answers.append(PlacesJSONProtocol.encodeResponse(suggestions))
      } catch {
        probe.answers.append(PlacesJSONProtocol.encodeError(error))
      }
    }
    var ids = ["N1", "W7200012", "R7300001"]
    let count = loaded.placeCount
    for rank in Array(Set([0, count / 2, count - 1])).sorted() where rank >= 0 && rank < count {
      if let id = try? loaded.placeIDForTesting(rank: rank) { ids.append(id) }
    }
    for (i, id) in ids.enumerated() {
      do {
        let place = try client.fetchPlace(
          with: FetchPlaceRequest(
            placeID: id, placeProperties: Set(PlaceProperty.allCases),
            languageCode: i % 2 == 0 ? nil : "en"))
        probe.answers.append("\(id): \(place)")
      } catch {
        probe.answers.append("\(id): \(PlacesJSONProtocol.encodeError(error))")
      }
    }
    return probe
  }

  /// Requests run on every probed index: plain, filtered, biased, restricted, plus codes.
  public static let probeRequests: [AutocompleteRequest] = {
    let village = Coordinate(latitude: 47.185, longitude: 9.9)
    return [
      AutocompleteRequest(query: "sankt quirin"),
      AutocompleteRequest(query: "apotheke", filter: AutocompleteFilter(origin: village)),
      AutocompleteRequest(query: "hauptstr 1"),
      AutocompleteRequest(query: "b", maxResultCount: 20),
      AutocompleteRequest(query: "q", filter: AutocompleteFilter(types: ["(cities)"])),
      AutocompleteRequest(
        query: "gasthof", filter: AutocompleteFilter(types: ["restaurant", "bar", "cafe"])),
      AutocompleteRequest(
        query: "st", filter: AutocompleteFilter(countries: ["AT", "LI"], regionCode: "AT")),
      AutocompleteRequest(
        query: "bahnhof",
        filter: AutocompleteFilter(
          coordinateRegionRestriction: .rectangle(
            low: Coordinate(latitude: 47.17, longitude: 9.87),
            high: Coordinate(latitude: 47.21, longitude: 9.93)), languageCode: "en")),
      AutocompleteRequest(
        query: "dorf",
        filter: AutocompleteFilter(
          coordinateRegionBias: .circle(center: village, radiusMeters: 2000), inputOffset: 3)),
      AutocompleteRequest(query: "8FVF5W00+"),
      AutocompleteRequest(query: "8FVF5WP2+2X"),
      AutocompleteRequest(query: "5WP2+2X Sankt Quirin"),
    ]
  }()

  /// Requests made of tokens of the index's own dictionary.
  static func tokenRequests(_ index: LoadedIndex) -> [AutocompleteRequest] {
    let n = index.dictionaryTokenCount
    guard n > 0 else { return [] }
    var requests: [AutocompleteRequest] = []
    for id in Array(Set([n / 3, n - 1])).sorted() {
      guard let token = try? index.dictionaryToken(id), !token.isEmpty else { continue }
      requests.append(AutocompleteRequest(query: token))
      requests.append(AutocompleteRequest(query: String(token.unicodeScalars.prefix(2)) + " a"))
    }
    return requests
  }

  /// `bytes` with the header's file length and section count made consistent and the header,
  /// table and section checksums recomputed; nil when the bytes have no index header.
  public static func repairingChecksums(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= IndexFuzzing.headerSize, bytes.starts(with: IndexFuzzing.magic) else {
      return nil
    }
    var b = bytes
    func get(_ at: Int, _ width: Int) -> UInt64 {
      var v: UInt64 = 0
      for i in 0..<width { v |= UInt64(b[at + i]) << (8 * UInt64(i)) }
      return v
    }
    func put(_ value: UInt64, _ at: Int, _ width: Int) {
      for i in 0..<width { b[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }
    func crc(_ range: Range<Int>) -> UInt64 {
      UInt64(
        b.withUnsafeBytes { IndexFuzzing.checksum(UnsafeRawBufferPointer(rebasing: $0[range])) })
    }
    put(UInt64(b.count), 16, 8)
    let entry = IndexFuzzing.sectionEntrySize
    let count = min(Int(get(24, 4)), 1023, (b.count - IndexFuzzing.headerSize) / entry)
    put(UInt64(count), 24, 4)
    for i in 0..<count {
      let at = IndexFuzzing.headerSize + entry * i
      let offset = get(at + 8, 8)
      let length = get(at + 16, 8)
      guard offset <= UInt64(b.count), length <= UInt64(b.count) - offset else { continue }
      put(crc(Int(offset)..<Int(offset + length)), at + 4, 4)
    }
    put(crc(IndexFuzzing.headerSize..<(IndexFuzzing.headerSize + entry * count)), 28, 4)
    put(crc(0..<60), 60, 4)
    return b
  }

  // MARK: OSM extract

  /// What building an index from an extract did.
  public enum ExtractOutcome: Sendable {
    /// The build threw this error (its description); nothing was left under the final name.
    case failed(String)
    /// The build wrote an index that opens, verifies and answers; the build report's lines.
    case built([String])
  }

  /// The fuzz target body: `data` as an extract, through the whole builder.
  public static func osmExtract(_ data: [UInt8]) {
    _ = buildExtract(data)
  }

  /// Builds an index from `data` as an extract. The build must either throw a typed error of
  /// the reader or the builder and leave nothing under the final name, or write an index that
  /// opens, passes `verify()` and answers the probe requests.
  public static func buildExtract(_ data: [UInt8], fileName: String = "extract.osm")
    -> ExtractOutcome
  {
    let dir = scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let extract = (dir as NSString).appendingPathComponent(fileName)
    guard FileManager.default.createFile(atPath: extract, contents: Data(data)) else {
      fatalError("FuzzHarness: cannot write \(extract)")
    }
    return buildExtract(
      at: extract, output: (dir as NSString).appendingPathComponent("out.placeidx"))
  }

  /// Builds the extract at `extract` into `output`, with the checks of ``buildExtract(_:fileName:)``.
  public static func buildExtract(at extract: String, output: String) -> ExtractOutcome {
    let fm = FileManager.default
    let report: BuildReport
    do {
      report = try IndexBuilder(tables: tables).build(
        IndexBuilder.Options(extract: extract, output: output))
    } catch {
      let type = String(reflecting: Swift.type(of: error))
      guard type.hasPrefix("OSMReader.") || type.hasPrefix("PlaceIndexBuilder.") else {
        fatalError("the builder threw an untyped error (\(type)): \(error)")
      }
      if fm.fileExists(atPath: output) || fm.fileExists(atPath: output + ".json") {
        fatalError("a failed build (\(error)) left a file under the final name \(output)")
      }
      return .failed("\(error)")
    }
    let client: PlacesClient
    do {
      client = try PlacesClient(indexPaths: [output])
      try client.indexes[0].verify()
    } catch {
      fatalError("the builder wrote an index that fails its own checks: \(error)")
    }
    for request in probeRequests {
      do {
        _ = try client.autocompleteSuggestions(for: request)
      } catch {
        if case .index = error {
          fatalError("a verified index fails a query (\(request.query)): \(error)")
        }
      }
    }
    return .built(report.lines(verbose: true))
  }

  // MARK: PBF

  /// The fuzz target body for FuzzPBF: `data` as an OSM PBF file through the whole builder;
  /// then, since mutations of a real (zlib-compressed) file mostly stop at zlib, `data` as the
  /// bytes of one uncompressed PrimitiveBlock, framed after a valid header, so that mutations
  /// reach the block decoder (string table, DenseNodes, ways, relations).
  public static func pbf(_ data: [UInt8]) {
    _ = buildExtract(data, fileName: "extract.osm.pbf")
    _ = buildExtract(
      pbfHeaderFrame + pbfFrame(type: "OSMData", rawBlob: data), fileName: "block.osm.pbf")
  }

  /// A protobuf varint.
  static func varint(_ value: UInt64) -> [UInt8] {
    var out: [UInt8] = []
    var v = value
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
    return out
  }

  /// A PBF frame: 4-byte big-endian BlobHeader length, BlobHeader (type, datasize), and a Blob
  /// holding `rawBlob` uncompressed (fields raw and raw_size).
  public static func pbfFrame(type: String, rawBlob: [UInt8]) -> [UInt8] {
    let blob =
      [0x0a] + varint(UInt64(rawBlob.count)) + rawBlob + [0x10] + varint(UInt64(rawBlob.count))
    let header =
      [0x0a] + varint(UInt64(type.utf8.count)) + Array(type.utf8) + [0x18]
      + varint(UInt64(blob.count))
    let n = header.count
    return [UInt8(n >> 24 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
      + header + blob
  }

  /// The header frame of a PBF file with the usual required features.
  public static let pbfHeaderFrame: [UInt8] = {
    var block: [UInt8] = []
    for feature in ["OsmSchema-V0.6", "DenseNodes"] {
      block += [0x22] + varint(UInt64(feature.utf8.count)) + Array(feature.utf8)
    }
    return pbfFrame(type: "OSMHeader", rawBlob: block)
  }()

  // MARK: Requests

  /// The fuzz target body: `data` as JSON request lines, as one raw query with a filter chosen
  /// by its first byte, as the input of a JSON request, and as a place ID, all against the
  /// sample index. Every error must be a request error, never an index error.
  public static func request(_ data: [UInt8]) {
    let client = sampleClient
    let text = String(decoding: data, as: UTF8.self)
    func check(_ error: PlacesError, _ what: String) {
      if case .index = error { fatalError("\(what) gave an index error: \(error)") }
      _ = PlacesJSONProtocol.encodeError(error)
    }
    // JSON lines, as `placeidx query --jsonl` reads them.
    for line in text.split(separator: "\n").prefix(16) {
      do {
        let request = try PlacesJSONProtocol.decodeRequest(String(line))
        _ = PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
      } catch {
        check(error, "a JSON line")
      }
    }
    // The whole input as a query, with a filter picked by the first byte.
    var request = AutocompleteRequest(query: text, filter: filter(data))
    if let last = data.last { request.maxResultCount = Int(last % 24) }
    do {
      _ = PlacesJSONProtocol.encodeResponse(try client.autocompleteSuggestions(for: request))
    } catch {
      check(error, "a query")
    }
    // The input as a JSON string in a request.
    let line = jsonString(text)
    do {
      let decoded = try PlacesJSONProtocol.decodeRequest("{\"input\":\(line)}")
      guard decoded.query == text else { fatalError("the input did not survive JSON: \(line)") }
      _ = try client.autocompleteSuggestions(for: decoded)
    } catch {
      check(error, "a JSON request")
    }
    // The input as a place ID.
    do {
      _ = try client.fetchPlace(
        with: FetchPlaceRequest(placeID: text, placeProperties: Set(PlaceProperty.allCases)))
    } catch {
      check(error, "a place ID")
    }
  }

  /// `text` as a JSON string literal.
  public static func jsonString(_ text: String) -> String {
    var out = "\""
    for u in text.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default:
        if u.value < 0x20 {
          let hex = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }

  /// A filter derived from the input's first bytes.
  static func filter(_ data: [UInt8]) -> AutocompleteFilter {
    guard let first = data.first else { return AutocompleteFilter() }
    let second = data.count > 1 ? Double(data[1]) : 0
    let center = Coordinate(latitude: 47.185 + (second - 128) / 100, longitude: 9.9)
    var f = AutocompleteFilter()
    switch first % 8 {
    case 0: break
    case 1: f.types = ["(cities)"]
    case 2: f.types = ["restaurant", "pharmacy", "locality", "not_a_type", "bar", "cafe"]
    case 3: f.countries = ["AT", "at", "LI", "ÄT"]
    case 4: f.origin = center
    case 5: f.coordinateRegionBias = .circle(center: center, radiusMeters: second * 400)
    case 6:
      f.coordinateRegionRestriction = .rectangle(
        low: Coordinate(latitude: 47, longitude: 179.5 - second),
        high: Coordinate(latitude: 47.5, longitude: 9.95))
    default:
      f.inputOffset = Int(second) - 8
      f.languageCode = "en"
      f.regionCode = "AT"
    }
    return f
  }
}
