// swift-tools-version:6.0
//
// libFuzzer targets for PlaceIndex, kept out of the main package so that its build is untouched.
// Build and run them with `make fuzz FUZZ_SECONDS=N` from the repository root; see README.md.
//
//   FuzzIndexReader   arbitrary bytes as an index file: open, verify, queries, details
//   FuzzOSMExtract    arbitrary bytes as an OSM extract, through the whole IndexBuilder
//   FuzzRequest       arbitrary bytes as JSON request lines, query strings and place IDs
//   FuzzPBF           arbitrary bytes as an OSM PBF file, and as one uncompressed PrimitiveBlock
//
// The targets are built with `-sanitize=fuzzer,address` (passed by the Makefile with -Xswiftc),
// which instruments the main package's modules too. Each target's `main.swift` hands its body
// to libFuzzer's driver (`LLVMFuzzerRunDriver`): SwiftPM aliases `main` to the module's own
// entry point, so libFuzzer's `main` cannot be used. The bodies live in `FuzzHarness`, which
// the ReliabilityTests target compiles too (Tests/ReliabilityTests/FuzzHarness.swift is a
// symlink to it), so that checked-in crashing inputs replay in `make test`.
import PackageDescription

let package = Package(
  name: "PlaceIndexFuzz",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "PlaceIndex", path: "..")],
  targets: [
    .target(
      name: "FuzzHarness",
      dependencies: [
        .product(name: "PlaceIndex", package: "PlaceIndex"),
        .product(name: "PlaceIndexBuilder", package: "PlaceIndex"),
      ]),
    .executableTarget(name: "FuzzIndexReader", dependencies: ["FuzzHarness"]),
    .executableTarget(name: "FuzzOSMExtract", dependencies: ["FuzzHarness"]),
    .executableTarget(name: "FuzzRequest", dependencies: ["FuzzHarness"]),
    .executableTarget(name: "FuzzPBF", dependencies: ["FuzzHarness"]),
  ],
  swiftLanguageModes: [.v6]
)
