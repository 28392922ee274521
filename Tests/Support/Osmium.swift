import Foundation

/// Debian's `osmium-tool`, which the tests use to make PBF files from the XML extracts at test
/// time (into temporary folders; no PBF is checked in). `make deps` and CI install it; where it
/// is missing the tests that need it are skipped, and say so.
public enum Osmium {
  /// The `osmium` executable on `PATH`, if any.
  public static let executable: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("osmium")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }()

  /// Whether osmium is installed.
  public static var available: Bool { executable != nil }

  /// Why a test that needs osmium is skipped.
  public static let skipReason: String =
    "osmium (Debian's osmium-tool) is not installed: the PBF tests that need it are skipped"

  /// Writes `input` to `output` with `osmium cat`, in osmium's output format `format` (`pbf`,
  /// `pbf,pbf_dense_nodes=false`, `osm`, `osm.gz`, …).
  public static func convert(_ input: String, to output: String, format: String) throws {
    guard let executable else { throw OsmiumError(message: skipReason) }
    let r = try runProcess(executable, ["cat", input, "-f", format, "-o", output, "-O"])
    guard r.status == 0 else {
      throw OsmiumError(message: "osmium cat \(input) -f \(format) failed: \(r.stderr)")
    }
  }

  /// A PBF copy of the extract `input` in a fresh temporary folder, named `name`.
  public static func pbf(of input: String, name: String = "extract.osm.pbf", dense: Bool = true)
    throws -> String
  {
    let out = try TestPaths.temporaryDirectory().appendingPathComponent(name).path
    try convert(input, to: out, format: dense ? "pbf" : "pbf,pbf_dense_nodes=false")
    return out
  }
}

/// osmium failed.
public struct OsmiumError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
