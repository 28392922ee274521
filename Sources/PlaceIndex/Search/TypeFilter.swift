import PlaceCore

/// A validated `types` filter: primary types, or one collection.
struct TypeFilter: Sendable {
  enum Kind: Sendable {
    case any
    case primary(Set<String>)
    case collection(String)
  }

  let kind: Kind

  /// Whether ``accepts(primaryType:all:)`` looks at more than the primary type.
  var needsAllTypes: Bool {
    if case .collection = kind { return true }
    return false
  }

  /// The filter that accepts every place.
  static let any = TypeFilter(kind: .any)

  private init(kind: Kind) {
    self.kind = kind
  }

  /// The collections a filter may name alone.
  static let collections: Set<String> = [
    "address", "establishment", "geocode", "(regions)", "(cities)",
  ]

  /// Validates `types` against the vocabularies of the loaded indexes.
  init(_ types: [String], vocabularies: [PlaceTypeVocabulary]) throws(PlacesError) {
    if types.isEmpty {
      kind = .any
      return
    }
    let collections = types.filter { TypeFilter.collections.contains($0) }
    if !collections.isEmpty {
      guard types.count == 1 else {
        throw .invalidRequest(
          "type collection '\(collections[0])' cannot be combined with other types (\(types.joined(separator: ", ")))"
        )
      }
      kind = .collection(collections[0])
      return
    }
    guard types.count <= 5 else {
      throw .invalidRequest("at most 5 types may be given, got \(types.count)")
    }
    for t in types where !vocabularies.contains(where: { $0.contains(t) }) {
      throw .invalidRequest("unknown place type '\(t)'")
    }
    kind = .primary(Set(types))
  }

  /// Whether a place with these types passes.
  func accepts(primaryType: String, all: [String]) -> Bool {
    switch kind {
    case .any: return true
    case .primary(let set): return set.contains(primaryType)
    case .collection(let c):
      switch c {
      case "address":
        return all.contains {
          ["street_address", "premise", "subpremise", "route", "street_number"].contains($0)
        }
      case "establishment": return all.contains("establishment")
      case "geocode":
        return all.contains {
          $0 == "geocode" || $0 == "political"
            || [
              "street_address", "premise", "subpremise", "route", "postal_code", "plus_code",
              "natural_feature",
            ].contains($0)
        }
      case "(regions)":
        return all.contains {
          [
            "locality", "sublocality", "postal_code", "country", "administrative_area_level_1",
            "administrative_area_level_2",
          ].contains($0)
        }
      case "(cities)":
        return all.contains { $0 == "locality" || $0 == "administrative_area_level_3" }
      default: return false
      }
    }
  }
}
