// Fuzz target: arbitrary bytes as JSON request lines, as a query string with a filter, as the
// input of a JSON request and as a place ID, against the sample index. Seeds: Fuzz/Corpus/request.
import FuzzHarness

runLibFuzzer(
  { data, size in
    FuzzHarness.request(fuzzInput(data, size))
    return 0
  },
  seeds: {
    let line = """
      {"input":"sankt quirin","origin":{"latitude":47.185,"longitude":9.9},\
      "includedPrimaryTypes":["restaurant"],"includedRegionCodes":["AT"],"maxResultCount":5}
      """
    return [("sample-request.jsonl", Array(line.utf8))]
  })
