// swift-tools-version:6.0
//
// PlaceIndex: offline place autocomplete.
//
// Module layout (runtime / build-time / executable, as in swift-protobuf):
//
//   PlaceCore          shared by builder and reader: text normalization, plus codes, geo math
//   PlaceIndexFormat   the binary index format: layout constants, bounds-checked reader, writer
//   PlaceIndex         the reader library apps embed (no libxml2, no zlib)
//   OSMReader          streaming OSM XML stage (libxml2 + zlib + bzip2)
//   PlaceIndexBuilder  the offline pipeline stages that turn OSM elements into an index
//   placeidx           the command-line tool
//
// Kept in packages of their own, which depend on this one by path: the benchmark harness
// (Benchmarks/, `make bench`) and the libFuzzer targets (Fuzz/, `make fuzz`).
import PackageDescription

/// Settings of the build-time modules (see OSMReader below).
let buildTimeSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"])]

let package = Package(
  name: "PlaceIndex",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "PlaceIndex", targets: ["PlaceIndex"]),
    .library(name: "PlaceIndexBuilder", targets: ["PlaceIndexBuilder"]),
    .executable(name: "placeidx", targets: ["placeidx"]),
  ],
  targets: [
    // C libraries from the system, found with pkg-config where Debian ships a .pc file.
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]),
    // Only the placeidx executable (serve) links libmicrohttpd; the reader library does not.
    .systemLibrary(
      name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),

    // Runtime: what an app links.
    .target(name: "PlaceCore"),
    .target(name: "PlaceIndexFormat", dependencies: ["PlaceCore"]),
    .target(name: "PlaceIndex", dependencies: ["PlaceCore", "PlaceIndexFormat"]),

    // Build time: the offline pipeline.
    // The build-time modules run without the runtime's exclusivity checks: the SAX callbacks
    // and the stages' collectors are classes whose stored properties every element of an
    // extract writes, and the checks (swift_beginAccess, a thread-local access set) took about
    // a quarter of a build's CPU (a 10x tile: 12.5 -> 9.2 s). Accesses are still checked at
    // compile time; the reader library, which apps embed, keeps the runtime checks.
    .target(
      name: "OSMReader", dependencies: ["CLibXML2", "CZlib", "CBzip2"],
      swiftSettings: buildTimeSettings),
    .target(
      name: "PlaceIndexBuilder",
      dependencies: ["PlaceCore", "PlaceIndexFormat", "OSMReader"],
      swiftSettings: buildTimeSettings),

    // Executable.
    .executableTarget(
      name: "placeidx",
      dependencies: [
        "PlaceIndex", "PlaceIndexBuilder", "PlaceIndexFormat", "PlaceCore", "CMicroHTTPD",
      ]),

    // Paths and process helpers shared by the test targets.
    .target(name: "TestSupport", dependencies: ["PlaceCore"], path: "Tests/Support"),
    .testTarget(name: "PlaceCoreTests", dependencies: ["PlaceCore", "TestSupport"]),
    .testTarget(name: "PlaceIndexFormatTests", dependencies: ["PlaceIndexFormat", "TestSupport"]),
    .testTarget(name: "OSMReaderTests", dependencies: ["OSMReader", "PlaceCore", "TestSupport"]),
    .testTarget(
      name: "PlaceIndexBuilderTests",
      dependencies: ["PlaceIndexBuilder", "PlaceIndex", "PlaceIndexFormat", "TestSupport"]),
    .testTarget(
      name: "PlaceIndexTests",
      dependencies: ["PlaceIndex", "PlaceIndexBuilder", "PlaceIndexFormat", "TestSupport"]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "PlaceCore", "PlaceIndex", "PlaceIndexBuilder", "PlaceIndexFormat", "TestSupport",
        "placeidx",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: [
        "PlaceCore", "PlaceIndex", "PlaceIndexBuilder", "PlaceIndexFormat", "TestSupport",
        "placeidx",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
