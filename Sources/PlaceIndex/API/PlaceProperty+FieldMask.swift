import Foundation

extension PlaceProperty {
  /// The properties a field mask names, as the Place Details (New) API takes it in its
  /// `X-Goog-FieldMask` header or `fields` parameter: names separated by commas (spaces
  /// around them ignored), or `*` for every property. `coordinate` is accepted for `location`.
  ///
  /// - Throws: ``PlacesError/invalidArgument(_:)`` naming the first unknown field, or when the
  ///   mask names none.
  public static func parseFieldMask(_ mask: String) throws(PlacesError) -> Set<PlaceProperty> {
    var properties: Set<PlaceProperty> = []
    for raw in mask.split(separator: ",", omittingEmptySubsequences: false) {
      let name = raw.trimmingCharacters(in: .whitespaces)
      if name == "*" {
        properties.formUnion(allCases)
      } else if let p = PlaceProperty(rawValue: name) ?? (name == "coordinate" ? .coordinate : nil)
      {
        properties.insert(p)
      } else {
        let known = allCases.map(\.rawValue).joined(separator: ",")
        throw .invalidArgument(
          name.isEmpty
            ? "field mask '\(mask)' has an empty field; known fields: \(known), or *"
            : "unknown field '\(name)' in field mask; known fields: \(known), or *")
      }
    }
    return properties
  }
}
