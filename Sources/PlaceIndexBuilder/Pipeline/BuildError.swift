/// Why a build failed. Each case names the file and the problem.
public enum BuildError: Error, Equatable, CustomStringConvertible {
  /// A data table in Data/ is missing or malformed.
  case badTable(path: String, reason: String)
  /// A pipeline definition is missing or malformed.
  case badPipeline(path: String, reason: String)
  /// The artifact could not be written.
  case cannotWrite(path: String, reason: String)
  /// The build's temporary files (node locations, way geometry) could not be created or
  /// written, e.g. because the disk is full.
  case temporaryFiles(directory: String, reason: String)
  /// The extract produced no places.
  case noPlaces(path: String)
  /// An output path names something that must not be replaced: not a regular file (a device,
  /// a directory, a FIFO), or the input itself.
  case unsafeOutput(path: String, reason: String)
  /// Another process writes the same output and held its lock past the wait.
  case outputLocked(path: String, lockPath: String)

  public var description: String {
    switch self {
    case .badTable(let path, let reason): "\(path): \(reason)"
    case .badPipeline(let path, let reason): "\(path): bad pipeline definition: \(reason)"
    case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
    case .temporaryFiles(let directory, let reason):
      "\(directory): cannot keep the build's temporary files here: \(reason) (set TMPDIR to a folder with more free space)"
    case .noPlaces(let path):
      "\(path): the extract holds no places (no named or addressed elements)"
    case .unsafeOutput(let path, let reason): "\(path): refusing to write the output: \(reason)"
    case .outputLocked(let path, let lockPath):
      "\(path): another build is writing this output (it holds \(lockPath)); wait for it or choose another -o"
    }
  }
}
