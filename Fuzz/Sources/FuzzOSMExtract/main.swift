// Fuzz target: arbitrary bytes as an OSM extract (plain, gzip or bzip2, as the first bytes say),
// through the whole IndexBuilder. Seeds: Data/sample.osm and the heads of the shared extracts.
import Foundation
import FuzzHarness

runLibFuzzer(
  { data, size in
    FuzzHarness.osmExtract(fuzzInput(data, size))
    return 0
  },
  seeds: {
    var seeds: [(name: String, bytes: [UInt8])] = []
    if let sample = fileHead(FuzzHarness.sampleExtractPath) {
      seeds.append(("sample.osm", sample))
    }
    // Heads of the real extracts (a cut extract is truncated XML, a cut archive a truncated
    // stream): small enough for libFuzzer to mutate quickly.
    let shared = FuzzHarness.repositoryRoot + "/../shared/data/osm/"
    for name in [
      "helsinki-center-2019.osm", "manhattan-lower-east-side-2020.osm",
      "liechtenstein-2013-08-03.osm.bz2", "liechtenstein-autauga-2021.osm.gz",
    ] {
      if let head = fileHead(shared + name, limit: 16 << 10) { seeds.append((name, head)) }
    }
    return seeds
  })
