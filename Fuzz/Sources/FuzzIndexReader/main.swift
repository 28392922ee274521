// Fuzz target: arbitrary bytes as an index file (open, verify, queries and details, then the
// same with consistent checksums). Seeds: the sample index built from Data/sample.osm.
import FuzzHarness

runLibFuzzer(
  { data, size in
    FuzzHarness.indexReader(fuzzInput(data, size))
    return 0
  },
  seeds: {
    let index = FuzzHarness.sampleIndexBytes
    return [
      ("sample.placeidx", index),
      ("sample-header.placeidx", Array(index.prefix(256))),
    ]
  })
