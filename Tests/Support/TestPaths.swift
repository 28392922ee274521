import Foundation
import PlaceCore

/// Where the tests find the repository, the shared data and the built tools.
public enum TestPaths {
  /// The package root (two folders above this file).
  public static let repoRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The shared folder: `PLACEINDEX_SHARED`, else `../shared` beside the checkout.
  public static let shared: URL = {
    if let env = ProcessInfo.processInfo.environment["PLACEINDEX_SHARED"], !env.isEmpty {
      return URL(fileURLWithPath: env)
    }
    return repoRoot.deletingLastPathComponent().appendingPathComponent("shared")
  }()

  /// Whether the shared OSM extracts are present.
  public static var sharedOSMAvailable: Bool {
    FileManager.default.fileExists(atPath: osm("helsinki-center-2019.osm").path)
  }

  /// A shared OSM extract.
  public static func osm(_ name: String) -> URL {
    shared.appendingPathComponent("data/osm").appendingPathComponent(name)
  }

  /// The project's Data/ folder.
  public static var data: String { repoRoot.appendingPathComponent("Data").path }

  /// The `placeidx` executable built beside the test bundle.
  public static var placeidx: URL {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = bundle.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("placeidx")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir.deleteLastPathComponent()
    }
    return repoRoot.appendingPathComponent(".build/release/placeidx")
  }

  /// A fresh temporary folder, inside this test process's own folder, which is removed when
  /// the process exits: fixtures shared by many tests outlive every test, so no test can
  /// remove them itself.
  public static func temporaryDirectory() throws -> URL {
    let url = temporaryRoot.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// The folder holding this test process's temporary folders, removed at exit.
private let temporaryRoot: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "placeindex-tests-\(UUID().uuidString)")
  atexit { try? FileManager.default.removeItem(at: temporaryRoot) }
  return url
}()

extension TestPaths {
  /// The project's own sample extract.
  public static var sample: URL { repoRoot.appendingPathComponent("Data/sample.osm") }

  /// The Open Location Code reference CSVs.
  public static var olc: URL { shared.appendingPathComponent("data/olc") }
}

/// XML text helpers for tests that read extracts as text, independently of the XML stage.
public enum XMLText {
  /// `value` with XML's predefined entities and character references decoded.
  public static func unescape<S: StringProtocol>(_ value: S) -> String {
    guard value.contains("&") else { return String(value) }
    var result = ""
    var rest = Substring(value)
    while let amp = rest.firstIndex(of: "&") {
      result += rest[..<amp]
      guard let semi = rest[amp...].firstIndex(of: ";") else {
        result += rest[amp...]
        return result
      }
      let entity = rest[rest.index(after: amp)..<semi]
      switch entity {
      case "amp": result += "&"
      case "lt": result += "<"
      case "gt": result += ">"
      case "quot": result += "\""
      case "apos": result += "'"
      default:
        let number =
          entity.hasPrefix("#x") || entity.hasPrefix("#X")
          ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst(), radix: 10)
        if entity.hasPrefix("#"), let number, let scalar = Unicode.Scalar(number) {
          result.unicodeScalars.append(scalar)
        } else {
          result += "&\(entity);"
        }
      }
      rest = rest[rest.index(after: semi)...]
    }
    return result + rest
  }
}

/// The project's seeded generator (`PlaceCore.SplitMix64`), so that seeded property tests and
/// "random" truncations, bit flips and kill moments repeat exactly on every run.
package typealias SplitMix64 = PlaceCore.SplitMix64
