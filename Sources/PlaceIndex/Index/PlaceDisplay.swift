import PlaceCore
import PlaceIndexFormat

/// What a suggestion shows of a place, built from its record once and kept by the index for
/// the next requests that show it: its ID, types, primary and secondary texts prepared for
/// highlighting, and the key that finds its duplicates.
struct PlaceDisplay: Sendable {
  /// The place ID ("N240109189").
  let placeID: String
  /// Types, primary first.
  let types: [String]
  /// The name or street address, in the requested language when the place has it.
  let primary: MatchHighlighter.Prepared
  /// Locality, region, country (without the country when it is the requested region's).
  let secondary: MatchHighlighter.Prepared
  /// The primary text as typed.
  let primaryText: String
  /// The secondary text.
  let secondaryText: String
  /// Both texts joined by ", " (the primary alone when the secondary is empty).
  let fullText: String
  /// Where the secondary text starts in the full text, in Unicode scalars.
  let secondaryOffset: Int
  /// The folded primary text: places with the same key, primary type and position are one.
  let duplicateKey: String
  /// For a stop or station, the name its nodes are compared by (``StationNames``); else empty.
  let stationName: String

  /// Which display of which place: the language and region of the request change the texts.
  struct Key: Hashable, Sendable {
    var rank: Int
    var language: String?
    var region: String?
  }

  /// Builds the display of place `key.rank` of `index`.
  init(_ index: LoadedIndex, _ key: Key, abbreviations a: Abbreviations) throws(IndexFormatError) {
    let e = try index.places.entry(key.rank)
    let texts = try LocalizedTexts(
      e, in: index, language: key.language, region: key.region, details: false)
    let primary = texts.displayName
    let secondary = texts.secondaryParts.joined(separator: ", ")
    placeID = PlaceRecord.placeID(kind: e.osmKind, id: e.osmID)
    types = index.types.types(ofList: e.typeList)
    primaryText = primary
    secondaryText = secondary
    fullText = secondary.isEmpty ? primary : primary + ", " + secondary
    secondaryOffset = primary.unicodeScalars.count + 2
    self.primary = index.prepared(primary, abbreviations: a)
    self.secondary = index.prepared(secondary, abbreviations: a)
    duplicateKey = TextNormalizer.fold(primary)
    stationName =
      Ranking.transitTypes.contains(types.first ?? "") ? StationNames.stationName(primary) : ""
  }
}
