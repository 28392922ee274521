import OSMReader
import PlaceCore
import PlaceIndexFormat

/// The naming, addressing and typing stage: turns extracted elements into places with a
/// primary text, a secondary text in the country's address convention, address components,
/// types, importance and search terms.
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
  }

  /// Assembles the places of `elements` into `store` (packed, on disk: the build keeps no
  /// place as Swift values) and counts them; returns the counts and the local texts (names
  /// in other languages of the places' address parts and countries, ``LocalTexts``).
  func assemble(_ elements: some Sequence<ExtractedElement>, into store: PlaceStore) throws
    -> (counts: Counts, localTexts: [String])
  {
    var counts = Counts()
    // Streets: one route place per (name, locality), by its position in the store, with the
    // smallest way id of its ways.
    var routeIndex: [String: Int] = [:]
    var routeMembers: [Int: [(Int32, Int32)]] = [:]
    var routeIDs: [Int: Int64] = [:]
    // The box around a merged street's ways.
    var routeBoxes: [Int: GeoBoxE7] = [:]
    // The terms of texts many places share (their street, town, region, country), found once.
    var terms = TermMemo(abbreviations: abbreviations)
    // Names in other languages of streets, settlements and admin areas, for the texts of
    // answers in a language (``LocalTexts``), and the texts and countries places show.
    var translations = Translations()
    for a in resolver.areas { translations.add(a.tags) }
    var shown = Translations.Shown()
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
          e, tags: tags, classification: classification, counts: &counts, terms: &terms)
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
        // Only ways near the street's first one join it: two towns of one name (a
        // "Hauptstraße" in each "Neustadt") keep a street each.
        if let i = routeIndex[key], let first = routeMembers[i]?.first,
          PlaceAssembler.distance(first, (e.latitudeE7, e.longitudeE7))
            <= PlaceAssembler.routeMergeReach
        {
          routeMembers[i, default: []].append((e.latitudeE7, e.longitudeE7))
          if let box = e.box {
            if routeBoxes[i] == nil { routeBoxes[i] = box } else { routeBoxes[i]!.include(box) }
          }
          // Keep the smallest way id, so the street's ID is stable and independent of order.
          if e.id < routeIDs[i]! && e.kind == .way { routeIDs[i] = e.id }
          counts.routesMerged += 1
          continue
        }
        routeIndex[key] = store.count
        routeMembers[store.count] = [(e.latitudeE7, e.longitudeE7)]
        routeIDs[store.count] = place.record.osmID
        if let box = place.record.viewport { routeBoxes[store.count] = box }
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
    }
    try store.finish()
    for (i, id) in routeIDs where id != store.key(i).id { store.patch(i, osmID: id) }
    for (i, points) in routeMembers where points.count > 1 {
      if let box = routeBoxes[i] { store.patch(i, viewport: box) }
    }
    // A merged street's point: the member point nearest the members' mean.
    for (i, points) in routeMembers where points.count > 1 {
      let meanLat = points.reduce(0.0) { $0 + Double($1.0) } / Double(points.count)
      let meanLon = points.reduce(0.0) { $0 + Double($1.1) } / Double(points.count)
      let best = points.min {
        let da =
          (Double($0.0) - meanLat) * (Double($0.0) - meanLat) + (Double($0.1) - meanLon)
          * (Double($0.1) - meanLon)
        let db =
          (Double($1.0) - meanLat) * (Double($1.0) - meanLat) + (Double($1.1) - meanLon)
          * (Double($1.1) - meanLon)
        return da < db
      }!
      store.patch(i, latitudeE7: best.0, longitudeE7: best.1)
    }
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
  /// Meters from a street's first way within which ways of the same name and locality join
  /// it as one street.
  static let routeMergeReach = 10_000.0

  /// Meters between two points in 1e-7 degrees.
  static func distance(_ a: (Int32, Int32), _ b: (Int32, Int32)) -> Double {
    Coordinate(latitude: Double(a.0) / 1e7, longitude: Double(a.1) / 1e7).distance(
      to: Coordinate(latitude: Double(b.0) / 1e7, longitude: Double(b.1) / 1e7))
  }

  private func cell(of e: ExtractedElement) -> String {
    "\(e.latitudeE7 / 500_000),\(e.longitudeE7 / 500_000)"
  }

  private func assemble(
    _ e: ExtractedElement, tags t: [String: String], classification: PlaceClassification?,
    counts: inout Counts, terms memo: inout TermMemo
  ) -> (AssembledPlace, CountrySource?)? {
    let name = t["name"] ?? t["brand"]
    let housenumber = PlaceAssembler.housenumber(t)
    let street = t["addr:street"] ?? t["addr:place"]
    var admin = resolver.resolve(
      latitudeE7: e.latitudeE7, longitudeE7: e.longitudeE7, tags: t,
      relation: e.kind == .relation ? e.id : nil)
    // An admin area or settlement lies only in the levels above its own.
    switch classification?.primaryType {
    case "country", "administrative_area_level_1":
      admin = AdminContext(
        countryCode: admin.countryCode, countryName: admin.countryName,
        countrySource: admin.countrySource)
    case "administrative_area_level_2":
      admin = AdminContext(
        countryCode: admin.countryCode, countryName: admin.countryName, region: admin.region,
        regionShort: admin.regionShort, countrySource: admin.countrySource)
    case "locality", "administrative_area_level_3", "postal_town":
      admin.locality = nil
      admin.sublocality = nil
      admin.postcode = t["addr:postcode"]
    case "sublocality", "sublocality_level_1", "neighborhood":
      admin.sublocality = nil
    default: break
    }
    let country = countries.country(admin.countryCode ?? "ZZ")
    let localityValues: [String: String] = [
      "postcode": admin.postcode ?? "", "locality": admin.locality ?? "",
      "region": admin.regionShort ?? admin.region ?? "",
    ]
    var streetLine: String? = nil
    if let housenumber, let street {
      streetLine = CountryTable.render(
        country.streetLine, ["housenumber": housenumber, "street": street])
    }
    guard let primary = name ?? streetLine, !primary.isEmpty else { return nil }
    var types = classification?.types ?? ["point_of_interest", "establishment"]
    if name == nil, classification == nil { types = ["street_address"] }
    let isSettlement =
      ["locality", "sublocality", "neighborhood", "country"].contains(types[0])
      || types[0].hasPrefix("administrative_area")

    // Secondary text: street line (for a named place), locality line, country.
    var secondary: [String] = []
    if name != nil, let streetLine { secondary.append(streetLine) }
    let ownName = name.map(TextNormalizer.fold)
    var localityLine = CountryTable.render(country.localityLine, localityValues)
    if isSettlement {
      // A town's own name is not its secondary text; its region and country are. A
      // district's are its city and country ("Kamppi": "Helsinki, Finland").
      let district =
        ["sublocality", "neighborhood"].contains(types[0]) || types[0].hasPrefix("sublocality_")
      let above = district ? (admin.locality ?? admin.region) : admin.region
      localityLine = [above].compactMap { $0 }.filter { TextNormalizer.fold($0) != ownName }
        .joined(separator: ", ")
    }
    if !localityLine.isEmpty { secondary.append(localityLine) }
    if let cn = admin.countryName, !cn.isEmpty, types[0] != "country" { secondary.append(cn) }

    // Address components, most specific first.
    var components: [AddressComponent] = []
    func add(_ kind: AddressComponentKind, _ long: String?, _ short: String? = nil) {
      guard let long, !long.isEmpty else { return }
      components.append(AddressComponent(kind: kind, longText: long, shortText: short ?? long))
    }
    add(.streetNumber, housenumber)
    add(.route, street)
    add(.subpremise, t["addr:unit"] ?? t["addr:flats"])
    add(.sublocality, admin.sublocality)
    add(.locality, admin.locality)
    add(.adminArea2, admin.adminArea2)
    add(.adminArea1, admin.region, admin.regionShort)
    add(.country, admin.countryName, admin.countryCode)
    add(.postalCode, admin.postcode)

    // Names.
    var names: [LocalizedName] = []
    for (k, v) in t where k.hasPrefix("name:") && !v.isEmpty {
      let lang = String(k.dropFirst(5))
      if lang.count <= 3 || lang.contains("-") {
        names.append(LocalizedName(language: lang, name: v))
      }
    }
    for k in PlaceAssembler.alternativeNameKeys {
      for v in (t[k] ?? "").split(separator: ";") where !v.isEmpty && String(v) != primary {
        names.append(LocalizedName(language: "", name: DataTable.trim(v)))
      }
    }
    // A name in another script gets its Latin spelling as an alternative name (as OSM's
    // name:ru-Latn), unless the data has one: the terms of alternative names need one.
    let latinSpellings = Transliteration.latin(primary, countryCode: admin.countryCode)
    if let first = latinSpellings.first, names.count < PlaceAssembler.maxNames,
      !names.contains(where: { $0.language.hasSuffix("-Latn") })
    {
      names.append(
        LocalizedName(
          language: Transliteration.languageTag(primary, countryCode: admin.countryCode),
          name: Transliteration.capitalized(first)))
    }
    names.sort { ($0.language, $0.name) < ($1.language, $1.name) }
    // The format's per-place limits (docs/LIMITS.md): at most this many alternative names.
    if names.count > PlaceAssembler.maxNames {
      names.removeLast(names.count - PlaceAssembler.maxNames)
    }

    // Search terms: the names (the primary text of an address is its street line), then the
    // context: the address of a named place, the postcode and the admin chain.
    var nameTexts = [primary]
    if name == nil, let street { nameTexts.append(street) }
    var contextTexts: [String] = []
    if name != nil, let streetLine { contextTexts.append(streetLine) }
    if let pc = admin.postcode { contextTexts.append(pc) }
    for part in [admin.sublocality, admin.locality, admin.region, admin.countryName] {
      if let part, TextNormalizer.fold(part) != ownName { contextTexts.append(part) }
    }
    var terms = Set<String>()
    for text in nameTexts { terms.formUnion(memo.terms(for: text)) }
    // Terms only the alternative names carry: they match, but rank below the primary name's.
    var altTerms = Set<String>()
    for n in names { altTerms.formUnion(memo.terms(for: n.name)) }
    // Latin spellings of the names in other scripts (the primary's and the alternative
    // names' in Cyrillic, Greek, Hebrew, Arabic, Han, Kana), for queries typed on a Latin
    // keyboard.
    for text in nameTexts + names.map(\.name) {
      for spelling in Transliteration.latin(text, countryCode: admin.countryCode) {
        altTerms.formUnion(memo.terms(for: spelling))
      }
    }
    altTerms.subtract(terms)
    var contextTerms = Set<String>()
    for text in contextTexts { contextTerms.formUnion(memo.terms(for: text)) }
    // Category words, so that "pharmacy" or "Apotheke" alone finds pharmacies.
    if types.contains("establishment") || types.contains("point_of_interest") {
      for type in types where rules.vocabulary.group(of: type) != PlaceTypeVocabulary.genericGroup {
        for word in synonyms.words(for: type, countryCode: admin.countryCode) {
          contextTerms.formUnion(memo.terms(for: word, abbreviated: false))
        }
      }
    }
    // The letter that ends a housenumber ("a" of "1a"), so that "keskuskatu 1 a" finds it; as
    // context, so that a one-letter query still finds names first.
    if let housenumber, let letter = PlaceAssembler.endingLetter(of: housenumber) {
      contextTerms.insert(letter)
    }
    contextTerms.subtract(terms)
    contextTerms.subtract(altTerms)
    terms = terms.filter { $0.utf8.count <= PlaceAssembler.maxTermBytes }
    altTerms = altTerms.filter { $0.utf8.count <= PlaceAssembler.maxTermBytes }
    contextTerms = contextTerms.filter { $0.utf8.count <= PlaceAssembler.maxTermBytes }

    var record = PlaceRecord(
      osmKind: e.kind.rawValue, osmID: e.id, latitudeE7: e.latitudeE7, longitudeE7: e.longitudeE7,
      importance: Importance.score(tags: t, classification: classification), typeList: 0,
      primaryText: primary, secondaryParts: secondary, countryCode: admin.countryCode ?? "",
      names: names, components: components)
    record.nameWordCount = min(Tokenizer.tokens(primary).count, Int(UInt16.max))
    record.viewport = e.box
    let place = AssembledPlace(
      record: record, types: types, terms: terms.sorted(), altTerms: altTerms.sorted(),
      contextTerms: contextTerms.sorted())
    return (place, admin.countrySource)
  }

  /// The folded letter that ends a housenumber glued to its digits ("a" of "1a", "б" of
  /// "5б"), or nil.
  static func endingLetter(of housenumber: String) -> String? {
    let folded = Array(TextNormalizer.fold(housenumber).unicodeScalars)
    guard folded.count >= 2, let last = folded.last, last.properties.isAlphabetic,
      folded[folded.count - 2].value &- 0x30 < 10
    else { return nil }
    return String(last)
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
