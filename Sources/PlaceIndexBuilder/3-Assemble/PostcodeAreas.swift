import PlaceCore
import PlaceIndexFormat

/// Postcodes as places of their own, derived from the places that carry them: "00100" is
/// answered with the postcode "00100, Helsinki, Finland" (type `postal_code`), as the hosted
/// service answers it, and not only with the places whose address holds it.
///
/// Every place whose address has a postcode from its own `addr:postcode` tag counts towards
/// its postcode in its country. The places of one postcode are gathered by squares of
/// ``cellE7`` (0.2°, about 22 km); squares that touch (their eight neighbours) are one area,
/// so that a postcode mapped in two far towns, or in every copy of a tiled extract, is one
/// place per town. An area of at least ``leastPlaces`` places becomes a place: at the mean of
/// its places' positions, with their bounding box as its viewport, the most common spelling
/// of the code as its name, the most common locality of its places as its locality, and the
/// admin areas that hold its position, the importance of a postcode area and more for more
/// places (``Importance/postcodePlacesWeight(_:)``). A postcode that the extract maps as a named area
/// (`boundary=postal_code` with a `name`) is a place already and is not derived again (an
/// area without a name is no place: it gives the places inside it their postcode, and they
/// give the postcode its place); a code that does not
/// fit its country's postcode format (``CountryTable/postcode(_:fits:)``), or outside a known
/// format is not 2 to 10 letters and digits with at least one digit (spaces and hyphens
/// between them), is left out ("00100; 00120").
///
/// A derived postcode has the place ID "P" and
/// ``PlaceID/postcodeID(country:code:latitudeE7:longitudeE7:)`` (kind 3 in PLACE IDS, format
/// 8.0), from its country, code and the degree its centre lies in: the same in every build
/// while the centre stays in that degree, the same in a shard as in one index over the
/// region, and the next free id in the order of country, code and area when two draw the same.
///
/// Memory: one tally per postcode and square, not per place (the places stay in the store).
struct PostcodeAreas {
  /// The side of a square, in 1e-7 degrees (0.2°).
  static let cellE7: Int32 = 2_000_000
  /// The fewest places an area needs: one address alone is as likely a typo as a postcode.
  static let leastPlaces = 2
  /// The most letters and digits of a code outside a known format.
  static let longestCode = 10

  /// Figures for the build report.
  struct Counts: Sendable, Equatable {
    /// Postcode places derived.
    var derived = 0
    /// Codes left out for not being a postcode of their country.
    var malformed = 0
    /// Areas with fewer than ``leastPlaces`` places.
    var tooFew = 0
  }

  private struct Key: Hashable, Comparable {
    var country: String
    /// Letters and digits, upper case.
    var code: String
    var cellLat: Int32
    var cellLon: Int32

    static func < (a: Key, b: Key) -> Bool {
      (a.country, a.code, a.cellLat, a.cellLon) < (b.country, b.code, b.cellLat, b.cellLon)
    }
  }

  private struct Tally {
    var places = 0
    var sumLat: Int64 = 0
    var sumLon: Int64 = 0
    var box: GeoBoxE7
    var spellings: [String: Int] = [:]
    var localities: [String: Int] = [:]

    mutating func add(_ other: Tally) {
      places += other.places
      sumLat += other.sumLat
      sumLon += other.sumLon
      box = GeoBoxE7(
        south: min(box.south, other.box.south), west: min(box.west, other.box.west),
        north: max(box.north, other.box.north), east: max(box.east, other.box.east))
      spellings.merge(other.spellings, uniquingKeysWith: +)
      localities.merge(other.localities, uniquingKeysWith: +)
    }
  }

  private var tallies: [Key: Tally] = [:]
  /// The codes of the postcode areas that are places, in any country.
  private var mapped = Set<String>()
  /// Codes already judged, by "CC|spelling": nil when malformed.
  private var judged: [String: String?] = [:]
  private(set) var counts = Counts()

  /// The code's letters and digits, upper case ("sw1a 1aa" → "SW1A1AA").
  static func compact(_ code: String) -> String {
    var out = ""
    for s in code.uppercased().unicodeScalars
    where s.properties.isAlphabetic || s.properties.numericType != nil {
      out.unicodeScalars.append(s)
    }
    return out
  }

  /// Whether `code` looks like a postcode where no format is known: 2 to ``longestCode``
  /// ASCII letters and digits, at least one digit, single spaces or hyphens between them.
  static func isPlausible(_ code: String) -> Bool {
    let scalars = Array(code.unicodeScalars)
    guard let first = scalars.first, let last = scalars.last else { return false }
    func alnum(_ s: Unicode.Scalar) -> Bool {
      s.isASCII && (("0"..."9").contains(s) || ("A"..."Z").contains(s) || ("a"..."z").contains(s))
    }
    guard alnum(first), alnum(last) else { return false }
    var letters = 0
    var digits = 0
    var previousSeparator = false
    for s in scalars {
      if alnum(s) {
        letters += 1
        if ("0"..."9").contains(s) { digits += 1 }
        previousSeparator = false
      } else if s == " " || s == "-" {
        if previousSeparator { return false }
        previousSeparator = true
      } else {
        return false
      }
    }
    return digits > 0 && (2...longestCode).contains(letters)
  }

  /// Counts `place` towards its postcode (from its own `addr:postcode`, or from the postcode
  /// area that holds it); a postcode area's own place marks its code as mapped.
  mutating func add(_ place: AssembledPlace, countries: CountryTable) {
    let record = place.record
    let spelling = record.components.first(where: { $0.kind == .postalCode })?.longText
    if place.types.first == "postal_code" {
      mapped.insert(Self.compact(spelling ?? record.primaryText))
      return
    }
    guard let spelling else { return }
    let country = record.countryCode
    let judgedKey = country + "|" + spelling
    let code: String?
    if let known = judged[judgedKey] {
      code = known
    } else {
      let trimmed = DataTable.trim(spelling)
      // The country's format, as typed or without its spaces and hyphens ("67 433").
      var fits: Bool? = nil
      if !country.isEmpty, let f = countries.postcode(trimmed, fits: country) {
        fits = f || countries.postcode(Self.compact(trimmed), fits: country) == true
      }
      code = Self.isPlausible(trimmed) && fits != false ? Self.compact(trimmed) : nil
      judged[judgedKey] = code
      if code == nil { counts.malformed += 1 }
    }
    guard let code else { return }
    let key = Key(
      country: country, code: code, cellLat: Self.cell(record.latitudeE7),
      cellLon: Self.cell(record.longitudeE7))
    let point = GeoBoxE7(
      south: record.latitudeE7, west: record.longitudeE7, north: record.latitudeE7,
      east: record.longitudeE7)
    var tally = tallies[key] ?? Tally(box: point)
    tally.add(
      Tally(
        places: 1, sumLat: Int64(record.latitudeE7), sumLon: Int64(record.longitudeE7),
        box: point, spellings: [DataTable.trim(spelling): 1],
        localities: record.components.first(where: { $0.kind == .locality }).map {
          [$0.longText: 1]
        } ?? [:]))
    tallies[key] = tally
  }

  private static func cell(_ e7: Int32) -> Int32 {
    e7 >= 0 ? e7 / cellE7 : (e7 - cellE7 + 1) / cellE7
  }

  /// The postcode places, in the order of country, code and area, each with its ID; `make`
  /// assembles one from its ID, code, locality, number of places, position and viewport.
  mutating func places(
    _ make: (
      _ id: Int64, _ country: String, _ spelling: String, _ locality: String?,
      _ places: Int, _ latitudeE7: Int32, _ longitudeE7: Int32, _ viewport: GeoBoxE7
    ) ->
      AssembledPlace?
  ) -> [AssembledPlace] {
    // The areas of each postcode: its squares joined with those they touch.
    var areas: [(key: Key, tally: Tally)] = []
    let keys = tallies.keys.sorted()
    var start = 0
    while start < keys.count {
      var end = start
      while end < keys.count, keys[end].country == keys[start].country,
        keys[end].code == keys[start].code
      {
        end += 1
      }
      let squares = Array(keys[start..<end])
      var area = Array(squares.indices)
      func root(_ i: Int) -> Int {
        var i = i
        while area[i] != i { i = area[i] }
        return i
      }
      for i in squares.indices {
        for j in squares.indices where j > i {
          let a = squares[i]
          let b = squares[j]
          guard abs(a.cellLat - b.cellLat) <= 1, abs(a.cellLon - b.cellLon) <= 1 else { continue }
          let (ri, rj) = (root(i), root(j))
          if ri != rj { area[max(ri, rj)] = min(ri, rj) }
        }
      }
      var joined: [Int: Tally] = [:]
      for i in squares.indices {
        let r = root(i)
        if joined[r] == nil {
          joined[r] = tallies[squares[i]]!
        } else {
          joined[r]!.add(tallies[squares[i]]!)
        }
      }
      for r in joined.keys.sorted() { areas.append((squares[r], joined[r]!)) }
      start = end
    }
    tallies = [:]
    var used = Set<Int64>()
    var out: [AssembledPlace] = []
    for (key, tally) in areas where !mapped.contains(key.code) {
      guard tally.places >= Self.leastPlaces else {
        counts.tooFew += 1
        continue
      }
      let spelling = Self.mostCommon(tally.spellings)!
      let lat = Int32(tally.sumLat / Int64(tally.places))
      let lon = Int32(tally.sumLon / Int64(tally.places))
      var id = PlaceID.postcodeID(
        country: key.country, code: key.code, latitudeE7: lat, longitudeE7: lon)
      while used.contains(id) { id = (id + 1) % PlaceID.postcodeIDs }
      used.insert(id)
      if let place = make(
        id, key.country, spelling, Self.mostCommon(tally.localities), tally.places, lat, lon,
        tally.box)
      {
        out.append(place)
        counts.derived += 1
      }
    }
    return out
  }

  /// The most frequent key, the first in order of those that tie.
  private static func mostCommon(_ counts: [String: Int]) -> String? {
    counts.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key
  }
}

extension PlaceAssembler {
  /// The derived postcode place `id` of `spelling` in `country`: named by its code, in the
  /// admin areas that hold its position (with `locality`, its places' most common one), typed
  /// as a `boundary=postal_code` area is.
  func postcodePlace(
    id: Int64, country: String, spelling: String, locality: String?, places: Int,
    latitudeE7: Int32, longitudeE7: Int32, viewport: GeoBoxE7, terms memo: inout TermMemo
  ) -> AssembledPlace? {
    let tags = ["boundary": "postal_code", "postal_code": spelling]
    guard let classification = rules.classify(tags) else { return nil }
    var admin = resolver.resolve(
      latitudeE7: latitudeE7, longitudeE7: longitudeE7,
      tags: locality.map { ["addr:city": $0] } ?? [:])
    if let locality { admin.locality = locality }
    admin.sublocality = nil
    admin.postcode = nil
    if !country.isEmpty {
      admin.countryCode = country
      let row = countries.country(country)
      if countries.contains(country), !row.name.isEmpty { admin.countryName = row.name }
    }
    let countryRow = countries.country(admin.countryCode ?? "ZZ")
    let types = classification.types
    // The secondary text without the code, which is the name: "Helsinki, Finland".
    let secondary = secondaryText(
      name: spelling, streetLine: nil, types: types, admin: admin, country: countryRow)
    var withCode = admin
    withCode.postcode = spelling
    let components = addressComponents(housenumber: nil, street: nil, tags: [:], admin: withCode)
    let found = searchTerms(
      TermSources(
        primary: spelling, name: spelling, street: nil, streetLine: nil, housenumber: nil,
        names: [], types: types, admin: admin),
      memo: &memo)
    var record = PlaceRecord(
      osmKind: PlaceID.Kind.postcode.rawValue, osmID: id, latitudeE7: latitudeE7,
      longitudeE7: longitudeE7,
      importance: UInt16(
        clamping: Int(Importance.score(tags: tags, classification: classification))
          + Importance.postcodePlacesWeight(places)), typeList: 0,
      primaryText: spelling, secondaryParts: secondary, countryCode: admin.countryCode ?? "",
      names: [], components: components)
    record.nameWordCount = min(Tokenizer.tokens(spelling).count, Int(UInt16.max))
    if viewport.south < viewport.north || viewport.west < viewport.east {
      record.viewport = viewport
    }
    return AssembledPlace(
      record: record, types: types, terms: found.terms, altTerms: found.altTerms,
      contextTerms: found.contextTerms)
  }
}
