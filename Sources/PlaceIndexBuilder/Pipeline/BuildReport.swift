import OSMReader

/// What a build saw and produced, printed by `placeidx build`.
public struct BuildReport: Sendable {
  /// The extract read.
  public var extract: String
  /// The index written.
  public var output: String
  /// What the XML stage read.
  public var read = OSMReadStatistics()
  var collect = ElementCollector.Counts()
  /// Ids that came more than once, per kind: nodes, ways, relations (the later one is kept).
  public var duplicateIDs: (nodes: Int, ways: Int, relations: Int) {
    (collect.duplicateNodes, collect.duplicateWays, collect.duplicateRelations)
  }
  var assemble = PlaceAssembler.Counts()
  /// Admin and place areas usable for point-in-polygon.
  public var adminAreas = 0
  /// Distinct tokens in the index.
  public var tokens = 0
  /// Index size in bytes.
  public var indexBytes = 0
  /// SHA-256 of the index (empty when split into shards).
  public var sha256 = ""
  /// The shards written with `splitByCountry`: country code, path, places.
  public var shards: [(country: String, path: String, places: Int)] = []
  /// Seconds spent reading the extract.
  public var readSeconds = 0.0
  /// Seconds for the whole build.
  public var seconds = 0.0
  /// Each stage's time, CPU and memory at its end.
  public var stages: [BuildStage] = []

  /// Places in the index.
  public var places: Int { assemble.places }
  /// Places by where their country came from: the ``CountrySource`` labels of the report
  /// ("country boundary", "ISO 3166-2 code", ...), and "none".
  public var countrySources: [(source: String, places: Int)] {
    CountrySource.allCases.map { ($0.label, assemble.countrySources[$0] ?? 0) } + [
      ("none", places - assemble.countrySources.values.reduce(0, +))
    ]
  }

  /// Named sidewalks, crossings and signals left out as parts of their street.
  public var streetPartsSkipped: Int { assemble.streetPartsSkipped }

  /// The report as lines of text.
  public func lines(verbose: Bool) -> [String] {
    func pct(_ n: Int) -> String {
      places == 0 ? "0%" : String(format: "%.1f%%", 100 * Double(n) / Double(places))
    }
    var out = [
      "extract   \(extract)",
      "elements  \(read.nodes) nodes, \(read.ways) ways, \(read.relations) relations (\(read.xmlBytes) XML bytes, \(read.skippedElements) skipped)",
      "missing   \(collect.missingNodeRefs) node refs in ways, \(collect.missingNodeMembers) node / \(collect.missingWayMembers) way / \(collect.missingRelationMembers) relation members; \(collect.waysWithoutGeometry) ways without geometry; \(collect.negativeIDs) negative ids",
      "duplicate \(collect.duplicateNodes) node, \(collect.duplicateWays) way, \(collect.duplicateRelations) relation ids (the later element kept)",
      "places    \(places) (\(assemble.routesMerged) street ways merged into routes, \(assemble.streetPartsSkipped) sidewalks and crossings left out, \(assemble.unmapped) named places without a mapped type)",
      "postcodes \(assemble.postcodes.derived) derived from the places that carry them (\(assemble.postcodes.malformed) codes that are no postcode of their country, \(assemble.postcodes.tooFew) areas of one place left out)",
      "admin     \(adminAreas) boundary areas; country \(pct(assemble.withCountry)), locality \(pct(assemble.withLocality)), full address \(pct(assemble.withFullAddress))",
      "countries "
        + CountrySource.allCases.map { "\($0.label) \(assemble.countrySources[$0] ?? 0)" }
        .joined(separator: ", ")
        + ", none \(places - assemble.countrySources.values.reduce(0, +))",
      "index     \(output): \(indexBytes) bytes, \(tokens) tokens, \(String(format: "%.1f", places == 0 ? 0 : Double(indexBytes) / Double(places))) bytes/place"
        + (shards.isEmpty ? "" : " in \(shards.count) shards"),
      "time      \(String(format: "%.2f", seconds)) s (reading \(String(format: "%.2f", readSeconds)) s)",
    ]
    for s in shards { out.append("shard     \(s.country): \(s.path), \(s.places) places") }
    if verbose {
      for s in stages {
        out.append(
          "stage     \(s.name): \(String(format: "%.2f", s.seconds)) s, \(String(format: "%.2f", s.cpuSeconds)) s CPU; then \(s.rssAnonKiB / 1024) MiB anonymous, peak RSS \(s.peakRSSKiB / 1024) MiB"
        )
      }
    }
    if verbose {
      out.append("unmapped  top tag combinations of named places without a type:")
      for (k, v) in assemble.unmappedCombinations.sorted(by: {
        ($1.value, $0.key) < ($0.value, $1.key)
      }).prefix(20) {
        out.append("  \(v)\t\(k)")
      }
      for w in read.warnings { out.append("warning   \(w)") }
    }
    return out
  }
}
