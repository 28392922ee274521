import OSMReader
import PlaceCore
import PlaceIndexFormat

/// The naming, addressing and typing stage: turns extracted elements into places with a
/// primary text, a secondary text in the country's address convention, address components,
/// types, importance and search terms.
///
/// One place's parts come from one function each: its admin areas
/// (``adminContext(of:tags:primaryType:)``), secondary text
/// (``secondaryText(name:streetLine:types:admin:country:)``), address components
/// (``addressComponents(housenumber:street:tags:admin:)``), names
/// (``alternativeNames(tags:primary:countryCode:)``) and terms
/// (``searchTerms(_:memo:)``); the ways of one street join one place (``StreetMerger``).
struct PlaceAssembler {
  let rules: TypeRules
  let resolver: AdminResolver
  let countries: CountryTable
  let abbreviations: Abbreviations
  let synonyms: TypeSynonyms

  /// Most alternative names kept per place (the reader accepts up to 1023).
  static let maxNames = 256
  /// Longest search term kept, in UTF-8 bytes (longer words are not typed by anyone).
  static let maxTermBytes = 255

  /// Tags whose values are alternative names of a place.
  static let alternativeNameKeys = [
    "alt_name", "old_name", "short_name", "official_name", "loc_name", "brand", "int_name",
  ]

  /// Figures for the build report.
  struct Counts: Sendable {
    var places = 0
    var unmapped = 0
    var withCountry = 0
    var withLocality = 0
    var withFullAddress = 0
    var routesMerged = 0
    /// Named sidewalks, crossings and signals: parts of a street, not places.
    var streetPartsSkipped = 0
    /// Places by where their country came from (``CountrySource``; a merged street counts
    /// once).
    var countrySources: [CountrySource: Int] = [:]
    var unmappedCombinations: [String: Int] = [:]
    /// The postcodes derived as places of their own (``PostcodeAreas``), among ``places``.
    var postcodes = PostcodeAreas.Counts()
  }

  /// Assembles the places of `elements` into `store` (packed, on disk: the build keeps no
  /// place as Swift values) and counts them; returns the counts and the local texts (names
  /// in other languages of the places' address parts and countries, ``LocalTexts``).
  func assemble(_ elements: some Sequence<ExtractedElement>, into store: PlaceStore) throws
    -> (counts: Counts, localTexts: [String])
  {
    var counts = Counts()
    // Streets: one route place per (name, locality), by its position in the store.
    var streets = StreetMerger()
    // The terms of texts many places share (their street, town, region, country), found once.
    var terms = TermMemo(abbreviations: abbreviations)
    // Names in other languages of streets, settlements and admin areas, for the texts of
    // answers in a language (``LocalTexts``), and the texts and countries places show.
    var translations = Translations()
    for a in resolver.areas { translations.add(a.tags) }
    var shown = Translations.Shown()
    // The places' postcodes, tallied by area, to become places of their own at the end.
    var postcodes = PostcodeAreas()
    for e in elements {
      let tags = e.tags.dictionary
      translations.add(tags)
      let classification = rules.classify(tags)
      if classification == nil, PlaceAssembler.isStreetPart(tags) {
        counts.streetPartsSkipped += 1
        continue
      }
      guard
        let (place, source) = assemble(
          e, tags: tags, classification: classification, terms: &terms)
      else {
        continue
      }
      if classification == nil, tags["name"] != nil {
        counts.unmapped += 1
        let key = rules.unmatchedKey(tags) ?? "(no feature tag)"
        counts.unmappedCombinations[key, default: 0] += 1
      }
      if place.types.first == "route" {
        let locality =
          place.record.components.first { $0.kind == .locality }?.longText ?? cell(of: e)
        let key = TextNormalizer.fold(place.record.primaryText) + "|" + locality
        if streets.join(e, key: key) {
          counts.routesMerged += 1
          continue
        }
        streets.start(e, key: key, place: place.record, at: store.count)
      }
      if let source { counts.countrySources[source, default: 0] += 1 }
      counts.places += 1
      let p = place.record
      if !p.countryCode.isEmpty { counts.withCountry += 1 }
      if p.components.contains(where: { $0.kind == .locality }) { counts.withLocality += 1 }
      let kinds = Set(p.components.map(\.kind))
      if kinds.isSuperset(of: [.streetNumber, .route, .locality, .country]) {
        counts.withFullAddress += 1
      }
      shown.add(p)
      try store.append(place)
      postcodes.add(place, countries: countries)
    }
    let derived = postcodes.places { id, country, spelling, locality, n, lat, lon, viewport in
      postcodePlace(
        id: id, country: country, spelling: spelling, locality: locality, places: n,
        latitudeE7: lat, longitudeE7: lon, viewport: viewport, terms: &terms)
    }
    for place in derived {
      counts.places += 1
      if !place.record.countryCode.isEmpty {
        counts.withCountry += 1
        counts.countrySources[.itsPlaces, default: 0] += 1
      }
      if place.record.components.contains(where: { $0.kind == .locality }) {
        counts.withLocality += 1
      }
      shown.add(place.record)
      try store.append(place)
    }
    counts.postcodes = postcodes.counts
    try store.finish()
    streets.patch(store)
    return (counts, translations.entries(for: shown, countries: countries))
  }

  /// Whether untyped tags describe a part of a street: a sidewalk or crossing carrying the
  /// street's name ("Orchard Street" three times over), or a signal or crossing node. Such
  /// an element answers no search the street does not answer better.
  static func isStreetPart(_ t: [String: String]) -> Bool {
    guard let highway = t["highway"], PlaceAssembler.housenumber(t) == nil else { return false }
    if let f = t["footway"], streetPartWays.contains(f) { return true }
    if let c = t["cycleway"], streetPartWays.contains(c) { return true }
    return streetPartNodes.contains(highway)
  }

  /// `footway=*` / `cycleway=*` values of ways that are part of a street.
  static let streetPartWays: Set<String> = ["sidewalk", "crossing", "traffic_island"]
  /// `highway=*` values of street furniture and crossings.
  static let streetPartNodes: Set<String> = [
    "crossing", "traffic_signals", "stop", "give_way", "street_lamp",
  ]

  /// A coarse grid cell name (about 5 km), grouping unlocated streets.
  private func cell(of e: ExtractedElement) -> String {
    "\(e.latitudeE7 / 500_000),\(e.longitudeE7 / 500_000)"
  }

  /// One element as a place, from its parts; nil when it has no name and no address.
  private func assemble(
    _ e: ExtractedElement, tags t: [String: String], classification: PlaceClassification?,
    terms memo: inout TermMemo
  ) -> (AssembledPlace, CountrySource?)? {
    let name = t["name"] ?? t["brand"]
    let housenumber = PlaceAssembler.housenumber(t)
    let street = t["addr:street"] ?? t["addr:place"]
    let admin = adminContext(of: e, tags: t, primaryType: classification?.primaryType)
    let country = countries.country(admin.countryCode ?? "ZZ")
    var streetLine: String? = nil
    if let housenumber, let street {
      streetLine = CountryTable.render(
        country.streetLine, ["housenumber": housenumber, "street": street])
    }
    guard let primary = name ?? streetLine, !primary.isEmpty else { return nil }
    var types = classification?.types ?? ["point_of_interest", "establishment"]
    if name == nil, classification == nil { types = ["street_address"] }

    let secondary = secondaryText(
      name: name, streetLine: streetLine, types: types, admin: admin, country: country)
    let components = addressComponents(
      housenumber: housenumber, street: street, tags: t, admin: admin)
    let names = alternativeNames(tags: t, primary: primary, countryCode: admin.countryCode)
    let found = searchTerms(
      TermSources(
        primary: primary, name: name, street: street, streetLine: streetLine,
        housenumber: housenumber, names: names, types: types, admin: admin),
      memo: &memo)

    var record = PlaceRecord(
      osmKind: e.kind.rawValue, osmID: e.id, latitudeE7: e.latitudeE7, longitudeE7: e.longitudeE7,
      importance: Importance.score(tags: t, classification: classification), typeList: 0,
      primaryText: primary, secondaryParts: secondary, countryCode: admin.countryCode ?? "",
      names: names, components: components)
    record.nameWordCount = min(Tokenizer.tokens(primary).count, Int(UInt16.max))
    record.viewport = e.box
    let place = AssembledPlace(
      record: record, types: types, terms: found.terms, altTerms: found.altTerms,
      contextTerms: found.contextTerms)
    return (place, admin.countrySource)
  }

  /// The housenumber, combining Czech conscription and street numbers as "3191/17".
  static func housenumber(_ t: [String: String]) -> String? {
    if let hn = t["addr:housenumber"], !hn.isEmpty { return hn }
    if let c = t["addr:conscriptionnumber"] {
      if let s = t["addr:streetnumber"] { return "\(c)/\(s)" }
      return c
    }
    return nil
  }
}
