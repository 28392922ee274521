// Imports PlaceIndex alone, as an app does: every type a request needs must be nameable through
// it (this file does not compile otherwise).
import PlaceIndex
import Testing

/// What an app that imports only PlaceIndex can write.
@Suite struct PublicSurfaceTests {
  @Test func aRequestWithAnOriginNeedsOnlyThePlaceIndexImport() throws {
    let client = try PlacesClient(indexPaths: [sampleIndexPath])
    let origin = Coordinate(latitude: 47.2692, longitude: 11.4041)
    let filter = AutocompleteFilter(origin: origin)
    let s = try client.autocompleteSuggestions(
      for: AutocompleteRequest(query: "apo", filter: filter))
    let first = try #require(s.first?.placeSuggestion)
    #expect(first.distanceMeters != nil)
    let vocabulary: PlaceTypeVocabulary = try client.indexes[0].vocabulary
    #expect(vocabulary.group(of: "pharmacy") != nil)
  }
}
