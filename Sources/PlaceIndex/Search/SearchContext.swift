import Foundation
import PlaceCore
import PlaceIndexFormat

/// What a search checks per place besides its text: filters and the point it ranks nearness to.
struct SearchContext {
  let filter: AutocompleteFilter
  let typeFilter: TypeFilter
  let limit: Int
  /// The point nearness is measured from: the origin, else the bias region's center.
  let focus: Coordinate?
  /// ISO 3166-1 codes of the countries filter ("uk" is GB).
  let countries: Set<String>
  /// Whether the type filter accepts every place.
  let anyType: Bool
  /// Whether a restriction region may take its candidates from the GEO section.
  var regionLookup = true
  /// The places a scan in rank order scores from their tokens before the other words'
  /// postings filter it (``Ranking/filterAfter``; less in tests of the filters).
  var filterAfter = Ranking.filterAfter
  /// The cache key of each query word whose hits may be kept (the finished ones), else nil.
  var wordKeys: [WordKey?] = []
  /// The most geo score a place of the index searched can earn: with shards, its box's
  /// (``ShardExtent/bestGeo(_:)``), so that a shard far from the focus stops its scan as
  /// soon as importance and text alone cannot reach the places kept.
  var shardGeo = Double.infinity

  init(filter: AutocompleteFilter, typeFilter: TypeFilter, limit: Int) {
    self.filter = filter
    self.typeFilter = typeFilter
    self.limit = limit
    focus = filter.origin ?? filter.coordinateRegionBias?.center
    countries = Set(filter.countries.map { RegionCodes.canonical($0) ?? $0.uppercased() })
    if case .any = typeFilter.kind { anyType = true } else { anyType = false }
  }

  /// Whether the type and country filters accept the place.
  @inline(__always)
  func accepts(_ entry: PlaceMatch, in index: LoadedIndex) throws(IndexFormatError) -> Bool {
    if !anyType {
      guard
        typeFilter.accepts(
          primaryType: index.primaryTypeOfList[entry.typeList],
          all: typeFilter.needsAllTypes ? index.types.types(ofList: entry.typeList) : [])
      else { return false }
    }
    if !countries.isEmpty {
      guard let cc = entry.countryCode, countries.contains(try index.strings.string(cc)) else {
        return false
      }
    }
    return true
  }
}
