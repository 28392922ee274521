/// Why a build failed. Each case names the file and the problem.
public enum BuildError: Error, Equatable, CustomStringConvertible {
  /// A data table in Data/ is missing or malformed.
  case badTable(path: String, reason: String)
  /// A pipeline definition is missing or malformed.
  case badPipeline(path: String, reason: String)
  /// The artifact could not be written.
  case cannotWrite(path: String, reason: String)
  /// The extract produced no places.
  case noPlaces(path: String)

  public var description: String {
    switch self {
    case .badTable(let path, let reason): "\(path): \(reason)"
    case .badPipeline(let path, let reason): "\(path): bad pipeline definition: \(reason)"
    case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
    case .noPlaces(let path):
      "\(path): the extract holds no places (no named or addressed elements)"
    }
  }
}
