import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Headless Chromium (Debian `chromium`), if installed.
let chromiumPath: String? = {
  let env = ProcessInfo.processInfo.environment["CHROMIUM"]
  return [env, "/usr/bin/chromium", "/usr/bin/chromium-browser"].compactMap { $0 }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}()

/// Runs headless Chromium on `url` until the page is idle (virtual time) and returns its DOM.
func chromiumDOM(_ url: String, extra: [String] = []) throws -> String {
  let profile = try TestPaths.temporaryDirectory().path
  // Bounded: timeout(1) ends a browser that hangs.
  let r = try runProcess(
    URL(fileURLWithPath: "/usr/bin/timeout"),
    [
      "120", chromiumPath!, "--headless", "--no-sandbox", "--disable-gpu",
      "--disable-dev-shm-usage", "--no-first-run",
      "--user-data-dir=\(profile)", "--virtual-time-budget=20000", "--dump-dom",
    ] + extra + [url])
  return r.stdout
}

/// The widget in a real browser against `placeidx serve` on loopback: type, wait for the list,
/// check order and bold ranges against the JSON API, press down and enter, check the details.
@Suite(.enabled(if: chromiumPath != nil, "chromium is not installed"), .timeLimit(.minutes(3)))
struct WidgetBrowserTests {
  /// The text of `html` with tags dropped and entities decoded.
  func plain(_ html: Substring) -> String {
    XMLText.unescape(html.replacing(/<[^>]*>/, with: ""))
  }

  /// Text and bold ranges (Unicode scalar offsets) of an element's inner HTML.
  func boldRanges(_ html: Substring) -> (String, [[Int]]) {
    var text = ""
    var ranges: [[Int]] = []
    var rest = html
    while let b = rest.firstMatch(of: /<b>(.*?)<\/b>/) {
      text += plain(rest[..<b.range.lowerBound])
      let start = text.unicodeScalars.count
      text += plain(b.1)
      ranges.append([start, text.unicodeScalars.count])
      rest = rest[b.range.upperBound...]
    }
    text += plain(rest)
    return (text, ranges)
  }

  func matches(_ object: Any?) -> [[Int]] {
    ((object as? [String: Any])?["matches"] as? [[String: Any]] ?? []).map {
      [($0["startOffset"] as? Int) ?? 0, ($0["endOffset"] as? Int) ?? -1]
    }
  }

  @Test func typesSuggestsAndSelectsInHeadlessChromium() async throws {
    let dir = try TestPaths.temporaryDirectory()
    let index = dir.appendingPathComponent("sample.placeidx").path
    let built = try runProcess(
      TestPaths.placeidx,
      ["build", TestPaths.data + "/sample.osm", "-o", index, "--data", TestPaths.data])
    try #require(built.status == 0)
    let server = try ServeProcess(index: index)
    let base = "http://127.0.0.1:\(server.port)"
    let query = "hauptstr"

    // What the JSON API answers for the same text.
    var request = URLRequest(url: URL(string: base + "/v1/places:autocomplete")!)
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"input":"\#(query)"}"#.utf8)
    let (data, _) = try await URLSession.shared.data(for: request)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let suggestions = try #require(json["suggestions"] as? [[String: Any]])
    try #require(suggestions.count >= 2, "the sample needs several answers for '\(query)'")
    let predictions = suggestions.compactMap { $0["placePrediction"] as? [String: Any] }
    let ids = predictions.compactMap { $0["placeId"] as? String }

    let dom = try chromiumDOM(base + "/?type=\(query)&keys=ArrowDown,Enter")
    try #require(dom.contains("data-demo=\"done\""), "the page did not finish: \(dom.suffix(2000))")
    let items = dom.matches(of: /<li class="pia-item"[^>]*data-place-id="([^"]+)"[^>]*>(.*?)<\/li>/)
    #expect(items.map { String($0.1) } == ids, "the list's order is not the API's")
    for (item, prediction) in zip(items, predictions) {
      let format = prediction["structuredFormat"] as? [String: Any]
      let main = try #require(item.2.firstMatch(of: /<span class="pia-main">(.*?)<\/span>/))
      let (mainText, mainBold) = boldRanges(main.1)
      #expect(mainText == (format?["mainText"] as? [String: Any])?["text"] as? String)
      #expect(mainBold == matches(format?["mainText"]), "bold ranges of \(mainText)")
      #expect(!mainBold.isEmpty, "nothing bold in \(mainText)")
      let secondary = try #require(
        item.2.firstMatch(of: /<span class="pia-secondary">(.*?)<\/span>/))
      let (secondaryText, secondaryBold) = boldRanges(secondary.1)
      #expect(secondaryText == (format?["secondaryText"] as? [String: Any])?["text"] as? String)
      #expect(secondaryBold == matches(format?["secondaryText"]))
      let type = try #require(item.2.firstMatch(of: /<span class="pia-type">(.*?)<\/span>/))
      #expect(
        plain(type.1)
          == ((prediction["types"] as? [String])?.first ?? "")
          .replacingOccurrences(of: "_", with: " "))
    }
    // ARIA: a combobox controlling a listbox of options; the attribution under the list.
    #expect(dom.contains("role=\"combobox\"") && dom.contains("role=\"listbox\""))
    #expect(dom.contains("aria-autocomplete=\"list\""))
    #expect(dom.contains("OpenStreetMap contributors"))
    // Down then Enter picked the first suggestion: its details fill the panel.
    let panel = try #require(
      dom.firstMatch(of: /<section id="details"[^>]*data-place-id="([^"]+)"/))
    #expect(String(panel.1) == ids.first)
    let name = try #require(dom.firstMatch(of: /<dd data-field="Name">(.*?)<\/dd>/))
    let firstMain =
      ((predictions.first?["structuredFormat"] as? [String: Any])?["mainText"] as? [String: Any])?[
        "text"] as? String
    #expect(plain(name.1) == firstMain)
    #expect(dom.contains("data-field=\"Location\""))
    // The selection put the whole text in the box and closed the list.
    #expect(dom.contains("aria-expanded=\"false\""))
  }
}
