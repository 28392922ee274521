import Foundation
import PlaceCore
import PlaceIndexFormat

/// The places a request found over all of a client's indexes, in the order shown, and those
/// folded into a place shown before them (the same shop as node and building, a street in
/// pieces).
struct RankedResults {
  /// A found place and its suggestion.
  struct Result {
    var place: ScoredPlace
    var suggestion: AutocompletePlaceSuggestion
  }
  /// What the request shows, best first, at most its result count.
  var shown: [Result] = []
  /// The places left out as duplicates, each with the position in ``shown`` of the place it
  /// was folded into.
  var collapsed: [(result: Result, into: Int)] = []
  /// How many places the search that found them was asked for (its decisions, such as
  /// looking up typos when it finds fewer, depend on it).
  var searchLimit = 0
}

extension PlacesClient {
  /// Searches every index for `plan` as one (``LoadedIndex/search(_:_:filter:typeFilter:limit:regionLookup:filterAfter:)``)
  /// and folds duplicates (``Ranking/areDuplicates(_:_:distance:)``) until the request's
  /// result count is shown.
  func ranked(_ request: AutocompleteRequest, plan: QueryPlan, typeFilter: TypeFilter)
    throws(PlacesError) -> RankedResults
  {
    let limit = max(1, request.maxResultCount)
    let (results, full) = try ranked(
      request, plan: plan, typeFilter: typeFilter, perResult: Ranking.candidatesPerResult)
    // Folding left the page short while the search had more to give (a station mapped as
    // many nodes): search again, deeper.
    guard results.shown.count < limit, full else { return results }
    return try ranked(
      request, plan: plan, typeFilter: typeFilter,
      perResult: Ranking.candidatesPerResultWhenShort
    ).results
  }

  /// ``ranked(_:plan:typeFilter:)`` with the search finding `perResult` times the requested
  /// results; `full` says whether it found that many (so more may follow).
  private func ranked(
    _ request: AutocompleteRequest, plan: QueryPlan, typeFilter: TypeFilter, perResult: Int
  ) throws(PlacesError) -> (results: RankedResults, full: Bool) {
    let limit = max(1, request.maxResultCount)
    let found: [ScoredPlace]
    do throws(IndexFormatError) {
      // The search's errors name the index's file (``LoadedIndex/located(_:)``).
      found = try LoadedIndex.search(
        indexes, plan, filter: request.filter, typeFilter: typeFilter,
        limit: limit * perResult)
    } catch {
      throw .index(error)
    }
    var results = RankedResults()
    var seen: [Shown] = []
    var tables = [Abbreviations?](repeating: nil, count: indexes.count)
    // Each found place's suggestion, built when first needed (nil: not built; .some(nil): none).
    var built = [Shown??](repeating: nil, count: found.count)
    func shown(_ i: Int) -> Shown? {
      if let b = built[i] { return b }
      let f = found[i]
      // Each index's abbreviations are fetched once per request: the cell takes a lock and
      // the table's storage is shared by every thread.
      if tables[f.shard] == nil { tables[f.shard] = try? indexes[f.shard].abbreviations }
      var out: Shown?
      if let a = tables[f.shard],
        let (s, key, station) = try? suggestion(
          for: f, plan: plan, filter: request.filter, abbreviations: a)
      {
        out = Shown(place: f, suggestion: s, key: key, stationName: station)
      }
      built[i] = .some(out)
      return out
    }
    // What the reordering compares, read from the records alone (no display is built for a
    // place looked ahead at).
    var peeked = [PlacePeek??](repeating: nil, count: found.count)
    func peek(_ i: Int) -> PlacePeek? {
      if let p = peeked[i] { return p }
      // Kept for the next keystrokes, which look at the same places again.
      let index = indexes[found[i].shard]
      let p = try? index.recent.peeks.value(for: found[i].rank) { () throws(IndexFormatError) in
        try PlacePeek(found[i], in: index)
      }
      peeked[i] = .some(p)
      return p
    }
    // The order shown: the found order, but a stop or station goes after a place of its name
    // (the street, square or building it is named after) found below it, and a neighbourhood
    // after the point of interest of its name that it is the grounds of.
    var order = Array(found.indices)
    var moved = Set<Int>()
    // How many stops went after each place so far: the next goes after them, in found order.
    var after: [Int: Int] = [:]
    var at = 0
    while at < order.count, results.shown.count < limit {
      let i = order[at]
      guard let r = shown(i) else {
        at += 1
        continue
      }
      if r.isTransit || r.type == "neighborhood", !moved.contains(i), let me = peek(i),
        let later = order[(at + 1)...].firstIndex(where: { j in
          // Only a place within the reach of either rule is read.
          guard me.point.distance(to: PlacePeek.point(found[j])) < PlacePeek.reach,
            let o = peek(j)
          else { return false }
          return me.comesAfter(o)
        })
      {
        moved.insert(i)
        let place = order[later]
        order.insert(i, at: later + 1 + after[place, default: 0])
        after[place, default: 0] += 1
        order.remove(at: at)
        continue
      }
      at += 1
      // The same shop mapped as node and building: same name, same or no specific type, close
      // together.
      if let into = seen.firstIndex(where: { $0.isDuplicate(of: r) }) {
        results.collapsed.append(
          (RankedResults.Result(place: r.place, suggestion: r.suggestion), into))
        continue
      }
      seen.append(r)
      results.shown.append(RankedResults.Result(place: r.place, suggestion: r.suggestion))
    }
    results.searchLimit = limit * perResult
    return (results, found.count >= limit * perResult)
  }
}

/// A found place as a suggestion, with what folding duplicates compares.
private struct Shown {
  var place: ScoredPlace
  var suggestion: AutocompletePlaceSuggestion
  /// The folded name (``PlaceDisplay/duplicateKey``).
  var key: String
  var type: String
  var point: Coordinate
  /// Whether the place is a public transport stop or station (``Ranking/transitTypes``).
  var isTransit: Bool
  /// Whether the place is an establishment shown with a street address, which another
  /// establishment of its name at that address duplicates (computed when compared: most
  /// results are never compared so).
  var isShopAtAddress: Bool {
    // An establishment whose secondary text starts with a street address (a number in its
    // first part: "100 Delancey Street, New York…", "Pohjoisesplanadi 37, Helsinki…").
    let firstPart = suggestion.secondaryText.text.split(separator: ",").first ?? ""
    return !isTransit && suggestion.types.contains("establishment")
      && firstPart.contains(where: \.isNumber) && firstPart.contains(where: \.isLetter)
  }
  /// A stop's or station's folded name outside parentheses (``baseName(_:)``) without the
  /// words that say "station" or "stop" (``Ranking/stationWords``): "Metro Helsingin
  /// yliopisto" is the station "Helsingin yliopisto". Folded once per display, kept with it
  /// (every later result is compared with it); empty for other places.
  let stationName: String

  /// `stationName` is the display's (``PlaceDisplay/stationName``: empty but for a stop or
  /// station, by the same primary type as ``isTransit``).
  init(
    place: ScoredPlace, suggestion: AutocompletePlaceSuggestion, key: String,
    stationName: String
  ) {
    self.place = place
    self.suggestion = suggestion
    self.key = key
    type = suggestion.types.first ?? ""
    point = Coordinate(
      latitude: Double(place.latitudeE7) / 1e7, longitude: Double(place.longitudeE7) / 1e7)
    isTransit = Ranking.transitTypes.contains(type)
    self.stationName = stationName
  }

  /// Whether `other`, found after this, is the same thing (``Ranking/areDuplicates``): the
  /// same name and type close by; a station's nodes; a shop mapped twice at one address.
  func isDuplicate(of other: Shown) -> Bool {
    if isTransit && other.isTransit && stationName == other.stationName {
      return point.distance(to: other.point) < Ranking.stationRadius(type == other.type)
    }
    guard key == other.key else { return false }
    let distance = point.distance(to: other.point)
    if Ranking.areDuplicates(type, other.type, distance: distance) { return true }
    return isShopAtAddress && other.isShopAtAddress && distance < Ranking.sameAddressRadius
      && suggestion.secondaryText.text == other.suggestion.secondaryText.text
  }
}

/// A found place's name, type and position from its record, for the reordering of stops,
/// stations and grounds (``Shown/isTransit``): cheaper than its display.
struct PlacePeek: Sendable {
  var key: String
  var baseName: String
  var type: String
  var isTransit: Bool
  var isEstablishment: Bool
  var point: Coordinate

  init(_ f: ScoredPlace, in index: LoadedIndex) throws(IndexFormatError) {
    let e = try index.places.entry(f.rank)
    let name = try index.strings.string(e.primaryText)
    key = TextNormalizer.fold(name)
    baseName =
      name.contains("(") ? StationNames.baseName(name) : StationNames.words(ofFolded: key)
    type = index.primaryTypeOfList[e.typeList]
    isTransit = Ranking.transitTypes.contains(type)
    isEstablishment = index.types.types(ofList: e.typeList).contains("establishment")
    point = Self.point(f)
  }

  /// The farthest a place can be from one shown after it (``comesAfter(_:)``).
  static let reach = max(Ranking.namedAfterRadius, Ranking.groundsRadius)

  /// The position of a found place.
  static func point(_ f: ScoredPlace) -> Coordinate {
    Coordinate(latitude: Double(f.latitudeE7) / 1e7, longitude: Double(f.longitudeE7) / 1e7)
  }

  /// Whether this is shown after `other`, found after it: a stop or station after the place
  /// it is named after (``Ranking/namedAfterRadius``); a stop after a station beside it
  /// (``Ranking/stopTypes``); a neighbourhood after the point of
  /// interest of its name that it lies around (a castle's grounds, ``Ranking/groundsRadius``),
  /// one of a kind: not a bare "point of interest" (``Ranking/genericTypes``), which says no
  /// more than that something there bears the neighbourhood's name (Fells Point, Baltimore).
  func comesAfter(_ other: PlacePeek) -> Bool {
    if isTransit {
      let distance = point.distance(to: other.point)
      // A stop after the station beside it.
      if Ranking.stopTypes.contains(type), other.isTransit, !Ranking.stopTypes.contains(other.type),
        other.type != "ferry_terminal"
      {
        return distance < Ranking.stopNearStationRadius
      }
      return !other.isTransit && baseName == other.baseName && distance < Ranking.namedAfterRadius
    }
    return type == "neighborhood" && key == other.key && other.isEstablishment
      && !Ranking.genericTypes.contains(other.type)
      && point.distance(to: other.point) < Ranking.groundsRadius
  }

}

/// A suggestion with its score in parts, and the places folded into it (`--explain`).
package struct ExplainedSuggestion: Sendable {
  package var suggestion: AutocompletePlaceSuggestion
  package var score: Double
  package var breakdown: ScoreBreakdown
  /// The places left out as duplicates of this one, with their scores in parts.
  package var collapsed: [(suggestion: AutocompletePlaceSuggestion, breakdown: ScoreBreakdown)]
  /// The area the query was read as naming, when no place carried every word and the rest
  /// was sought in it (``NearAreaReading``); the breakdown is then of the rest's words.
  package var area: AutocompletePlaceSuggestion? = nil
}

extension PlacesClient {
  /// What ``autocompleteSuggestions(for:)`` shows for `request`, each with its score in parts
  /// and the duplicates folded into it; empty for a query with no words and for a plus code.
  package func explainedSuggestions(for request: AutocompleteRequest) throws(PlacesError)
    -> [ExplainedSuggestion]
  {
    let typeFilter = try validate(request)
    var plan = QueryPlan(query: request.query, inputOffset: request.filter.inputOffset)
    if plan.tokens.isEmpty { return [] }
    if try plusCodeSuggestion(request, typeFilter: typeFilter) != nil { return [] }
    var results = try ranked(request, plan: plan, typeFilter: typeFilter)
    // As suggestions(for:) reads it: perhaps a kind of place near a named area.
    var filter = request.filter
    var area: AutocompletePlaceSuggestion? = nil
    if results.shown.allSatisfy({ $0.place.missing > 0 }),
      let reading = try nearAreaReading(request, plan: plan, typeFilter: typeFilter)
    {
      results = reading.results
      plan = reading.plan
      filter = reading.filter
      area = reading.area
    }
    let limit = results.searchLimit
    let words: [[ResolvedToken]]
    do throws(IndexFormatError) {
      words = try LoadedIndex.resolveWords(indexes, plan, limit: limit).words
    } catch {
      throw .index(error)
    }
    func parts(_ p: ScoredPlace) throws(PlacesError) -> ScoreBreakdown {
      let index = indexes[p.shard]
      do throws(IndexFormatError) {
        return try index.breakdown(
          of: p, words: words[p.shard], plan: plan, filter: filter,
          typeFilter: typeFilter, limit: limit)
      } catch {
        throw .index(error, path: index.file.path)
      }
    }
    var out: [ExplainedSuggestion] = []
    for r in results.shown {
      out.append(
        ExplainedSuggestion(
          suggestion: r.suggestion, score: r.place.score, breakdown: try parts(r.place),
          collapsed: [], area: area))
    }
    for (r, into) in results.collapsed {
      out[into].collapsed.append((r.suggestion, try parts(r.place)))
    }
    return out
  }
}
