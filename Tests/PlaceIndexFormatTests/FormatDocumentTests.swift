import Foundation
import TestSupport
import Testing

/// docs/FORMAT.md against the layout comments at the top of the files that implement them.
@Suite struct FormatDocumentTests {
  /// Every layout comment of `Sources/PlaceIndexFormat` (a file's leading `//` lines) appears
  /// in FORMAT.md word for word, so that a change to the code's layout shows up as a failing
  /// test until the document says the same.
  @Test func formatDocumentCarriesEveryLayoutComment() throws {
    let root = TestPaths.repoRoot
    let doc = try String(
      contentsOf: root.appendingPathComponent("docs/FORMAT.md"), encoding: .utf8)
    let folder = root.appendingPathComponent("Sources/PlaceIndexFormat")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    var checked = 0
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      let comment = text.split(separator: "\n", omittingEmptySubsequences: false)
        .prefix { $0.hasPrefix("//") && !$0.hasPrefix("///") }
        .map { $0.hasPrefix("// ") ? String($0.dropFirst(3)) : String($0.dropFirst(2)) }
      guard comment.count >= 2 else { continue }
      #expect(doc.contains(comment.joined(separator: "\n")), "\(file)'s layout comment")
      checked += 1
    }
    #expect(checked >= 10)
  }
}
