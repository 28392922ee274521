import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `serve --index` reloads an index replaced by rename, and keeps the old one when the new
/// file fails its checks.
@Suite struct ServeReloadTests {
  func status(_ url: String) async throws -> Int {
    let (_, response) = try await URLSession.shared.data(
      for: URLRequest(url: URL(string: url)!, timeoutInterval: 20))
    return (response as? HTTPURLResponse)?.statusCode ?? 0
  }

  /// Builds `extract` to `output`.
  func build(_ extract: String, _ output: String) throws {
    let r = try runProcess(
      TestPaths.placeidx, ["build", extract, "-o", output, "--quiet", "--data", TestPaths.data])
    try #require(r.status == 0, "\(r.stderr)")
  }

  @Test func anIndexReplacedByRenameIsServedAndABadOneIsNot() async throws {
    let dir = try TestPaths.temporaryDirectory()
    let served = dir.appendingPathComponent("served.placeidx").path
    try build(TestPaths.data + "/sample.osm", served)
    let server = try ServeProcess(index: served)
    let sampleOnly = "http://127.0.0.1:\(server.port)/v1/places/N7100074"
    #expect(try await status(sampleOnly) == 200)
    // Another index, built beside it and renamed over it (as `build -o served.placeidx` does).
    let other = dir.appendingPathComponent("other.placeidx").path
    try build(
      TestPaths.repoRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/scripts.osm").path,
      other)
    try #require(rename(other, served) == 0)
    var swapped = false
    for _ in 0..<60 where !swapped {
      try await Task.sleep(for: .milliseconds(500))
      swapped = try await status(sampleOnly) == 404
    }
    #expect(swapped, "the renamed index was not loaded within 30 s")
    // A damaged file renamed over it is refused: the last good index keeps serving.
    let damaged = dir.appendingPathComponent("damaged.placeidx").path
    try build(TestPaths.data + "/sample.osm", damaged)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
    bytes[bytes.count - 40] ^= 0x10
    try bytes.write(to: URL(fileURLWithPath: damaged))
    try #require(rename(damaged, served) == 0)
    try await Task.sleep(for: .seconds(4))
    #expect(try await status(sampleOnly) == 404, "the damaged index replaced the good one")
    #expect(try await status("http://127.0.0.1:\(server.port)/healthz") == 200)
    #expect(server.stop() == 0)
    let said = server.remainingOutput()
    #expect(said.contains("placeidx serve: reloaded"), "\(said)")
    #expect(said.contains("kept the indexes loaded before"), "\(said)")
  }
}
