import PlaceCore

extension PlacesClient {
  /// The place IDs of plus-code suggestions: this prefix and the full code,
  /// "GLOBAL_CODE:9GG65W9R+8V" (``fetchPlace(with:)`` answers them).
  public static let plusCodePlaceIDPrefix = "GLOBAL_CODE:"

  /// A `plus_code` suggestion when the query is a full plus code, or a short code recovered
  /// near a locality typed after it ("83+V5 Helsinki") or, without one, near the request's
  /// location (restriction, bias or origin); nil otherwise (a code prefix is not an error).
  /// The request's filters apply as to any place: the code's center must lie in the
  /// restriction, the types must take `plus_code`, and with countries the nearest settlement
  /// (within 20 km) must be in one of them.
  func plusCodeSuggestion(_ request: AutocompleteRequest, typeFilter: TypeFilter)
    throws(PlacesError) -> AutocompletePlaceSuggestion?
  {
    var text = request.query
    if let offset = request.filter.inputOffset {
      text = String(text.unicodeScalars.prefix(offset))
    }
    let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(
      String.init)
    guard let first = words.first, first.contains("+") else { return nil }
    let code = first.uppercased()
    let f = request.filter
    var full: String
    if OpenLocationCode.isFull(code) {
      full = code
    } else if OpenLocationCode.isShort(code) {
      let locality = words.dropFirst().joined(separator: " ")
      let requestLocation =
        f.coordinateRegionRestriction?.center ?? f.coordinateRegionBias?.center ?? f.origin
      guard
        let reference = locality.isEmpty ? requestLocation : referencePoint(for: locality),
        let recovered = try? OpenLocationCode.recoverNearest(code, reference: reference)
      else {
        return nil
      }
      full = recovered
    } else {
      return nil
    }
    guard let area = try? OpenLocationCode.decode(full) else { return nil }
    let center = area.center
    if let restriction = f.coordinateRegionRestriction, !restriction.contains(center) {
      return nil
    }
    guard typeFilter.accepts(primaryType: "plus_code", all: ["plus_code"]) else { return nil }
    let settlement = nearestSettlement(to: center)
    if !f.countries.isEmpty {
      let wanted = Set(f.countries.compactMap(RegionCodes.canonical))
      guard let country = settlement?.countryCode, wanted.contains(country) else { return nil }
    }
    var secondary = settlement?.label ?? ""
    if let settlement, let region = f.regionCode.flatMap(RegionCodes.canonical),
      settlement.countryCode == region
    {
      secondary = settlement.name  // the requested region's country is left out
    }
    let all = 0..<full.unicodeScalars.count
    return AutocompletePlaceSuggestion(
      placeID: PlacesClient.plusCodePlaceIDPrefix + full, types: ["plus_code"],
      distanceMeters: f.origin.map { Int($0.distance(to: center).rounded()) },
      fullText: MatchedText(
        text: secondary.isEmpty ? full : full + ", " + secondary, matches: [all]),
      primaryText: MatchedText(text: full, matches: [all]),
      secondaryText: MatchedText(text: secondary, matches: []))
  }

  /// The full code of a plus-code place ID ("GLOBAL_CODE:9GG65W9R+8V", the code in any case),
  /// or nil when `placeID` is not one.
  static func plusCode(ofPlaceID placeID: String) -> String? {
    let prefix = plusCodePlaceIDPrefix
    guard placeID.count > prefix.count, placeID.uppercased().hasPrefix(prefix) else { return nil }
    let code = String(placeID.dropFirst(prefix.count)).uppercased()
    guard OpenLocationCode.isFull(code), !code.contains("0") else { return nil }
    return code
  }

  /// The details of a plus-code place: the code's center, its codes, the settlement it is
  /// named by (as in the suggestion) and the type `plus_code`.
  func plusCodePlace(_ code: String, request: FetchPlaceRequest) throws(PlacesError) -> Place {
    guard let area = try? OpenLocationCode.decode(code) else {
      throw .invalidArgument("'\(request.placeID)' is not a place ID (a plus code that decodes)")
    }
    let center = area.center
    let want = request.placeProperties
    let settlement = nearestSettlement(to: center)
    let compound = compoundCode(of: code, at: center)
    var place = Place()
    if want.contains(.placeID) { place.placeID = PlacesClient.plusCodePlaceIDPrefix + code }
    if want.contains(.displayName) {
      place.displayName = code
      place.displayNameLanguage = ""
    }
    if want.contains(.formattedAddress) {
      place.formattedAddress =
        compound
        ?? ([code] + [settlement?.label].compactMap { $0 }).joined(
          separator: ", ")
    }
    if want.contains(.addressComponents) {
      place.addressComponents =
        settlement.map {
          [
            AddressComponent(
              kind: $0.isLocality ? .locality : .sublocality, longText: $0.name,
              shortText: $0.name)
          ]
            + $0.components.filter {
              $0.kind.rawValue > AddressComponentKind.sublocality.rawValue
            }
        } ?? []
    }
    if want.contains(.coordinate) { place.coordinate = center }
    if want.contains(.types) { place.types = ["plus_code"] }
    if want.contains(.plusCode) {
      place.plusCode = PlusCode(globalCode: code, compoundCode: compound)
    }
    if want.contains(.attributions) { place.attributions = attributions }
    return place
  }

  /// The position of the settlement a locality text names: the best-ranked city, town or
  /// village matching it, else the best-ranked borough or suburb (a compound code's reference
  /// where no locality is near, as "Manhattan" in Lower Manhattan).
  func referencePoint(for name: String) -> Coordinate? {
    for types in [["(cities)"], ["sublocality"]] {
      let request = AutocompleteRequest(
        query: name, filter: AutocompleteFilter(types: types), maxResultCount: 1)
      if let s = try? autocompleteSuggestions(for: request).first?.placeSuggestion,
        let place = try? fetchPlace(
          with: FetchPlaceRequest(placeID: s.placeID, placeProperties: [.coordinate])),
        let coordinate = place.coordinate
      {
        return coordinate
      }
    }
    return nil
  }
}
