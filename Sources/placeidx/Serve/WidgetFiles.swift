/// The widget's static files, compiled in so that `serve` needs nothing beside the index.
enum WidgetFiles {
  static let page = "<!doctype html><title>PlaceIndex</title>"
  static let script = "/* widget */"
}
