import Foundation
import OSMReader
import PlaceCore
import PlaceIndexFormat

// The builder's stages, in the order `build` runs them, one folder each:
//
//   1-Extract/   read the extract (OSMReader) and keep the elements that can be places, with
//                their geometry: ElementCollector → ExtractedElement
//   2-Admin/     the admin areas and the hierarchy a point lies in: AdminResolver → AdminContext
//   3-Assemble/  one place per element: names, secondary text, address components, terms,
//                streets merged (PlaceAssembler), with its place types (Types/) and importance
//                (Importance/), which it calls per place → AssembledPlace in a PlaceStore
//   4-Compile/   rank the places and write the index and its manifest atomically:
//                IndexCompiler, ArtifactWriter, OutputLock → NAME.placeidx, NAME.placeidx.json
//
// Pipeline/ is this driver, with the tables every stage reads (BuildTables, CountryTable,
// EmbeddedTables), pipeline definitions and the build report; Dist/ packs a built index into
// its distributable archive (`placeidx dist`), after the build.

/// Runs the whole pipeline: read the extract, collect elements, resolve the admin hierarchy,
/// assemble and type places, compile the index, and write it with its manifest atomically.
public struct IndexBuilder {
  /// What to build.
  public struct Options: Sendable {
    /// The extract to read.
    public var extract: String
    /// The index file to write.
    public var output: String
    /// Options recorded in the index (they change its options hash).
    public var options: [String] = []
    /// Called with (bytes done, bytes total) while reading.
    public var progress: (@Sendable (Int64, Int64) -> Void)? = nil
    /// Write one index per country into the folder `output` (`<output>/<cc>.placeidx`,
    /// `ZZ` for places without a country) instead of one index.
    public var splitByCountry = false
    /// The folder for the build's temporary files (node locations and way geometry, about
    /// 16 bytes per node and 8 per way node): nil for `TMPDIR`, else the output's folder.
    /// They are unlinked as soon as they are created, so no exit leaves them behind.
    public var temporaryDirectory: String? = nil
    /// For tests: fail as a full disk would after this many bytes of temporary files.
    var temporaryByteLimit: Int64? = nil

    /// Creates options.
    public init(extract: String, output: String, options: [String] = []) {
      self.extract = extract
      self.output = output
      self.options = options
    }
  }

  let tables: BuildTables

  /// Creates a builder using the given tables.
  public init(tables: BuildTables) {
    self.tables = tables
  }

  /// Builds the index; throws before anything is written under the final name.
  public func build(_ options: Options) throws -> BuildReport {
    let clock = ContinuousClock()
    let start = clock.now
    var report = BuildReport(extract: options.extract, output: options.output)
    // Refused before the extract is read: a device, a directory, a FIFO or the input itself
    // under an output name (checked again when the files are written).
    if options.splitByCountry {
      try OutputLock.checkFolder(options.output)
    } else {
      try OutputLock.checkOutput(options.output, notOneOf: [options.extract])
      try OutputLock.checkOutput(options.output + ".json", notOneOf: [options.extract])
    }
    var meter = StageMeter()
    let budget = SpillBudget(
      SpillSettings(directory: temporaryDirectory(options), byteLimit: options.temporaryByteLimit))
    let (places, localTexts) = try assemble(
      options, budget: budget, started: start, into: &report, meter: &meter)
    guard places.count > 0 else { throw BuildError.noPlaces(path: options.extract) }

    let source = URL(fileURLWithPath: options.extract).lastPathComponent
    if options.splitByCountry {
      var groups: [String: [Int32]] = [:]
      for i in 0..<places.count {
        let code = places.countryCode(i)
        groups[code.isEmpty ? "ZZ" : code, default: []].append(Int32(i))
      }
      for code in groups.keys.sorted() {
        let path = (options.output as NSString).appendingPathComponent("\(code).placeidx")
        let written = try write(
          places, subset: groups[code]!, to: path, source: source, report: report,
          options: options, localTexts: localTexts, meter: &meter)
        report.shards.append((code, path, groups[code]!.count))
        report.tokens += written.tokens
        report.indexBytes += written.bytes
      }
    } else {
      let written = try write(
        places, to: options.output, source: source, report: report, options: options,
        localTexts: localTexts, meter: &meter)
      report.tokens = written.tokens
      report.indexBytes = written.bytes
      report.sha256 = written.sha256
    }
    report.seconds = seconds(clock.now - start)
    report.stages = meter.stages
    return report
  }

  /// Reads the extract and assembles its places into a ``PlaceStore`` (a temporary file). The
  /// node and way geometry and the elements' tags end with this call, before the compile
  /// stage needs its own memory.
  private func assemble(
    _ options: Options, budget: SpillBudget, started start: ContinuousClock.Instant,
    into report: inout BuildReport, meter: inout StageMeter
  ) throws -> (places: PlaceStore, localTexts: [String]) {
    let collector = try ElementCollector(budget: budget)
    let reader = OSMExtractReader(path: options.extract)
    report.read = try reader.read(into: collector, progress: options.progress)
    try collector.finish()
    report.collect = collector.counts
    report.readSeconds = seconds(ContinuousClock.now - start)
    meter.end("read")
    let resolver = AdminResolver(
      areas: collector.areas, elements: collector.adminElements(), countries: tables.countries,
      boundaries: collector.boundaries)
    report.adminAreas = resolver.areaCount
    meter.end("admin")
    let assembler = PlaceAssembler(
      rules: tables.rules, resolver: resolver, countries: tables.countries,
      abbreviations: tables.abbreviations, synonyms: tables.synonyms)
    let places = try PlaceStore(budget)
    let (counts, localTexts) = try assembler.assemble(
      collector.candidates.elements, into: places)
    report.assemble = counts
    meter.end("assemble")
    return (places, localTexts)
  }

  /// Compiles `places` and writes the index and its manifest atomically: index first, then
  /// the manifest, so that a manifest never describes a file that is not there; both under
  /// the output's lock (``OutputLock``), so that two builds to one path never mix their files.
  private func write(
    _ places: PlaceStore, subset: [Int32]? = nil, to path: String, source: String,
    report: BuildReport, options: Options, localTexts: [String], meter: inout StageMeter
  ) throws -> (bytes: Int, tokens: Int, sha256: String) {
    let optionsText = options.options.joined(separator: " ")
    let placeCount = subset?.count ?? places.count
    let (image, tokenCount) = try IndexCompiler.compile(
      places, subset: subset, source: source, timestamp: report.read.newestTimestamp,
      options: optionsText, vocabularyTSV: tables.vocabularyTSV,
      abbreviationsTSV: tables.abbreviationsTSV, localTexts: localTexts)
    let sha = SHA256.hex(image)
    let manifest = Manifest(
      formatVersion: "\(IndexLayout.majorVersion).\(IndexLayout.minorVersion)",
      dataVersion: Manifest.DataVersion(
        source: source, timestamp: report.read.newestTimestamp,
        optionsHash: String(fnv1a64(optionsText), radix: 16)),
      counts: Manifest.Counts(places: placeCount, tokens: tokenCount),
      sha256: sha, size: image.count, attribution: IndexCompiler.attribution,
      license: IndexCompiler.license)
    meter.end("compile")
    try ArtifactWriter.write(
      [(image, path), (try manifest.encoded(), path + ".json")], inputs: [options.extract])
    meter.end("write")
    return (image.count, tokenCount, sha)
  }

  /// The folder for temporary files: the option, else `TMPDIR`, else the output's folder
  /// (created if needed, as the output's is anyway).
  private func temporaryDirectory(_ options: Options) -> String {
    if let dir = options.temporaryDirectory { return dir }
    if let dir = ProcessInfo.processInfo.environment["TMPDIR"], !dir.isEmpty { return dir }
    let folder =
      options.splitByCountry
      ? options.output : URL(fileURLWithPath: options.output).deletingLastPathComponent().path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  private func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }
}
