import Foundation
import PlaceCore

/// The project's data tables (Data/*.tsv) that the pipeline stages read.
public struct BuildTables: Sendable {
  /// The type vocabulary text (stored in the index for the reader).
  public var vocabularyTSV: String
  /// The abbreviation table text (stored in the index for the reader).
  public var abbreviationsTSV: String
  let rules: TypeRules
  let countries: CountryTable
  let abbreviations: Abbreviations
  let synonyms: TypeSynonyms

  /// Loads and checks every table in `directory`.
  public init(directory: String) throws {
    func read(_ name: String) throws -> (String, String) {
      let path = (directory as NSString).appendingPathComponent(name)
      guard let data = FileManager.default.contents(atPath: path) else {
        throw BuildError.badTable(path: path, reason: "missing data table")
      }
      return (String(decoding: data, as: UTF8.self), path)
    }
    func parse<T>(_ path: String, _ body: () throws -> T) throws -> T {
      do { return try body() } catch let e as BuildError { throw e } catch {
        throw BuildError.badTable(path: path, reason: "\(error)")
      }
    }
    let (vocabularyText, vocabularyPath) = try read("place_types.tsv")
    let (rulesText, rulesPath) = try read("type_rules.tsv")
    let (countriesText, countriesPath) = try read("countries.tsv")
    let (abbreviationsText, abbreviationsPath) = try read("abbreviations.tsv")
    let (synonymsText, synonymsPath) = try read("type_synonyms.tsv")
    let vocabulary = try parse(vocabularyPath) { try PlaceTypeVocabulary(tsv: vocabularyText) }
    rules = try parse(rulesPath) { try TypeRules(tsv: rulesText, vocabulary: vocabulary) }
    countries = try parse(countriesPath) { try CountryTable(tsv: countriesText) }
    abbreviations = try parse(abbreviationsPath) { try Abbreviations(tsv: abbreviationsText) }
    synonyms = try parse(synonymsPath) {
      try TypeSynonyms(tsv: synonymsText, vocabulary: vocabulary)
    }
    vocabularyTSV = vocabularyText
    abbreviationsTSV = abbreviationsText
  }

  /// The Data/ folder: `PLACEINDEX_DATA`, else `Data` in the current folder or above it, else
  /// next to the executable's package checkout.
  public static func defaultDirectory() -> String {
    if let env = ProcessInfo.processInfo.environment["PLACEINDEX_DATA"], !env.isEmpty { return env }
    let fm = FileManager.default
    var candidates: [URL] = []
    var dir = URL(fileURLWithPath: fm.currentDirectoryPath)
    var exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(dir.appendingPathComponent("Data"))
      candidates.append(exe.appendingPathComponent("Data"))
      dir.deleteLastPathComponent()
      exe.deleteLastPathComponent()
    }
    for c in candidates where fm.fileExists(atPath: c.appendingPathComponent("type_rules.tsv").path)
    {
      return c.path
    }
    return "Data"
  }
}
