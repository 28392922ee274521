extension PlacesJSONProtocol {
  /// A Place Details (New) response body for `place`: one JSON object with only the fields it
  /// has (`GET /v1/places/ID`, `placeidx details --json`).
  public static func encodePlace(_ place: Place) -> String { placeObject(place).serialized }

  /// The Place Details (New) JSON shape of `place`, with only the fields it has.
  public static func placeObject(_ place: Place) -> JSONValue {
    var fields: [(String, JSONValue)] = []
    if let id = place.placeID { fields.append(("id", .string(id))) }
    if let name = place.displayName {
      fields.append(
        (
          "displayName",
          .object(
            [("text", .string(name))]
              + (place.displayNameLanguage.map { [("languageCode", .string($0))] } ?? []))
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
    if let v = place.viewport {
      func corner(_ c: Coordinate) -> JSONValue {
        .object([("latitude", .number(c.latitude)), ("longitude", .number(c.longitude))])
      }
      fields.append(("viewport", .object([("low", corner(v.low)), ("high", corner(v.high))])))
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
