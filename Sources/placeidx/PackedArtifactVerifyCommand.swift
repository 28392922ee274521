import Foundation
import PlaceIndex
import PlaceIndexBuilder

/// `placeidx verify FILE`: an index, or a packed artifact (`placeidx dist`) and its index.
enum PackedArtifactVerifyCommand {
  /// Runs `placeidx verify` with `args`, the arguments after the command name.
  static func run(_ args: [String]) throws {
    let a = try Arguments(args, valued: [], flags: [])
    guard a.positional.count == 1, PackedArtifactReader.looksPacked(path: a.positional[0]) else {
      try InspectCommand.run(args, verify: true)
      return
    }
    let path = a.positional[0]
    // Headers, members, manifest and attribution; then the index member's full verification.
    let packed = try PackedArtifactReader(path: path)
    let index = try LoadedIndex(file: packed.index)
    try index.verify()
    print(
      "\(path): OK (\(packed.members.count) members; manifest and ATTRIBUTION.txt match \(packed.indexMember.name): \(packed.index.sections.count) sections, \(index.placeCount) places, all checksums and references valid)"
    )
  }
}
