import Foundation
import PlaceIndex
import PlaceIndexBuilder

/// `placeidx dist`: packs an index, its manifest and its attribution into one archive.
enum DistCommand {
  /// The folder written to without `-o`.
  static let defaultDirectory = "build/dist"

  /// Runs `placeidx dist` with `args`, the arguments after the command name.
  static func run(_ args: [String]) throws {
    let a = try Arguments(args, valued: ["index", "o", "output"], flags: [])
    let given = a.values("index") + a.positional
    guard given.count == 1 else {
      throw UsageError(
        "dist needs one --index FILE (an index with its manifest FILE.json beside it)")
    }
    let indexPath = given[0]
    let packed = try PackedArtifact(indexPath: indexPath)
    // An index that fails verification is not shipped, whatever its manifest says.
    try LoadedIndex(file: packed.index).verify()
    let path = try packed.write(toDirectory: a.value("o") ?? a.value("output") ?? defaultDirectory)
    let indexSize = packed.index.bytes.buffer.count
    print(path)
    print(
      "size    \(packed.bytes.count) bytes (index \(indexSize) + \(packed.bytes.count - indexSize) archive overhead)"
    )
    print("sha256  \(packed.sha256)")
  }
}
