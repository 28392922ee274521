// swift-tools-version:6.0
//
// The benchmark harness for PlaceIndex (`make bench`, Benchmarks/README.md), kept out of the main
// package like Fuzz/: the root package's build and products do not include it, and only this
// package links SQLite. It depends on the root package by path; PlaceCore and OSMReader are
// reached as modules of the PlaceIndex and PlaceIndexBuilder products.
//
//   CSQLite          SQLite (FTS5 + R*Tree) from the system, for the SQLite peer
//   placeidx-bench   the harness: builds, queries and scores PlaceIndex beside its peers
//   BenchmarkTests   the harness's own tests (run by `make test`)
//
// `Sources/placeidx-bench/Seeded.swift` is a symlink to PlaceCore's SplitMix64 and FNV-1a
// (Sources/PlaceCore/Support/Seeded.swift), which are `package` declarations and so invisible
// from this package: the harness compiles the very same source, so its seeded draws stay those
// of the project's one generator.
import PackageDescription

let package = Package(
  name: "PlaceIndexBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "PlaceIndex", path: "..")],
  targets: [
    .systemLibrary(
      name: "CSQLite", path: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .executableTarget(
      name: "placeidx-bench",
      dependencies: [
        .product(name: "PlaceIndex", package: "PlaceIndex"),
        .product(name: "PlaceIndexBuilder", package: "PlaceIndex"),
        "CSQLite",
      ]),
    .testTarget(name: "BenchmarkTests", dependencies: ["placeidx-bench"]),
  ],
  swiftLanguageModes: [.v6]
)
