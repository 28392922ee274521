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
    try self.init { name in
      let path = (directory as NSString).appendingPathComponent(name)
      guard let data = FileManager.default.contents(atPath: path) else {
        throw BuildError.badTable(path: path, reason: "missing data table")
      }
      return (String(decoding: data, as: UTF8.self), path)
    }
  }

  /// The tables compiled into the executable (`EmbeddedTables`, generated from Data/*.tsv).
  public static func embedded() throws -> BuildTables {
    try BuildTables { name in
      guard let text = EmbeddedTables.files.first(where: { $0.name == name })?.text else {
        throw BuildError.badTable(path: "(built-in)/\(name)", reason: "missing data table")
      }
      return (text, "(built-in)/\(name)")
    }
  }

  /// The tables a build uses: those in `directory` when one is given (`--data DIR`), else in
  /// `PLACEINDEX_DATA` when it is set, else the built-in ones.
  public static func load(directory: String?) throws -> BuildTables {
    if let directory { return try BuildTables(directory: directory) }
    if let env = ProcessInfo.processInfo.environment["PLACEINDEX_DATA"], !env.isEmpty {
      return try BuildTables(directory: env)
    }
    return try embedded()
  }

  /// Reads each table through `read`, which returns its text and the path errors name.
  private init(read: (String) throws -> (String, String)) throws {
    func parse<T>(_ path: String, _ body: () throws -> T) throws -> T {
      do { return try body() } catch let e as BuildError { throw e } catch {
        throw BuildError.badTable(path: path, reason: "\(error)")
      }
    }
    let (vocabularyText, vocabularyPath) = try read("place_types.tsv")
    let (rulesText, rulesPath) = try read("type_rules.tsv")
    let (countriesText, countriesPath) = try read("countries.tsv")
    let (countryNamesText, _) = try read("country_names.tsv")
    let (abbreviationsText, abbreviationsPath) = try read("abbreviations.tsv")
    let (synonymsText, synonymsPath) = try read("type_synonyms.tsv")
    let vocabulary = try parse(vocabularyPath) { try PlaceTypeVocabulary(tsv: vocabularyText) }
    rules = try parse(rulesPath) { try TypeRules(tsv: rulesText, vocabulary: vocabulary) }
    countries = try parse(countriesPath) {
      try CountryTable(tsv: countriesText, names: countryNamesText)
    }
    abbreviations = try parse(abbreviationsPath) { try Abbreviations(tsv: abbreviationsText) }
    synonyms = try parse(synonymsPath) {
      try TypeSynonyms(tsv: synonymsText, vocabulary: vocabulary)
    }
    vocabularyTSV = vocabularyText
    abbreviationsTSV = abbreviationsText
  }
}
