import Foundation
import PlaceIndex
import PlaceIndexFormat

/// `placeidx inspect` and `placeidx verify`.
enum InspectCommand {
  static func run(_ args: [String], verify: Bool) throws {
    let a = try Arguments(args, valued: [], flags: [])
    guard a.positional.count == 1 else {
      throw UsageError("\(verify ? "verify" : "inspect") needs one index FILE")
    }
    let path = a.positional[0]
    if !verify { try PackedArtifactGiven.check([path]) }
    let index = try LoadedIndex(path: path)
    if verify {
      try index.verify()
      print(
        "\(path): OK (\(index.file.sections.count) sections, \(index.placeCount) places, all checksums and references valid)"
      )
      return
    }
    let f = index.file
    print("file        \(path)")
    print("format      \(f.major).\(f.minor)")
    print("size        \(f.bytes.buffer.count) bytes")
    let stamp =
      f.dataTimestamp > 0
      ? ISO8601DateFormatter().string(
        from: Date(timeIntervalSince1970: TimeInterval(f.dataTimestamp))) : "unknown"
    print(
      "data        \(index.metadata["source"] ?? "?"), newest element \(stamp), options hash \(String(f.optionsHash, radix: 16))"
    )
    print("places      \(index.placeCount)")
    print("attribution \(index.attribution)")
    print("license     \(index.metadata["license"] ?? "?")")
    print("sections")
    for s in f.sections {
      print(
        "  \(s.name.padding(toLength: 14, withPad: " ", startingAt: 0)) offset \(s.offset)  length \(s.length)  crc \(String(s.checksum, radix: 16))"
      )
    }
  }
}
