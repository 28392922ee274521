import PlaceCore

extension PlacesClient {
  /// A `plus_code` suggestion when the query is a full plus code, or a short code recovered
  /// near a locality typed after it ("83+V5 Helsinki") or, without one, near the request's
  /// location (restriction, bias or origin); nil otherwise (a code prefix is not an error).
  func plusCodeSuggestion(_ request: AutocompleteRequest) throws(PlacesError)
    -> AutocompletePlaceSuggestion?
  {
    var text = request.query
    if let offset = request.filter.inputOffset {
      text = String(text.unicodeScalars.prefix(offset))
    }
    let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(
      String.init)
    guard let first = words.first, first.contains("+") else { return nil }
    let code = first.uppercased()
    var full: String
    if OpenLocationCode.isFull(code) {
      full = code
    } else if OpenLocationCode.isShort(code) {
      let locality = words.dropFirst().joined(separator: " ")
      let f = request.filter
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
    let secondary = localityName(near: center) ?? ""
    let all = 0..<full.unicodeScalars.count
    return AutocompletePlaceSuggestion(
      placeID: "GLOBAL_CODE:" + full, types: ["plus_code"],
      distanceMeters: request.filter.origin.map { Int($0.distance(to: center).rounded()) },
      fullText: MatchedText(
        text: secondary.isEmpty ? full : full + ", " + secondary, matches: [all]),
      primaryText: MatchedText(text: full, matches: [all]),
      secondaryText: MatchedText(text: secondary, matches: []))
  }

  /// The position of the best-ranked locality matching `name`.
  func referencePoint(for name: String) -> Coordinate? {
    let request = AutocompleteRequest(
      query: name, filter: AutocompleteFilter(types: ["(cities)"]), maxResultCount: 1)
    guard let s = try? autocompleteSuggestions(for: request).first?.placeSuggestion,
      let place = try? fetchPlace(
        with: FetchPlaceRequest(placeID: s.placeID, placeProperties: [.coordinate]))
    else { return nil }
    return place.coordinate
  }

  /// "Locality, Country" of the locality nearest `point` within 20 km, or else of the nearest
  /// neighbourhood (sublocality) within 20 km: the city, as in a compound code, over a
  /// district of it.
  func localityName(near point: Coordinate) -> String? {
    // Per kind (locality, then sublocality): the name and distance of the nearest.
    var best: [String: (String, Double)] = [:]
    for index in indexes {
      // Places are in rank order; the first few thousand hold every settlement.
      for rank in 0..<min(index.placeCount, 5000) {
        guard let e = try? index.places.entry(rank) else { break }
        let primaryType = index.primaryTypeOfList[e.typeList]
        guard primaryType == "locality" || primaryType == "sublocality" else { continue }
        let c = Coordinate(
          latitude: Double(e.latitudeE7) / 1e7, longitude: Double(e.longitudeE7) / 1e7)
        let d = c.distance(to: point)
        if d < 20_000, d < best[primaryType]?.1 ?? .infinity,
          let name = try? index.strings.string(e.primaryText)
        {
          let country = e.components.first { $0.kind == .country }.flatMap {
            try? index.strings.string($0.long)
          }
          best[primaryType] = ([name, country].compactMap { $0 }.joined(separator: ", "), d)
        }
      }
    }
    return (best["locality"] ?? best["sublocality"])?.0
  }
}
