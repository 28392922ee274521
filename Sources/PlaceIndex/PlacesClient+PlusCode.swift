import PlaceCore

extension PlacesClient {
  /// A `plus_code` suggestion when the query is a full plus code, or a short code followed by
  /// a locality found in the index; nil otherwise (a code prefix is not an error).
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
    } else if OpenLocationCode.isShort(code), words.count > 1 {
      let locality = words.dropFirst().joined(separator: " ")
      guard let reference = referencePoint(for: locality) else { return nil }
      guard let recovered = try? OpenLocationCode.recoverNearest(code, reference: reference) else {
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

  /// "Locality, Country" of the place nearest `point` that has a locality, within 20 km.
  func localityName(near point: Coordinate) -> String? {
    var best: (String, Double)? = nil
    for index in indexes {
      // Places are in rank order; the first few thousand hold every settlement.
      for rank in 0..<min(index.placeCount, 5000) {
        guard let e = try? index.places.entry(rank) else { break }
        let primaryType = index.primaryTypeOfList[e.typeList]
        guard primaryType == "locality" || primaryType == "sublocality" else { continue }
        let c = Coordinate(
          latitude: Double(e.latitudeE7) / 1e7, longitude: Double(e.longitudeE7) / 1e7)
        let d = c.distance(to: point)
        if d < 20_000, best == nil || d < best!.1,
          let name = try? index.strings.string(e.primaryText)
        {
          let country = e.components.first { $0.kind == .country }.flatMap {
            try? index.strings.string($0.long)
          }
          best = ([name, country].compactMap { $0 }.joined(separator: ", "), d)
        }
      }
    }
    return best?.0
  }
}
