import PlaceIndexFormat

/// A place ready for the index: its record (strings, components, type list) and search terms.
struct AssembledPlace: Sendable {
  var record: PlaceRecord
  /// Primary type first, then the generic types.
  var types: [String]
  /// Folded terms of the place's primary name (of an address: its street line and street).
  var terms: [String]
  /// Folded terms only its alternative names carry.
  var altTerms: [String] = []
  /// Folded terms of its address and admin areas.
  var contextTerms: [String]
}
