import Foundation

/// One index build as defined in `Pipelines/<name>.pipeline`: `key = value` lines, `#` comments.
public struct PipelineDefinition: Sendable, Equatable {
  /// The pipeline's name (the file name without extension).
  public var name: String
  /// The extract, relative to the repository root unless absolute; `-` is standard input.
  public var extract: String
  /// The index to write.
  public var output: String
  /// Free text.
  public var description: String
  /// Build options, space-separated.
  public var options: [String]

  static let knownKeys: Set<String> = ["extract", "output", "description", "options"]

  /// Parses a definition's text; `path` names it in errors.
  public init(name: String, text: String, path: String) throws {
    var values: [String: String] = [:]
    for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "=") else {
        throw BuildError.badPipeline(path: path, reason: "line \(i + 1): expected 'key = value'")
      }
      let key = line[..<eq].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
      guard PipelineDefinition.knownKeys.contains(key) else {
        throw BuildError.badPipeline(path: path, reason: "line \(i + 1): unknown key '\(key)'")
      }
      values[key] = value
    }
    guard let extract = values["extract"], !extract.isEmpty else {
      throw BuildError.badPipeline(path: path, reason: "no 'extract' given")
    }
    self.name = name
    self.extract = extract
    self.output =
      values["output"].flatMap { $0.isEmpty ? nil : $0 } ?? "build/indexes/\(name).placeidx"
    self.description = values["description"] ?? ""
    self.options = (values["options"] ?? "").split(separator: " ").map(String.init)
  }

  /// Loads `Pipelines/<name>.pipeline` under `root`.
  public static func load(name: String, root: String) throws -> PipelineDefinition {
    let path = (root as NSString).appendingPathComponent("Pipelines/\(name).pipeline")
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BuildError.badPipeline(path: path, reason: "no such pipeline '\(name)'")
    }
    return try PipelineDefinition(
      name: name, text: String(decoding: data, as: UTF8.self), path: path)
  }
}
