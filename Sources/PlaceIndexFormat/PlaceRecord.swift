// PLACES section layout: a record table (RecordTable.swift) of the place records in rank
// order. A record (all varints; "sid" = string id in STRINGS; "text ref" as in
// TextRef.swift); the numbers come first so that ranking reads no strings, and no tokens or
// OSM elements are stored (POSTINGS tells which places carry a word, and where; PLACE IDS
// which element a place is):
//   context id                          into CONTEXTS: reference point, country, secondary
//                                       text and address components, shared between places
//   zigzag latitude, zigzag longitude   in 1e-7 degrees, minus the context's reference point
//   (type list id << 5) | f             type list: into TYPES; f = the flags below when they
//                                       are less than 31, else 31 and the flags follow
//   [flags]                             (words << 2) | (s << 1) | a, words: in the primary
//                                       text (ranking: whole-name matches); s = 1: a street
//                                       number follows; a = 1: the place has alternative names
//   [(sid of the street number << 2) | shape]   when s = 1: the first address component, and
//                                       how the primary text is given: 0 written (a text ref
//                                       follows), 1 the street, a space and the number, 2 the
//                                       number, a space and the street (the street: the first
//                                       route component of the context)
//   [text ref of the primary text]      unless the shape gives it
//   [n, then n × (sid language, sid name)]   when a = 1: the alternative names ("" language =
//                                       no language)

import PlaceCore

/// A place as the writer takes it and the reader returns it.
package struct PlaceRecord: Sendable, Hashable {
  /// 0 node, 1 way, 2 relation.
  package var osmKind: UInt8
  /// The OSM id.
  package var osmID: Int64
  /// Latitude in 1e-7 degrees.
  package var latitudeE7: Int32
  /// Longitude in 1e-7 degrees.
  package var longitudeE7: Int32
  /// Higher is more important.
  package var importance: UInt16
  /// Id of the place's type list in TYPES.
  package var typeList: Int
  /// Number of words in the primary text.
  package var nameWordCount: Int = 0
  /// The name, or "street number" for an address.
  package var primaryText: String
  /// Disambiguating parts, most specific first; the country name last when known.
  package var secondaryParts: [String]
  /// ISO 3166-1 alpha-2 code, or "" when unknown.
  package var countryCode: String
  /// Names in other languages or alternative names: (language or "", name).
  package var names: [LocalizedName]
  /// Address components.
  package var components: [AddressComponent]
  /// The bounding box of a way's or relation's geometry (VIEWPORTS), or nil.
  package var viewport: GeoBoxE7? = nil
  /// Creates a record.
  package init(
    osmKind: UInt8, osmID: Int64, latitudeE7: Int32, longitudeE7: Int32, importance: UInt16,
    typeList: Int, primaryText: String, secondaryParts: [String], countryCode: String,
    names: [LocalizedName], components: [AddressComponent]
  ) {
    self.osmKind = osmKind
    self.osmID = osmID
    self.latitudeE7 = latitudeE7
    self.longitudeE7 = longitudeE7
    self.importance = importance
    self.typeList = typeList
    self.primaryText = primaryText
    self.secondaryParts = secondaryParts
    self.countryCode = countryCode
    self.names = names
    self.components = components
  }

  /// The place ID: kind letter and decimal id, e.g. "N240109189".
  package var placeID: String { PlaceRecord.placeID(kind: osmKind, id: osmID) }

  /// The place ID of element `kind` (0 node, 1 way, 2 relation) and `id`, e.g. "N240109189".
  package static func placeID(kind: UInt8, id: Int64) -> String {
    PlaceID(kind: kind, id: id)?.description ?? "?\(id)"
  }
}

/// A name with its language tag ("" when the tag has none, e.g. `alt_name`).
package struct LocalizedName: Sendable, Hashable {
  /// Language code, e.g. "sv", or "" for the default name and alternatives.
  package var language: String
  /// The name.
  package var name: String

  /// Creates a name.
  package init(language: String, name: String) {
    self.language = language
    self.name = name
  }
}
