import Foundation
import PlaceCore
import TestSupport
import Testing

/// The repository root, found from this file's path (Tests/PlaceCoreTests/<file>).
private let repositoryRoot = TestPaths.repoRoot

private func loadVocabularyText() throws -> String {
  try String(
    contentsOf: repositoryRoot.appendingPathComponent("Data/place_types.tsv"), encoding: .utf8)
}

@Suite("PlaceTypeVocabulary")
struct PlaceTypeVocabularyTests {
  @Test("the data file parses and holds both tables")
  func dataFileParses() throws {
    let vocabulary = try PlaceTypeVocabulary(tsv: loadVocabularyText())
    let tableA = vocabulary.entries.filter { $0.table == .a }
    let tableB = vocabulary.entries.filter { $0.table == .b }
    #expect(tableA.count > 400)
    #expect(tableB.count >= 30)
    #expect(Set(vocabulary.allTypes).count == vocabulary.allTypes.count)
    for type in ["restaurant", "bank", "sporting_goods_store", "airport", "locality", "country"] {
      #expect(vocabulary.isPrimary(type), "\(type) is Table A")
    }
    for type in [
      "establishment", "geocode", "political", "point_of_interest", "food", "plus_code", "route",
      "street_address", "premise", "subpremise", "sublocality", "neighborhood", "natural_feature",
    ] {
      #expect(vocabulary.contains(type), "\(type) is known")
      #expect(vocabulary.table(of: type) == .b, "\(type) is Table B")
      #expect(!vocabulary.isPrimary(type))
    }
    #expect(!vocabulary.contains("(regions)"))
    #expect(!vocabulary.contains("no_such_type"))
    #expect(vocabulary.table(of: "no_such_type") == nil)
  }

  @Test("generic types follow the service's order")
  func genericTypes() throws {
    let vocabulary = try PlaceTypeVocabulary(tsv: loadVocabularyText())
    #expect(
      vocabulary.genericTypes(for: "restaurant") == ["food", "point_of_interest", "establishment"])
    #expect(
      vocabulary.typeList(primary: "italian_restaurant") == [
        "italian_restaurant", "restaurant", "food", "point_of_interest", "establishment",
      ])
    #expect(vocabulary.genericTypes(for: "locality") == ["political", "geocode"])
    #expect(vocabulary.genericTypes(for: "country") == ["political", "geocode"])
    #expect(vocabulary.genericTypes(for: "route") == ["geocode"])
    #expect(vocabulary.genericTypes(for: "street_address") == ["geocode"])
    #expect(
      vocabulary.typeList(primary: "train_station") == [
        "train_station", "transit_station", "point_of_interest", "establishment",
      ])
    #expect(vocabulary.genericTypes(for: "unknown_type").isEmpty)
    #expect(vocabulary.group(of: "bank") == "finance")
    #expect(vocabulary.group(of: "locality") == "geographical_areas")
    #expect(vocabulary.group(of: "establishment") == PlaceTypeVocabulary.genericGroup)
    #expect(vocabulary.canBePrimaryType("route"))
    #expect(vocabulary.canBePrimaryType("restaurant"))
    #expect(!vocabulary.canBePrimaryType("establishment"))
    #expect(!vocabulary.canBePrimaryType("unknown_type"))
    for entry in vocabulary.entries {
      for generic in entry.genericTypes {
        #expect(vocabulary.contains(generic), "\(entry.name) → \(generic)")
      }
      #expect(!entry.genericTypes.contains(entry.name))
    }
  }

  @Test("comments, blank lines, CRLF, column order and extra columns")
  func lenientSyntax() throws {
    let text =
      "# comment\r\n\r\ngroup\tgeneric\ttype\ttable\tnote\r\n"
      + "geographical_areas\tpolitical\tlocality\tA\tx\r\n"
      + "generic\t\tpolitical\tB\r\n"
    let vocabulary = try PlaceTypeVocabulary(tsv: text)
    #expect(vocabulary.allTypes == ["locality", "political"])
    #expect(vocabulary.genericTypes(for: "locality") == ["political"])
    #expect(vocabulary.isPrimary("locality"))
    #expect(vocabulary.genericTypes(for: "political").isEmpty)
  }

  @Test(
    "parse errors name the line",
    arguments: [
      ("", 1, "no header"),
      ("# only a comment\n", 1, "no header"),
      ("type\ttable\tgroup\n", 1, "\"generic\""),
      ("type\ttable\tgroup\tgeneric\nbank\tC\tfinance\t\n", 2, "expected A or B"),
      ("type\ttable\tgroup\tgeneric\n\nBank\tA\tfinance\t\n", 3, "invalid type name"),
      ("type\ttable\tgroup\tgeneric\nbank\tA\t\t\n", 2, "no group"),
      ("type\ttable\tgroup\tgeneric\nbank\tA\tfinance\t\n# x\nbank\tA\tfinance\t\n", 4, "line 2"),
      ("type\ttable\tgroup\tgeneric\nbank\tA\tfinance\tfinance\n", 2, "not in the vocabulary"),
      ("type\ttable\tgroup\tgeneric\nbank\tA\tfinance\tbank\n", 2, "repeats"),
      ("type\ttable\tgroup\tgeneric\nbank\tA\tfinance\tfood,,x\n", 2, "invalid generic"),
    ])
  func parseErrors(text: String, line: Int, fragment: String) {
    do {
      _ = try PlaceTypeVocabulary(tsv: text)
      Issue.record("expected an error for \(text.debugDescription)")
    } catch {
      #expect(error.line == line, "\(error)")
      #expect(error.message.contains(fragment), "\(error)")
      #expect(error.description.contains("line \(line):"))
    }
  }
}
