import Foundation
import PlaceCore
import PlaceIndexBuilder
import TestSupport
import Testing

/// Data/type_synonyms.tsv: the words users type for a kind of place, in the languages of the
/// data.
@Suite struct CategoryWordsTests {
  /// One row of a table: its 1-based line and its columns by header name.
  struct Row {
    var line: Int
    var columns: [String: String]
  }

  /// The rows of a tab-separated Data table (comments and blank lines skipped).
  static func rows(_ name: String) throws -> [Row] {
    let text = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("Data/\(name)"), encoding: .utf8)
    var header: [String]? = nil
    var rows: [Row] = []
    for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") { continue }
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard let names = header else {
        header = cells
        continue
      }
      rows.append(Row(line: i + 1, columns: Dictionary(uniqueKeysWithValues: zip(names, cells))))
    }
    return rows
  }

  /// The main categories of the issue, each as the types whose words stand for it.
  static let categories: [String: Set<String>] = [
    "shops": ["supermarket", "convenience_store", "bakery", "shopping_mall"],
    "food": ["restaurant", "cafe"],
    "health": ["pharmacy", "hospital", "doctor", "dentist"],
    "transport": ["bus_stop", "train_station", "airport", "parking", "gas_station"],
    "lodging": ["hotel", "hostel", "campground"],
    "education": ["school", "university", "library"],
    "finance": ["bank", "atm"],
    "worship": ["church", "mosque", "place_of_worship"],
    "tourism": ["museum", "tourist_information_center"],
  ]

  static let languages = [
    "de", "fr", "it", "es", "pt", "ca", "nl", "pl", "cs", "ru", "uk", "fi", "sv", "da", "no",
    "tr", "ja", "zh",
  ]

  /// Every word maps to a type of the vocabulary that a type rule can give a place (a word
  /// of a type no place gets would find nothing), and folds to at least one token.
  @Test func everyWordMapsToAKnownTypeThatPlacesGet() throws {
    let vocabulary = try PlaceTypeVocabulary(
      tsv: String(
        contentsOf: TestPaths.repoRoot.appendingPathComponent("Data/place_types.tsv"),
        encoding: .utf8))
    let assigned = Set(try Self.rows("type_rules.tsv").compactMap { $0.columns["type"] })
    #expect(assigned.count > 100)
    let rows = try Self.rows("type_synonyms.tsv")
    var words = 0
    for row in rows {
      let type = row.columns["type"] ?? ""
      #expect(vocabulary.contains(type), "line \(row.line): '\(type)' is not a place type")
      #expect(assigned.contains(type), "line \(row.line): no rule gives a place '\(type)'")
      let list = (row.columns["words"] ?? "").split(separator: ",")
      #expect(!list.isEmpty, "line \(row.line): no words")
      for word in list {
        #expect(!Tokenizer.tokens(String(word)).isEmpty, "line \(row.line): '\(word)'")
        words += 1
      }
    }
    #expect(rows.count > 400)
    #expect(words > 700)
    // The builder accepts the table as it is.
    _ = try BuildTables(directory: TestPaths.data)
  }

  /// Each main category has words in each language of the issue.
  @Test(arguments: languages)
  func everyMainCategoryHasWordsIn(_ language: String) throws {
    let rows = try Self.rows("type_synonyms.tsv").filter { $0.columns["language"] == language }
    let types = Set(rows.compactMap { $0.columns["type"] })
    for (category, members) in Self.categories.sorted(by: { $0.key < $1.key }) {
      #expect(!types.isDisjoint(with: members), "\(language) has no word for \(category)")
    }
  }

  /// Every language of the table is indexed everywhere or has the countries that speak it.
  @Test func everyLanguageHasItsPlaces() throws {
    let languages = Set(try Self.rows("type_synonyms.tsv").compactMap { $0.columns["language"] })
    #expect(languages.count >= 19)
    for language in languages.sorted() {
      #expect(
        TypeSynonyms.everywhereLanguages.contains(language)
          || TypeSynonyms.countries[language]?.isEmpty == false, "\(language)")
    }
  }

  /// Plurals that do not start with their singular are listed beside it (a query "farmacias"
  /// is not a prefix of "farmacia").
  @Test func commonPluralsAreListed() throws {
    var words: [String: Set<String>] = [:]
    for row in try Self.rows("type_synonyms.tsv") {
      let key = "\(row.columns["type"] ?? "")/\(row.columns["language"] ?? "")"
      for word in (row.columns["words"] ?? "").split(separator: ",") {
        words[key, default: []].insert(String(word))
      }
    }
    let expected: [(String, String)] = [
      ("pharmacy/pt", "farmácias"), ("pharmacy/es", "farmacias"), ("pharmacy/it", "farmacie"),
      ("pharmacy/ru", "аптеки"), ("pharmacy/de", "apotheken"), ("hospital/fr", "hôpitaux"),
      ("supermarket/ru", "супермаркеты"), ("supermarket/uk", "супермаркети"),
      ("hotel/pt", "hotéis"), ("school/pl", "szkoły"), ("bakery/pt", "padarias"),
      ("restaurant/sv", "restauranger"), ("museum/it", "musei"), ("bank/es", "bancos"),
    ]
    for (key, word) in expected { #expect(words[key]?.contains(word) == true, "\(key) \(word)") }
  }
}
