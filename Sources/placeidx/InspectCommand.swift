import Foundation
import PlaceIndex

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
    let info = index.info
    if verify {
      try index.verify()
      print(
        "\(path): OK (\(info.sections.count) sections, \(info.placeCount) places, all checksums and references valid)"
      )
      return
    }
    print("file        \(path)")
    print("format      \(info.formatVersion)")
    print("size        \(info.byteSize) bytes")
    let stamp = info.dataTimestamp.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown"
    print(
      "data        \(info.source ?? "?"), newest element \(stamp), options hash \(String(info.optionsHash, radix: 16))"
    )
    print("places      \(info.placeCount)")
    print("attribution \(info.attribution)")
    print("license     \(info.license ?? "?")")
    print("sections")
    for s in info.sections {
      print(
        "  \(s.name.padding(toLength: 14, withPad: " ", startingAt: 0)) offset \(s.offset)  length \(s.length)  crc \(String(s.checksum, radix: 16))"
      )
    }
  }
}
