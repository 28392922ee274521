import Foundation
import PlaceIndexBuilder
import PlaceIndexFormat

/// A packed artifact (`placeidx dist`) given where an index is needed.
struct PackedArtifactGiven: Error, CustomStringConvertible {
  var path: String
  var description: String {
    "\(path): this is a packed .placeidx.tar; unpack it with tar -xf or pass the .placeidx inside"
  }

  /// Throws for the first of `paths` that is a packed artifact rather than an index (an index
  /// starts with the index magic bytes, whatever its name).
  static func check(_ paths: [String]) throws {
    for path in paths where PackedArtifactReader.looksPacked(path: path) {
      let head = FileHandle(forReadingAtPath: path).flatMap { handle in
        defer { try? handle.close() }
        return try? handle.read(upToCount: IndexLayout.magic.count)
      }
      if let head, head.elementsEqual(IndexLayout.magic) { continue }
      throw PackedArtifactGiven(path: path)
    }
  }
}
