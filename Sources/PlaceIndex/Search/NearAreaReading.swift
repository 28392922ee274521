import Foundation
import PlaceCore
import PlaceIndexFormat

/// A query read as a kind of place in or near a named area: "cafe kamppi", "hotel near vaduz",
/// "kamppi cafe", "pharmacy 00100". When no place carries every typed word, the words are
/// split into an area (the last or first one to three words, a locality, neighbourhood,
/// administrative area or postcode that they name) and what is sought there (the rest, less
/// a word such as "near" or "in" between the two), and the rest is searched inside the area's
/// box. A place that carries every word is always shown as it is: the reading is only for
/// queries that find none.
struct NearAreaReading {
  /// The results, found with ``plan`` and ``filter``.
  var results: RankedResults
  /// The words sought in the area.
  var plan: QueryPlan
  /// The request's filter, restricted to the area's box.
  var filter: AutocompleteFilter
  /// The area's suggestion.
  var area: AutocompletePlaceSuggestion

  /// Words that join what is sought to the area ("cafe near kamppi"), folded; dropped where
  /// the two parts meet.
  static let joiningWords: Set<String> = Set(
    [
      "near", "in", "at", "around", "by", "nahe", "bei", "im", "um", "lähellä", "nära", "vid",
      "i", "près", "à", "en", "cerca", "de", "perto", "em", "vicino", "a", "около", "возле",
      "в", "у",
    ].map { TextNormalizer.fold($0) })

  /// The primary types of an area that a query may name.
  static let areaTypes: Set<String> = [
    "locality", "sublocality", "neighborhood", "postal_town", "postal_code", "colloquial_area",
    "administrative_area_level_1", "administrative_area_level_2", "administrative_area_level_3",
    "administrative_area_level_4",
  ]

  /// The fewest letters of each word that names an area.
  static let leastAreaLetters = 3
  /// How many of the best places for the area's words are looked at for an area.
  static let areaAmong = 10
  /// The least half-size of an area's box, in degrees of latitude (about 300 m): an area
  /// mapped as a point has a small default box.
  static let leastHalfSize = 0.0027
}

/// What an area lookup depends on: the words that name it, whether the last is finished, and
/// the origin and bias of the request (``PlacesClient/recentAreas``).
struct AreaKey: Hashable, Sendable {
  var words: [String]
  var lastIsFinished: Bool
  var filter: AutocompleteFilter
}

/// An area a query's words name, and the box what is sought there is searched in.
struct AreaFound: Sendable {
  var suggestion: AutocompletePlaceSuggestion
  var region: CoordinateRegion
}

extension PlacesClient {
  /// `plan` read as a kind of place near a named area, when a split of its words finds an
  /// area and places in it (the first split that does, the area last before the area first,
  /// fewer area words before more); nil when none does, or when the request restricts its
  /// region already.
  func nearAreaReading(
    _ request: AutocompleteRequest, plan: QueryPlan, typeFilter: TypeFilter
  ) throws(PlacesError) -> NearAreaReading? {
    let words = plan.tokens
    guard words.count >= 2, request.filter.coordinateRegionRestriction == nil else { return nil }
    for areaLast in [true, false] {
      for k in 1...min(3, words.count - 1) {
        let areaWords = areaLast ? Array(words.suffix(k)) : Array(words.prefix(k))
        var sought = areaLast ? Array(words.dropLast(k)) : Array(words.dropFirst(k))
        // The joining word between the two parts.
        if areaLast, let last = sought.last, NearAreaReading.joiningWords.contains(last) {
          sought.removeLast()
        } else if !areaLast, let first = sought.first, NearAreaReading.joiningWords.contains(first)
        {
          sought.removeFirst()
        }
        // An area is named by words of 3 letters or more (not a number: a postcode is every
        // place's context there, and a full match without this reading).
        guard !sought.isEmpty,
          areaWords.allSatisfy({
            $0.unicodeScalars.count >= NearAreaReading.leastAreaLetters
              && $0.unicodeScalars.first?.properties.numericType == nil
          })
        else { continue }
        var areaPlan = plan
        areaPlan.tokens = areaWords
        areaPlan.lastIsFinished = areaLast ? plan.lastIsFinished : true
        guard let (area, box) = try area(named: areaPlan, request: request) else { continue }
        var soughtPlan = plan
        soughtPlan.tokens = sought
        soughtPlan.lastIsFinished = areaLast ? true : plan.lastIsFinished
        var filter = request.filter
        filter.coordinateRegionRestriction = box
        filter.inputOffset = nil
        var inArea = request
        inArea.filter = filter
        var results = try ranked(inArea, plan: soughtPlan, typeFilter: typeFilter)
        guard !results.shown.isEmpty, results.shown.allSatisfy({ $0.place.missing == 0 })
        else { continue }
        // Every typed word but the joining one shows as matched where it is found.
        var shown = plan
        shown.tokens = sought + areaWords
        try highlight(&results, plan: shown, filter: filter)
        return NearAreaReading(results: results, plan: soughtPlan, filter: filter, area: area)
      }
    }
    return nil
  }

  /// The first area (``NearAreaReading/areaTypes``) among the best places for `plan`'s words
  /// (``NearAreaReading/areaAmong``), one whose name carries every word, and its box. The
  /// search is the query's own, not one for areas alone: its cost is a query's, and an area is
  /// among the most important places of its name.
  private func area(named plan: QueryPlan, request: AutocompleteRequest) throws(PlacesError)
    -> (AutocompletePlaceSuggestion, CoordinateRegion)?
  {
    var filter = AutocompleteFilter()
    filter.origin = request.filter.origin
    filter.coordinateRegionBias = request.filter.coordinateRegionBias
    // The next keystrokes split the same words off again ("triesenberg" before "abzw. m",
    // "abzw. ms", …): the answer, found or not, is kept by what it depends on.
    let key = AreaKey(words: plan.tokens, lastIsFinished: plan.lastIsFinished, filter: filter)
    let found = try recentAreas.value(for: key) { () throws(PlacesError) -> AreaFound? in
      try findArea(named: plan, filter: filter, request: request)
    }
    return found.map { ($0.suggestion, $0.region) }
  }

  /// ``area(named:request:)`` computed.
  private func findArea(
    named plan: QueryPlan, filter: AutocompleteFilter, request: AutocompleteRequest
  ) throws(PlacesError) -> AreaFound? {
    var asked = request
    asked.filter = filter
    asked.maxResultCount = NearAreaReading.areaAmong
    let results = try ranked(asked, plan: plan, typeFilter: .any)
    guard
      let best = results.shown.first(where: {
        $0.place.missing == 0 && NearAreaReading.areaTypes.contains($0.suggestion.types.first ?? "")
      })
    else { return nil }
    let index = indexes[best.place.shard]
    let (lat, lng) = (best.place.latitudeE7, best.place.longitudeE7)
    var box: (south: Double, north: Double, west: Double, east: Double)
    do throws(IndexFormatError) {
      guard
        let b = try index.viewports?.viewport(
          of: best.place.rank, latitudeE7: lat, longitudeE7: lng)
      else { return nil }
      box = (b.south, b.north, b.west, b.east)
    } catch {
      throw .index(error, path: index.file.path)
    }
    // At least about 300 m each way from the area's point (an area mapped as a point).
    let half = NearAreaReading.leastHalfSize
    let (y, x) = (Double(lat) / 1e7, Double(lng) / 1e7)
    let widen = half / max(0.01, cos(y * .pi / 180))
    box.south = min(box.south, y - half)
    box.north = max(box.north, y + half)
    box.west = min(box.west, x - widen)
    box.east = max(box.east, x + widen)
    let region = CoordinateRegion.rectangle(
      low: Coordinate(latitude: max(-90, box.south), longitude: max(-180, box.west)),
      high: Coordinate(latitude: min(90, box.north), longitude: min(180, box.east)))
    return AreaFound(suggestion: best.suggestion, region: region)
  }

  /// `results`' suggestions with the matches of `plan`'s words.
  private func highlight(
    _ results: inout RankedResults, plan: QueryPlan, filter: AutocompleteFilter
  )
    throws(PlacesError)
  {
    for i in results.shown.indices {
      let p = results.shown[i].place
      let index = indexes[p.shard]
      do throws(IndexFormatError) {
        guard let a = try? index.abbreviations else { continue }
        results.shown[i].suggestion = try suggestion(
          for: p, plan: plan, filter: filter, abbreviations: a
        ).0
      } catch {
        throw .index(error, path: index.file.path)
      }
    }
  }
}
