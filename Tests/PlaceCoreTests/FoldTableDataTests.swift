import Foundation
import TestSupport
import Testing

@testable import PlaceCore

/// The generated fold table (`Sources/PlaceCore/Text/FoldTable+Data.swift`) is the table its
/// definition computes.
@Suite struct FoldTableDataTests {
  @Test func theGeneratedTableIsTheComputedOne() throws {
    let computed = FoldTable.computed()
    let path = TestPaths.repoRoot.appendingPathComponent(
      "Sources/PlaceCore/Text/FoldTable+Data.swift")
    if ProcessInfo.processInfo.environment["PLACEINDEX_WRITE_FOLD_TABLE"] != nil {
      try computed.generatedSource().write(to: path, atomically: true, encoding: .utf8)
    }
    // Thousands of slots: a table that lost or mangled entries fails here.
    #expect(computed.primary.count > 2_000 && computed.storage.count > 2_000)
    #expect(
      FoldTable.shared == computed,
      "FoldTable+Data.swift is stale: PLACEINDEX_WRITE_FOLD_TABLE=1 swift test --filter FoldTableDataTests"
    )
    // Spot checks that hold whatever the table's layout.
    #expect(
      TextNormalizer.fold("Zürich Ærøskøbing Œuvre Ǆemal") == "zurich aeroskobing oeuvre dzemal")
  }
}
