import PlaceIndexFormat

/// A place ready for the index: its record (strings, components, type list) and search terms.
struct AssembledPlace: Sendable {
  var record: PlaceRecord
  /// Primary type first, then the generic types.
  var types: [String]
  /// Folded terms of the place's names.
  var terms: [String]
  /// Folded terms of its address and admin areas.
  var contextTerms: [String]
}
