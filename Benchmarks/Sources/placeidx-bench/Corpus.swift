import Foundation
import PlaceCore
@_spi(Testing) import PlaceIndex

/// One place of a built index, as the public API shows it: what the targets are drawn from and
/// what the peer's database is built from, so both systems hold the same places.
struct CorpusPlace: Sendable {
  /// Position in the index (most important first); also the peer's row id.
  var rank: Int
  var placeID: String
  /// The display name (for an address place, its street address).
  var name: String
  /// The formatted address, in the country's convention, including the name.
  var formattedAddress: String
  /// The formatted address without the leading name.
  var rest: String
  var locality: String
  var country: String
  var coordinate: Coordinate
  var types: [String]
  var hasStreetNumber: Bool
  /// Whether the name is the street address (a place without a name of its own).
  var nameIsStreetAddress: Bool
  /// The folded name, to tell a duplicate of the same place (node and building) from another.
  var foldedName: String
  /// Address components the Tantivy peer indexes in fields of their own.
  var street = ""
  var houseNumber = ""
  var postcode = ""
  var sublocality = ""
  /// The place's names in other scripts than its display name's (`name:zh`, `name:ta`, …),
  /// for named POIs, places and streets only: typo variants are drawn from them too.
  var otherScriptNames: [String] = []
}

/// One line of the corpus file the Tantivy peer is built from (`Corpus.exportJSONL`).
struct CorpusLine: Codable {
  var rank: Int
  var placeID: String
  var name: String
  var formattedAddress: String
  var locality: String
  var sublocality: String
  var country: String
  var street: String
  var houseNumber: String
  var postcode: String
  var lat: Double
  var lon: Double
  var types: [String]
  /// The place's names in other scripts (`CorpusPlace.otherScriptNames`): the Tantivy peer's
  /// alternative names.
  var altNames: [String] = []
}

/// Every place of one index, in rank order.
struct Corpus: Sendable {
  var places: [CorpusPlace]
  var rankOfID: [String: Int]

  /// Walks the index with the public API: place ID by rank, then place details.
  init(index: LoadedIndex) throws {
    let client = PlacesClient(indexes: [index])
    var places: [CorpusPlace] = []
    var rankOfID: [String: Int] = [:]
    places.reserveCapacity(index.placeCount)
    let fields: Set<PlaceProperty> = [
      .displayName, .formattedAddress, .coordinate, .types, .addressComponents,
    ]
    for rank in 0..<index.placeCount {
      let id = try index.placeIDForTesting(rank: rank)
      let p = try client.fetchPlace(with: FetchPlaceRequest(placeID: id, placeProperties: fields))
      let name = p.displayName ?? ""
      let address = p.formattedAddress ?? name
      var rest = address
      if address == name {
        rest = ""
      } else if address.hasPrefix(name + ", ") {
        rest = String(address.dropFirst(name.count + 2))
      }
      let components = p.addressComponents ?? []
      let route = components.first { $0.kind == .route }?.longText ?? ""
      let number = components.first { $0.kind == .streetNumber }?.longText ?? ""
      places.append(
        CorpusPlace(
          rank: rank, placeID: id, name: name, formattedAddress: address, rest: rest,
          locality: components.first { $0.kind == .locality }?.longText ?? "",
          country: components.first { $0.kind == .country }?.longText ?? "",
          coordinate: p.coordinate ?? Coordinate(latitude: 0, longitude: 0),
          types: p.types ?? [],
          hasStreetNumber: !number.isEmpty,
          nameIsStreetAddress: !route.isEmpty && !number.isEmpty && name.contains(route)
            && name.contains(number),
          foldedName: TextNormalizer.fold(name), street: route, houseNumber: number,
          postcode: components.first { $0.kind == .postalCode }?.longText ?? "",
          sublocality: components.first { $0.kind == .sublocality || $0.kind == .neighborhood }?
            .longText ?? ""))
      if rankOfID[id] == nil { rankOfID[id] = rank }
      if let c = Category.of(places[rank]), c == .poi || c == .place || c == .street {
        places[rank].otherScriptNames = try Self.otherScriptNames(
          of: id, name: name, client: client,
          languages: try index.nameLanguagesForTesting(rank: rank))
      }
    }
    self.places = places
    self.rankOfID = rankOfID
  }

  var count: Int { places.count }

  /// Languages whose names are written in another script than Latin, asked for in turn.
  static let otherScriptLanguages = [
    "zh", "ja", "ko", "ru", "uk", "be", "bg", "sr", "el", "hy", "ka", "he", "ar", "fa", "hi",
    "ta", "th",
  ]

  /// The names of place `id` in `otherScriptLanguages` that are in another script than `name`
  /// and not Latin, each once; `languages` are those of its alternative names.
  static func otherScriptNames(
    of id: String, name: String, client: PlacesClient, languages: Set<String>
  ) throws -> [String] {
    let own = Script.of(name)
    var out: [String] = []
    // A language the place has no name in shows its plain name: only its own are asked for.
    for language in otherScriptLanguages where languages.contains(language) {
      let p = try client.fetchPlace(
        with: FetchPlaceRequest(
          placeID: id, placeProperties: [.displayName], languageCode: language))
      guard let n = p.displayName, n != name, !out.contains(n) else { continue }
      let script = Script.of(n)
      if script != .latin && script != own { out.append(n) }
    }
    return out
  }

  /// Writes every place as one JSON line, in rank order (the Tantivy peer's input), to a
  /// temporary name first, then to `path`.
  func exportJSONL(path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var data = Data()
    for p in places {
      let line = CorpusLine(
        rank: p.rank, placeID: p.placeID, name: p.name, formattedAddress: p.formattedAddress,
        locality: p.locality, sublocality: p.sublocality, country: p.country, street: p.street,
        houseNumber: p.houseNumber, postcode: p.postcode, lat: p.coordinate.latitude,
        lon: p.coordinate.longitude, types: p.types, altNames: p.otherScriptNames)
      data.append(try encoder.encode(line))
      data.append(0x0A)
    }
    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
  }

  /// Whether the place at `rank` stands for `target`: the target itself, or another
  /// representation of the same thing. That is the same folded name within 150 m (a shop
  /// mapped as a node and as a building), or, for areas and streets, which OSM often holds in
  /// several pieces (a town as node and boundary, a county as relation and way, a street in
  /// segments), the same name and primary type within 100 km (countries, regions, counties),
  /// 10 km (localities) or 2 km (neighbourhoods, streets). Applied alike to both systems.
  func isEquivalent(_ rank: Int, to target: Int) -> Bool {
    if rank == target { return true }
    guard rank >= 0, rank < places.count else { return false }
    let a = places[rank]
    let b = places[target]
    guard a.foldedName == b.foldedName else { return false }
    let d = a.coordinate.distance(to: b.coordinate)
    if d < 150 { return true }
    guard let type = b.types.first, a.types.first == type else { return false }
    return d < Corpus.pieceRadius(type)
  }

  /// How far apart two pieces of one area or street of this primary type may lie.
  static func pieceRadius(_ primaryType: String) -> Double {
    switch primaryType {
    case "country", "administrative_area_level_1", "administrative_area_level_2": 100_000
    case "locality", "administrative_area_level_3", "postal_town": 10_000
    case "sublocality", "neighborhood", "route": 2_000
    default: 150
    }
  }
}
