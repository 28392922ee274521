// Fuzz target: arbitrary bytes as an OSM PBF file through the whole IndexBuilder, and as one
// uncompressed PrimitiveBlock framed after a valid header. Seeds: Fuzz/Corpus/pbf (small PBFs
// made with osmium from the XML seeds, zlib-compressed and uncompressed, dense and plain nodes)
// and the blocks of those files' uncompressed copies.
import FuzzHarness

runLibFuzzer(
  { data, size in
    FuzzHarness.pbf(fuzzInput(data, size))
    return 0
  },
  seeds: {
    // The sample as one hand-framed header plus the smallest possible data block.
    [("empty-block.osm.pbf", FuzzHarness.pbfHeaderFrame)]
  })
