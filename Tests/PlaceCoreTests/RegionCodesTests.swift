import Foundation
import PlaceCore
import TestSupport
import Testing

/// The region codes requests may name (`RegionCodes`): ISO 3166-1's assigned codes and the
/// ccTLD exception "uk".
@Suite struct RegionCodesTests {
  @Test func assignedCodesAreTheIsoList() throws {
    #expect(RegionCodes.assigned.count == 249)
    #expect(RegionCodes.assigned.allSatisfy { $0.utf8.count == 2 && $0 == $0.uppercased() })
    // Spot checks: new and old assignments, and codes that are reserved or user-assigned.
    for code in ["FI", "US", "LI", "AT", "CH", "GB", "SS", "BQ", "CW", "SX", "AX", "EH"] {
      #expect(RegionCodes.assigned.contains(code), "\(code)")
    }
    for code in ["UK", "EU", "ZZ", "QQ", "XK", "AN", "YU", "CS", "SU", "AA", "UN"] {
      #expect(!RegionCodes.assigned.contains(code), "\(code)")
    }
  }

  /// The list is the same as the system's copies of ISO 3166-1 where the machine has one
  /// (tzdata's table), read independently of the code under test.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/iso3166.tab"),
      "needs tzdata's /usr/share/zoneinfo/iso3166.tab"))
  func assignedCodesMatchTzdata() throws {
    let text = try String(contentsOfFile: "/usr/share/zoneinfo/iso3166.tab", encoding: .utf8)
    let codes = Set(
      text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
        $0.split(separator: "\t").first.map(String.init)
      })
    try #require(codes.count > 200, "read \(codes.count) codes")
    #expect(codes == RegionCodes.assigned)
  }

  @Test func canonicalTakesAnyCaseAndTheCountryDomainExceptions() {
    #expect(RegionCodes.canonical("fi") == "FI")
    #expect(RegionCodes.canonical("Li") == "LI")
    #expect(RegionCodes.canonical("uk") == "GB")
    #expect(RegionCodes.canonical("UK") == "GB")
    #expect(RegionCodes.canonical("gb") == "GB")
    for bad in ["zz", "qq", "", "f", "fin", "f1", "ﬁ", "Fİ", "é1", " fi", "eu", "xk"] {
      #expect(RegionCodes.canonical(bad) == nil, "\(bad)")
    }
  }

  /// Every country of the project's address table is a region code a request can name.
  @Test func everyCountryOfTheDataTableIsAssigned() throws {
    let text = try String(
      contentsOfFile: TestPaths.data + "/countries.tsv", encoding: .utf8)
    let codes = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
      .compactMap { $0.split(separator: "\t").first.map(String.init) }.filter { $0 != "ZZ" }
    try #require(codes.count > 50, "read \(codes.count) countries")
    for code in codes { #expect(RegionCodes.canonical(code) == code, "\(code)") }
  }
}
