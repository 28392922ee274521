import PlaceIndexFormat

extension LoadedIndex {
  /// Checks META against its schema (docs/FORMAT.md, "Sections"): one UTF-8 JSON object with
  /// every listed field of the right type (more fields are allowed, for later minor
  /// versions), its format version the header's major version, its place count the
  /// file's; then decoded as ``IndexMetadata``, the schema the builder writes. Throws
  /// ``IndexFormatError/fault(path:section:offset:_:)`` naming the rule.
  func verifyMetadata() throws(IndexFormatError) {
    let (section, bytes) = try file.requiredBytes(.metadata)
    func fault(_ f: IndexFault) -> IndexFormatError {
      .fault(path: file.path, section: "META", offset: section.offset, f)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw fault(.metadataNotJSON(reason: "not valid UTF-8"))
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(text)
    } catch {
      let reason =
        if bytes.isEmpty {
          "the section is empty"
        } else if case .invalidArgument(let m) = error {
          m
        } else {
          error.message
        }
      throw fault(.metadataNotJSON(reason: reason))
    }
    guard case .object = json else {
      throw fault(.metadataNotJSON(reason: "the value is \(PlacesJSONProtocol.kind(json))"))
    }
    for (key, type) in IndexMetadata.fields {
      let name = key.stringValue
      guard let value = json[name] else { throw fault(.metadataMissingField(name)) }
      switch (type, value) {
      case ("string", .string): break
      case ("integer", .number(let n)) where n.isFinite && n == n.rounded() && n >= 0: break
      default: throw fault(.metadataFieldType(field: name, expected: "a JSON \(type)"))
      }
    }
    if case .string(let v) = json["formatVersion"],
      v.split(separator: ".").first.map(String.init) != "\(file.major)"
    {
      throw fault(
        .metadataMismatch(
          field: "formatVersion", stored: "\"\(v)\"", actual: "version \(file.major).\(file.minor)")
      )
    }
    if case .number(let n) = json["placeCount"], n != Double(placeCount) {
      throw fault(
        .metadataMismatch(
          field: "placeCount", stored: "\(Int64(n))", actual: "\(placeCount) places"))
    }
    // The fields' types are checked above, so decoding fails only where JSONValue and
    // JSONDecoder disagree about the text; the error then names META all the same.
    _ = try metadata.get()
  }
}
