import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexFormat

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
    let json = encode(place)
    if a.flag("json") {
      print(json.serialized)
    } else {
      if case .object(let pairs) = json {
        for (k, v) in pairs { print("\(k): \(v.serialized)") }
      }
    }
  }

  /// The Place Details (New) JSON shape of `place`, with only the fields it has.
  static func encode(_ place: Place) -> JSONValue {
    var fields: [(String, JSONValue)] = []
    if let id = place.placeID { fields.append(("id", .string(id))) }
    if let name = place.displayName {
      fields.append(
        (
          "displayName",
          .object([
            ("text", .string(name)), ("languageCode", .string(place.displayNameLanguage ?? "")),
          ])
        ))
    }
    if let f = place.formattedAddress { fields.append(("formattedAddress", .string(f))) }
    if let components = place.addressComponents {
      fields.append(
        (
          "addressComponents",
          .array(
            components.map { c in
              .object([
                ("longText", .string(c.longText)), ("shortText", .string(c.shortText)),
                ("types", .array(c.kind.types.map { .string($0) })),
              ])
            })
        ))
    }
    if let c = place.coordinate {
      fields.append(
        (
          "location",
          .object([("latitude", .number(c.latitude)), ("longitude", .number(c.longitude))])
        ))
    }
    if let code = place.plusCode {
      var pc: [(String, JSONValue)] = [("globalCode", .string(code.globalCode))]
      if let compound = code.compoundCode { pc.append(("compoundCode", .string(compound))) }
      fields.append(("plusCode", .object(pc)))
    }
    if let t = place.types { fields.append(("types", .array(t.map { .string($0) }))) }
    if let a = place.attributions {
      fields.append(("attributions", .array(a.map { .object([("provider", .string($0))]) })))
    }
    return .object(fields)
  }
}
