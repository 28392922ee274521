/// Why an extract could not be read. Every case names the file and, where known, the position.
public enum OSMReaderError: Error, Equatable, CustomStringConvertible {
  /// The file could not be opened or read.
  case cannotOpen(path: String, reason: String)
  /// The compressed stream is corrupt or truncated.
  case compression(path: String, format: String, reason: String)
  /// The XML is not well-formed, or breaks a parser limit.
  case malformedXML(path: String, line: Int, column: Int, message: String)
  /// The XML is well-formed but is not an OSM 0.6 document.
  case notOSM(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "\(path): cannot open extract: \(reason)"
    case .compression(let path, let format, let reason):
      "\(path): corrupt or truncated \(format) stream: \(reason)"
    case .malformedXML(let path, let line, let column, let message):
      "\(path):\(line):\(column): malformed XML: \(message)"
    case .notOSM(let path, let reason):
      "\(path): not an OSM XML extract: \(reason)"
    }
  }
}
