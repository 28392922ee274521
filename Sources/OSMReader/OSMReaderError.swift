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
  /// The input ends before any element: an empty file, `/dev/null`, a pipe or FIFO closed
  /// before it sent anything.
  case noData(path: String)
  /// One element of the XML breaks a limit of docs/LIMITS.md ("Extracts"); `element` is its
  /// name and `line` the line where its start tag begins.
  case elementTooLarge(path: String, line: Int, element: String, reason: String)
  /// An OSM PBF file is corrupt, truncated or uses what this reader does not support;
  /// `offset` is the byte offset of the blob (its length prefix) in the file.
  case pbf(path: String, offset: Int64, reason: String)

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
    case .noData(let path):
      "\(path): no OSM data: the input ends before any element"
    case .elementTooLarge(let path, let line, let element, let reason):
      "\(path):\(line): <\(element)> is over a limit: \(reason)"
    case .pbf(let path, let offset, let reason):
      "\(path): bad OSM PBF data in the blob at byte \(offset): \(reason)"
    }
  }
}
