import Foundation
import PlaceCore
@_spi(Testing) import PlaceIndex
import TestSupport
import Testing

@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct RealPlusCodeTests {
  @Test func globalCodesContainThePlaceAndCompoundCodesRecover() throws {
    let (path, _) = try helsinki.get()
    let client = try PlacesClient(indexPaths: [path])
    let index = try #require(client.indexes.first)
    var checked = 0
    var compounds = 0
    // Every 20th place by rank, across all kinds of place.
    for rank in stride(from: 0, to: index.placeCount, by: 20) {
      let id = try index.placeIDForTesting(rank: rank)
      let place = try client.fetchPlace(
        with: FetchPlaceRequest(
          placeID: id, placeProperties: [.coordinate, .plusCode, .addressComponents]))
      let c = try #require(place.coordinate)
      let code = try #require(place.plusCode)
      let area = try OpenLocationCode.decode(code.globalCode)
      #expect(area.contains(c), "\(id) \(code.globalCode)")
      #expect(code.globalCode.count == 11)
      checked += 1
      if let compound = code.compoundCode {
        // "5W8V+X2 Helsinki, Finland": the settlement it names, which is the place's own
        // locality where it has one (every place of this extract lies in Helsinki).
        let short = String(compound.prefix { $0 != " " })
        let locality = String(compound.dropFirst(short.count + 1).prefix { $0 != "," })
        if let own = place.addressComponents?.first(where: { $0.kind == .locality })?.longText {
          #expect(locality == own, "\(id) \(compound)")
        }
        let city = try #require(
          client.autocompleteSuggestions(
            for: AutocompleteRequest(
              query: locality, filter: AutocompleteFilter(types: ["(cities)"]), maxResultCount: 1)
          ).first?.placeSuggestion)
        let ref = try #require(
          client.fetchPlace(
            with: FetchPlaceRequest(placeID: city.placeID, placeProperties: [.coordinate])
          ).coordinate)
        #expect(try OpenLocationCode.recoverNearest(short, reference: ref) == code.globalCode)
        // The code typed alone near the place: that code, named by its city (not a district).
        let typed = try #require(
          client.autocompleteSuggestions(
            for: AutocompleteRequest(query: short, filter: AutocompleteFilter(origin: c))
          ).first?.placeSuggestion)
        #expect(typed.primaryText.text == code.globalCode)
        #expect(typed.secondaryText.text.hasPrefix(locality + ", "), "\(typed.secondaryText.text)")
        compounds += 1
      }
    }
    print("helsinki: \(checked) global codes checked, \(compounds) compound codes recovered")
    #expect(checked > 50 && compounds > 50)
  }
}

@Suite struct PlusCodeQueryTests {
  @Test func jsonLinesAnswerFullAndShortCodes() throws {
    let dir = try TestPaths.temporaryDirectory()
    let index = dir.appendingPathComponent("sample.placeidx").path
    let built = try runProcess(
      TestPaths.placeidx,
      ["build", TestPaths.data + "/sample.osm", "-o", index, "--data", TestPaths.data])
    try #require(built.status == 0, "\(built.stderr)")
    let client = try PlacesClient(indexPaths: [index])
    let village = try #require(
      client.autocompleteSuggestions(
        for: AutocompleteRequest(
          query: "Sankt Quirin", filter: AutocompleteFilter(types: ["(cities)"]))
      ).first?.placeSuggestion)
    let ref = try #require(
      client.fetchPlace(
        with: FetchPlaceRequest(placeID: village.placeID, placeProperties: [.coordinate])
      ).coordinate)
    let target = try OpenLocationCode.encode(
      latitude: ref.latitude + 0.004, longitude: ref.longitude - 0.006)
    let short = try OpenLocationCode.shorten(target, reference: ref)
    #expect(short.count < target.count)
    let input = [
      #"{"input":"\#(target.lowercased())"}"#,
      #"{"input":"  \#(short) Sankt Quirin"}"#,
      #"{"input":"\#(target.prefix(6))"}"#,
      #"{"input":"\#(short)","origin":{"latitude":\#(ref.latitude),"longitude":\#(ref.longitude)}}"#,
      #"{"input":"\#(short)"}"#,
    ].joined(separator: "\n")
    let r = try runProcess(
      TestPaths.placeidx, ["query", "--index", index, "--jsonl"], input: input)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 5, "\(r.stdout) \(r.stderr)")
    // The full code, the short code with the village, the short code near the village.
    for line in lines[0..<2] + lines[3..<4] {
      #expect(line.contains(#""types":["plus_code"]"#), "\(line)")
      #expect(line.contains(#""mainText":{"text":"\#(target)""#), "\(line)")
      #expect(line.contains("Sankt Quirin"), "\(line)")
    }
    // A code prefix, and a short code with nothing to recover it near: no suggestion.
    #expect(lines[2] == #"{"suggestions":[]}"#)
    #expect(lines[4] == #"{"suggestions":[]}"#)
  }
}
