import PlaceCore
import PlaceIndexFormat

extension PlacesClient {
  /// Details of one place, with only the requested properties. A request with a session token
  /// ends that session in ``sessions``, as on every other path.
  public func fetchPlace(with request: FetchPlaceRequest) throws(PlacesError) -> Place {
    try request.sessionToken?.validate()
    let found = try place(for: request)
    sessions.recordSelection(request.sessionToken, placeID: request.placeID)
    return found
  }

  /// The details lookup behind both forms of `fetchPlace`.
  func place(for request: FetchPlaceRequest) throws(PlacesError) -> Place {
    if let code = PlacesClient.plusCode(ofPlaceID: request.placeID) {
      return try plusCodePlace(code, request: request)
    }
    guard let (kind, id) = PlacesClient.parsePlaceID(request.placeID) else {
      throw .invalidArgument(
        "'\(request.placeID)' is not a place ID (expected N, W, R or P and digits)")
    }
    for index in indexes {
      let found: (rank: Int, entry: PlaceEntry)?
      do throws(IndexFormatError) {
        if let rank = try index.places.ids.placeIndex(kind: kind, id: id) {
          found = (rank, try index.places.entry(rank))
        } else {
          found = nil
        }
      } catch {
        throw .index(error, path: index.file.path)
      }
      guard let (rank, e) = found else { continue }
      do throws(IndexFormatError) {
        return try details(of: e, rank: rank, in: index, request: request)
      } catch {
        throw .index(error, path: index.file.path)
      }
    }
    throw .notFound("no place with ID '\(request.placeID)'")
  }

  /// Async form of ``fetchPlace(with:)``, in the shape of the service's SDK.
  public func fetchPlace(with request: FetchPlaceRequest) async -> Result<Place, PlacesError> {
    do throws(PlacesError) {
      return .success(try fetchPlace(with: request) as Place)
    } catch {
      return .failure(error)
    }
  }

  /// Splits "N123" into (0, 123) (``PlaceID``).
  static func parsePlaceID(_ text: String) -> (UInt8, Int64)? {
    PlaceID(text).map { ($0.kind.rawValue, $0.id) }
  }

  private func details(
    of e: PlaceEntry, rank: Int, in index: LoadedIndex, request: FetchPlaceRequest
  ) throws(IndexFormatError) -> Place {
    let want = request.placeProperties
    let s = index.strings
    var place = Place()
    let coordinate = Coordinate(
      latitude: Double(e.latitudeE7) / 1e7, longitude: Double(e.longitudeE7) / 1e7)
    let components = try e.components.map { (c) throws(IndexFormatError) in
      let long = try s.string(c.long)
      return AddressComponent(
        kind: c.kind, longText: long, shortText: try c.short.map(s.string) ?? long)
    }
    if want.contains(.placeID) {
      place.placeID = PlaceRecord.placeID(kind: e.osmKind, id: e.osmID)
    }
    let texts = try LocalizedTexts(
      e, in: index,
      language: request.languageCode.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 },
      region: nil)
    if want.contains(.displayName) {
      place.displayName = texts.displayName
      place.displayNameLanguage = texts.displayNameLanguage
    }
    if want.contains(.formattedAddress) { place.formattedAddress = texts.formattedAddress }
    if want.contains(.addressComponents) { place.addressComponents = texts.components }
    if want.contains(.coordinate) { place.coordinate = coordinate }
    if want.contains(.viewport),
      let box = try index.viewports?.viewport(
        of: rank, latitudeE7: e.latitudeE7, longitudeE7: e.longitudeE7)
    {
      place.viewport = Viewport(
        low: Coordinate(latitude: box.south, longitude: box.west),
        high: Coordinate(latitude: box.north, longitude: box.east))
    }
    if want.contains(.types) { place.types = index.types.types(ofList: e.typeList) }
    if want.contains(.attributions) { place.attributions = [index.attribution] }
    if want.contains(.plusCode) {
      let global = try? OpenLocationCode.encode(
        latitude: coordinate.latitude, longitude: coordinate.longitude, codeLength: 10)
      if let global {
        let locality = components.first { $0.kind == .locality }?.longText
        place.plusCode = PlusCode(
          globalCode: global,
          compoundCode: compoundCode(of: global, at: coordinate, locality: locality))
      }
    }
    return place
  }
}
