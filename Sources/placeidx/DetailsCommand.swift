import Foundation
import PlaceCore
import PlaceIndex

/// `placeidx details`: one place's details, as text or in the Place Details (New) JSON shape.
enum DetailsCommand {
  static func run(_ args: [String]) throws {
    let a = try Arguments(args, valued: ["index", "fields", "language"], flags: ["json"])
    let paths = a.values("index")
    guard !paths.isEmpty else { throw UsageError("details needs --index FILE") }
    guard a.positional.count == 1 else { throw UsageError("details needs one place ID") }
    var properties = Set(PlaceProperty.allCases)
    if let mask = a.value("fields") {
      do {
        properties = try PlaceProperty.parseFieldMask(mask)
      } catch {
        throw UsageError("--fields: \(error.message)")
      }
    }
    try PackedArtifactGiven.check(paths)
    let client = try PlacesClient(indexPaths: paths)
    let place = try client.fetchPlace(
      with: FetchPlaceRequest(
        placeID: a.positional[0], placeProperties: properties, languageCode: a.value("language")))
    let json = PlacesJSONProtocol.placeObject(place)
    if a.flag("json") {
      print(json.serialized)
    } else {
      if case .object(let pairs) = json {
        for (k, v) in pairs { print("\(k): \(v.serialized)") }
      }
    }
  }
}
