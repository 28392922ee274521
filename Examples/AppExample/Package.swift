// swift-tools-version:6.0
//
// An app that uses the PlaceIndex library: the README's snippets, compiled and run by
// ExamplePackageTests. An app outside this repository depends on PlaceIndex with
//
//   .package(path: "../PlaceIndex")          // the folder of the checkout
//   .product(name: "PlaceIndex", package: "PlaceIndex")
//
// where a path dependency's package name is the folder's name (here the checkout's own folder,
// whatever it is called, so this example builds from any clone).
import Foundation
import PackageDescription

let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL

let package = Package(
  name: "AppExample",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "AppExample",
      dependencies: [.product(name: "PlaceIndex", package: checkout.lastPathComponent)])
  ],
  swiftLanguageModes: [.v6]
)
