import Foundation
import PlaceIndex
import PlaceIndexFormat
import Testing

@testable import PlaceIndexBuilder

/// Place details' `viewport` from a built index: a street's box holds every way it merged, a
/// park's its outline, and a node or a small building gets the default box around its point.
@Suite struct ViewportBuildTests {
  /// A town with a street of two ways 1.2 km apart end to end, a 600 m park, a small building
  /// with an address and a café node.
  static let extract: String = {
    var xml = ScaleBuildTests.header
    xml +=
      "<node id='1' lat='47.1000' lon='9.5000'><tag k='place' v='town'/><tag k='name' v='Testdorf'/></node>\n"
    xml +=
      "<node id='2' lat='47.1010' lon='9.5010'><tag k='amenity' v='cafe'/><tag k='name' v='Café Eck'/></node>\n"
    // The street: way 100 from (47.1000, 9.5000) to (47.1050, 9.5000), way 101 on to
    // (47.1100, 9.5080).
    let street: [(Int, Double, Double)] = [
      (10, 47.1000, 9.5000), (11, 47.1050, 9.5000), (12, 47.1100, 9.5080),
    ]
    // The park: a square of about 600 m; the building: 20 m.
    let park: [(Int, Double, Double)] = [
      (20, 47.0900, 9.4900), (21, 47.0900, 9.4980), (22, 47.0954, 9.4980), (23, 47.0954, 9.4900),
    ]
    let building: [(Int, Double, Double)] = [
      (30, 47.1020, 9.5020), (31, 47.1020, 9.50225), (32, 47.10218, 9.50225),
      (33, 47.10218, 9.5020),
    ]
    for (id, lat, lon) in street + park + building {
      xml += "<node id='\(id)' lat='\(lat)' lon='\(lon)'/>\n"
    }
    func refs(_ ids: [Int]) -> String { ids.map { "<nd ref='\($0)'/>" }.joined() }
    let residential = "<tag k='highway' v='residential'/><tag k='name' v='Langgasse'/>"
    xml += "<way id='100'>\(refs([10, 11]))\(residential)</way>\n"
    xml += "<way id='101'>\(refs([11, 12]))\(residential)</way>\n"
    xml +=
      "<way id='200'>\(refs([20, 21, 22, 23, 20]))<tag k='leisure' v='park'/><tag k='name' v='Stadtpark'/></way>\n"
    xml +=
      "<way id='300'>\(refs([30, 31, 32, 33, 30]))<tag k='building' v='yes'/><tag k='addr:street' v='Langgasse'/><tag k='addr:housenumber' v='7'/></way>\n"
    return xml + "</osm>\n"
  }()

  static func viewport(_ client: PlacesClient, _ id: String) throws -> (Viewport, Coordinate) {
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: id, placeProperties: [.viewport, .coordinate]))
    let v = try #require(place.viewport, "\(id) has no viewport")
    return (v, try #require(place.coordinate))
  }

  static func holds(_ v: Viewport, _ lat: Double, _ lon: Double) -> Bool {
    v.low.latitude <= lat && lat <= v.high.latitude && v.low.longitude <= lon
      && lon <= v.high.longitude
  }

  @Test func viewportsHoldTheGeometryOrTheDefaultBox() throws {
    let (report, _, index) = try buildXML(Self.extract, name: "viewports")
    #expect(report.assemble.routesMerged == 1)
    let client = try PlacesClient(indexPaths: [index.path])
    // The merged street (its ID is its smallest way's): both ways, and little more.
    let (street, _) = try Self.viewport(client, "W100")
    for (lat, lon) in [(47.1000, 9.5000), (47.1050, 9.5000), (47.1100, 9.5080)] {
      #expect(Self.holds(street, lat, lon), "\(street) misses \(lat), \(lon)")
    }
    #expect(street.high.latitude - street.low.latitude < 0.0100 * 1.15)
    #expect(street.high.longitude - street.low.longitude < 0.0080 * 1.25 + 0.004)
    // The park: its outline, at most 1/8 more on a side.
    let (park, _) = try Self.viewport(client, "W200")
    for (lat, lon) in [(47.0900, 9.4900), (47.0954, 9.4980)] {
      #expect(Self.holds(park, lat, lon), "\(park) misses \(lat), \(lon)")
    }
    #expect(park.high.latitude - park.low.latitude < 0.0054 * 1.25)
    // The café and the building: 150 m each way of their point (0.00135° of latitude).
    for id in ["N2", "W300"] {
      let (v, c) = try Self.viewport(client, id)
      #expect(abs((c.latitude - v.low.latitude) - 150 / 111_320) < 1e-6, "\(id): \(v)")
      #expect(abs((v.high.latitude - c.latitude) - 150 / 111_320) < 1e-6, "\(id): \(v)")
      let dLon = 150 / 111_320 / cos(c.latitude * .pi / 180)
      #expect(abs((v.high.longitude - c.longitude) - dLon) < 1e-6, "\(id): \(v)")
    }
    // The building's corners are inside its default box.
    let (b, _) = try Self.viewport(client, "W300")
    #expect(Self.holds(b, 47.1020, 9.5020) && Self.holds(b, 47.10218, 9.50225))
    // Only asked-for fields: no viewport without the mask asking for it.
    let plain = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "W200", placeProperties: [.displayName]))
    #expect(plain.viewport == nil && plain.displayName == "Stadtpark")
  }

  /// A 6.0 file (no VIEWPORTS) still opens and answers details, without a viewport.
  @Test func aFileWithoutViewportsGivesNone() throws {
    let (_, bytes, index) = try buildXML(Self.extract, name: "viewports60")
    let file = try IndexFile(bytes: MappedBytes(copying: bytes), path: index.path)
    var writer = IndexFileWriter()
    writer.dataTimestamp = file.dataTimestamp
    for s in file.sections where s.kind != SectionKind.viewports.rawValue {
      writer.add(rawKind: s.kind, Array(file.bytes(of: s)))
    }
    var old = writer.image()
    old[10] = 0  // minor 0
    let crc = old.withUnsafeBytes {
      CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<60]))
    }
    for i in 0..<4 { old[60 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    let path = index.deletingLastPathComponent().appendingPathComponent("old.placeidx")
    try Data(old).write(to: path)
    let client = try PlacesClient(indexPaths: [path.path])
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(placeID: "W200", placeProperties: [.viewport, .displayName]))
    #expect(place.viewport == nil)
    #expect(place.displayName == "Stadtpark")
    #expect(try LoadedIndex(path: path.path).file.minor == 0)
  }
}
