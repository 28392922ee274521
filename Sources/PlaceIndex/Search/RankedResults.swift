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
}

extension PlacesClient {
  /// Searches every index for `plan` as one (``LoadedIndex/search(_:_:filter:typeFilter:limit:regionLookup:)``)
  /// and folds duplicates (``Ranking/areDuplicates(_:_:distance:)``) until the request's
  /// result count is shown.
  func ranked(_ request: AutocompleteRequest, plan: QueryPlan, typeFilter: TypeFilter)
    throws(PlacesError) -> RankedResults
  {
    let limit = max(1, request.maxResultCount)
    let found: [ScoredPlace]
    do {
      found = try LoadedIndex.search(
        indexes, plan, filter: request.filter, typeFilter: typeFilter,
        limit: limit * Ranking.candidatesPerResult)
    } catch let e as PlacesError {
      throw e
    } catch let e as IndexFormatError {
      throw .index(e)
    } catch {
      throw .index(
        .corrupt(path: indexes.first?.file.path ?? "?", section: "?", offset: 0, reason: "\(error)")
      )
    }
    var results = RankedResults()
    var seen: [(key: String, type: String, point: Coordinate)] = []
    var tables = [Abbreviations?](repeating: nil, count: indexes.count)
    for f in found {
      guard results.shown.count < limit else { break }
      // Each index's abbreviations are fetched once per request: the cell takes a lock and
      // the table's storage is shared by every thread.
      if tables[f.shard] == nil { tables[f.shard] = try? indexes[f.shard].abbreviations }
      guard let a = tables[f.shard],
        let (s, key) = try? suggestion(for: f, plan: plan, filter: request.filter, abbreviations: a)
      else { continue }
      // The same shop mapped as node and building: same name, same or no specific type, close
      // together.
      let point = Coordinate(
        latitude: Double(f.latitudeE7) / 1e7, longitude: Double(f.longitudeE7) / 1e7)
      let type = s.types.first ?? ""
      if let into = seen.firstIndex(where: {
        $0.key == key
          && Ranking.areDuplicates(type, $0.type, distance: $0.point.distance(to: point))
      }) {
        results.collapsed.append((RankedResults.Result(place: f, suggestion: s), into))
        continue
      }
      seen.append((key, type, point))
      results.shown.append(RankedResults.Result(place: f, suggestion: s))
    }
    return results
  }
}

/// A suggestion with its score in parts, and the places folded into it (`--explain`).
package struct ExplainedSuggestion: Sendable {
  package var suggestion: AutocompletePlaceSuggestion
  package var score: Double
  package var breakdown: ScoreBreakdown
  /// The places left out as duplicates of this one, with their scores in parts.
  package var collapsed: [(suggestion: AutocompletePlaceSuggestion, breakdown: ScoreBreakdown)]
}

extension PlacesClient {
  /// What ``autocompleteSuggestions(for:)`` shows for `request`, each with its score in parts
  /// and the duplicates folded into it; empty for a query with no words and for a plus code.
  package func explainedSuggestions(for request: AutocompleteRequest) throws(PlacesError)
    -> [ExplainedSuggestion]
  {
    let typeFilter = try validate(request)
    let plan = QueryPlan(query: request.query, inputOffset: request.filter.inputOffset)
    if plan.tokens.isEmpty { return [] }
    if try plusCodeSuggestion(request, typeFilter: typeFilter) != nil { return [] }
    let results = try ranked(request, plan: plan, typeFilter: typeFilter)
    let limit = max(1, request.maxResultCount) * Ranking.candidatesPerResult
    let words: [[ResolvedToken]]
    do {
      words = try LoadedIndex.resolveWords(indexes, plan, limit: limit).words
    } catch let e as IndexFormatError {
      throw .index(e)
    } catch {
      throw .index(
        .corrupt(path: indexes.first?.file.path ?? "?", section: "?", offset: 0, reason: "\(error)")
      )
    }
    func parts(_ p: ScoredPlace) throws(PlacesError) -> ScoreBreakdown {
      let index = indexes[p.shard]
      do {
        return try index.breakdown(
          of: p, words: words[p.shard], plan: plan, filter: request.filter,
          typeFilter: typeFilter, limit: limit)
      } catch let e as PlacesError {
        throw e
      } catch let e as IndexFormatError {
        throw .index(e.withPath(index.file.path))
      } catch {
        throw .index(.corrupt(path: index.file.path, section: "?", offset: 0, reason: "\(error)"))
      }
    }
    var out: [ExplainedSuggestion] = []
    for r in results.shown {
      out.append(
        ExplainedSuggestion(
          suggestion: r.suggestion, score: r.place.score, breakdown: try parts(r.place),
          collapsed: []))
    }
    for (r, into) in results.collapsed {
      out[into].collapsed.append((r.suggestion, try parts(r.place)))
    }
    return out
  }
}
