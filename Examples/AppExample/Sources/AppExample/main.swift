import PlaceIndex

// The README's two snippets ("The library in an app or server"): ExamplePackageTests checks that
// README.md holds the lines between each "README:" marker and "README: end" verbatim, builds
// this package and runs it in a folder holding the sample index, sample.placeidx.

/// The synchronous calls, as a command-line tool or a server thread makes them.
func synchronousExample() throws {
  // README: sync
  let client = try PlacesClient(indexPaths: ["sample.placeidx"])  // several files = shards
  var filter = AutocompleteFilter(origin: Coordinate(latitude: 47.185, longitude: 9.9))
  filter.types = ["pharmacy"]  // or one of the collections, such as "establishment"
  let request = AutocompleteRequest(
    query: "apo", sessionToken: AutocompleteSessionToken(), filter: filter)
  for case .place(let p) in try client.autocompleteSuggestions(for: request) {
    print(p.placeID, p.primaryText.text, p.secondaryText.text, p.distanceMeters ?? -1)
  }
  let place = try client.fetchPlace(
    with: FetchPlaceRequest(placeID: "N7100074", placeProperties: [.displayName, .plusCode]))
  print(place.displayName ?? "", place.plusCode?.globalCode ?? "")
  // README: end
}

/// The async calls with the SDK's shapes, as an app's UI code makes them.
func asynchronousExample() async throws {
  // README: async
  let client = try PlacesClient(indexPaths: ["sample.placeidx"])
  let request = AutocompleteRequest(query: "apo", sessionToken: AutocompleteSessionToken())
  switch await client.fetchAutocompleteSuggestions(with: request) {
  case .success(let suggestions):
    for case .place(let p) in suggestions { print(p.placeID, p.fullText.text) }
  case .failure(let error):
    print("autocomplete failed:", error.message)
  }
  let result = await client.fetchPlace(
    with: FetchPlaceRequest(placeID: "N7100074", placeProperties: [.displayName]))
  if case .success(let place) = result { print(place.displayName ?? "") }
  // README: end
}

try synchronousExample()
try await asynchronousExample()
