import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks and the lock around writing an artifact: `-o` may name only a regular file or a
/// new path, never the input, and one writer at a time holds `<path>.lock`.
///
/// The lock is an `flock(2)` on a file next to the output, so the kernel releases it on any
/// exit, SIGKILL included. A writer holds it exclusively from its first temporary to its last
/// rename and removes the file when done; a reader of the pair (``PackedArtifact``) holds it
/// shared while it reads the index and the manifest, so it never sees one from each build. A
/// file left by a killed build is not locked and is removed by the next writer.
public final class OutputLock {
  /// The lock file: the output's path and `.lock`.
  public let path: String
  private let fd: Int32
  private let exclusive: Bool

  /// How long to wait for another writer before failing: a writer holds the lock only while it
  /// writes and renames its files, well under this even for the largest index.
  public static let defaultWait: Duration = .seconds(60)

  /// The lock file for the artifact at `output`.
  public static func lockPath(for output: String) -> String { output + ".lock" }

  /// Takes the lock of `output`: exclusively to write it, shared to read it. Waits while
  /// another process holds it, up to `wait`, then throws ``BuildError/outputLocked(path:lockPath:)``.
  public init(for output: String, exclusive: Bool, wait: Duration = OutputLock.defaultWait) throws {
    path = Self.lockPath(for: output)
    self.exclusive = exclusive
    let deadline = ContinuousClock.now + wait
    while true {
      // A reader does not create the file: without one, no writer is at work.
      let fd =
        exclusive
        ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) : open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw BuildError.cannotWrite(
          path: path, reason: "cannot create the lock file: \(String(cString: strerror(errno)))")
      }
      var st = stat()
      guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
        close(fd)
        throw BuildError.unsafeOutput(path: path, reason: "the lock file is not a regular file")
      }
      if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
        close(fd)
        guard errno == EWOULDBLOCK || errno == EINTR else {
          throw BuildError.cannotWrite(
            path: path, reason: "cannot lock: \(String(cString: strerror(errno)))")
        }
        guard ContinuousClock.now < deadline else {
          throw BuildError.outputLocked(path: output, lockPath: path)
        }
        usleep(20_000)
        continue
      }
      // The holder before us may have removed the file after we opened it: then our lock is
      // on a file no one else will open, and we start over with the one now at `path`.
      var now = stat()
      if stat(path, &now) == 0, now.st_dev == st.st_dev, now.st_ino == st.st_ino {
        self.fd = fd
        return
      }
      close(fd)
    }
  }

  /// A shared lock of `output` for reading it with its manifest, or nil when no writer holds
  /// or held one (no lock file) or it cannot be taken within `wait`: the reader then relies on
  /// the manifest's size and sha256 to notice a pair from two builds.
  public static func reading(_ output: String, wait: Duration = OutputLock.defaultWait)
    -> OutputLock?
  {
    try? OutputLock(for: output, exclusive: false, wait: wait)
  }

  /// Releases the lock; a writer removes the lock file first (while it still holds it).
  public func release() {
    if exclusive { unlink(path) }
    close(fd)
  }

  /// Refuses `folder` (the output of a split build) unless it is a folder or a new path.
  public static func checkFolder(_ folder: String) throws {
    var st = stat()
    if stat(folder, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR {
      throw BuildError.unsafeOutput(
        path: folder,
        reason: "is not a folder; a split build writes one index per country into a folder")
    }
  }

  /// Refuses `output` unless it is a regular file or a new path (a missing path, or a link to
  /// one), and when it is one of `inputs` (the same device and inode, links followed).
  public static func checkOutput(_ output: String, notOneOf inputs: [String]) throws {
    var st = stat()
    if stat(output, &st) != 0 {
      guard errno == ENOENT else {
        throw BuildError.unsafeOutput(path: output, reason: String(cString: strerror(errno)))
      }
      return
    }
    let kind: String? =
      switch st.st_mode & S_IFMT {
      case S_IFREG: nil
      case S_IFDIR: "a directory"
      case S_IFCHR: "a character device"
      case S_IFBLK: "a block device"
      case S_IFIFO: "a FIFO"
      case S_IFSOCK: "a socket"
      default: "not a regular file"
      }
    if let kind {
      throw BuildError.unsafeOutput(
        path: output, reason: "is \(kind); the output must be a regular file or a new path")
    }
    for input in inputs {
      var i = stat()
      if stat(input, &i) == 0, i.st_dev == st.st_dev, i.st_ino == st.st_ino {
        throw BuildError.unsafeOutput(
          path: output, reason: "is the input \(input); writing it would destroy the input")
      }
    }
  }
}
