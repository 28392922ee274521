import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files atomically: to a temporary name in the same folder, flushed, then renamed.
///
/// A build that fails or is killed leaves the previous artifact under the final name untouched;
/// stale temporary files from killed builds are removed by the next write to the same folder.
enum ArtifactWriter {
  /// The prefix of temporary files, so leftovers can be recognised and removed.
  static let temporaryPrefix = ".placeidx-tmp-"

  /// Writes several files so that they are replaced together: every temporary is written and
  /// flushed before the first rename, so a build killed at any moment before the renames
  /// leaves the previous files untouched. (The renames themselves follow each other at once;
  /// the index is renamed first, so a manifest never names an index that is not there.)
  ///
  /// Every path must be a regular file or a new path and none may be one of `inputs` (links
  /// followed: ``OutputLock/checkOutput(_:notOneOf:)``). The first file's lock
  /// (``OutputLock``) is held from the first temporary to the last rename: a second writer of
  /// the same files waits for it, and a reader that takes the lock sees one writer's pair.
  static func write(_ files: [(bytes: [UInt8], path: String)], inputs: [String] = []) throws {
    guard let first = files.first else { return }
    for f in files { try OutputLock.checkOutput(f.path, notOneOf: inputs) }
    let folder = URL(fileURLWithPath: first.path).deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw BuildError.cannotWrite(path: folder.path, reason: error.localizedDescription)
    }
    let lock = try OutputLock(for: first.path, exclusive: true)
    defer { lock.release() }
    // Checked again under the lock: another process may have put something there meanwhile.
    for f in files { try OutputLock.checkOutput(f.path, notOneOf: inputs) }
    var temps: [(URL, String)] = []
    do {
      for f in files { temps.append((try writeTemporary(f.bytes, for: f.path), f.path)) }
      for (temp, path) in temps {
        guard rename(temp.path, path) == 0 else {
          throw BuildError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
      }
    } catch {
      for (temp, _) in temps { try? FileManager.default.removeItem(at: temp) }
      throw error
    }
  }

  /// Writes `bytes` to `path` atomically, creating the folder if needed.
  static func write(_ bytes: [UInt8], to path: String, inputs: [String] = []) throws {
    try write([(bytes, path)], inputs: inputs)
  }

  /// Writes and flushes `bytes` to a temporary beside `path`; returns its URL.
  private static func writeTemporary(_ bytes: [UInt8], for path: String) throws -> URL {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    removeStaleTemporaries(in: folder, for: url.lastPathComponent)
    let temp = folder.appendingPathComponent(
      "\(temporaryPrefix)\(getpid())-\(url.lastPathComponent)")
    // Created in place with open(2): FileManager.createFile writes through a temporary of its
    // own (".dat.nosync…"), which a build killed at that instant would leave behind.
    let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
      throw BuildError.cannotWrite(path: temp.path, reason: String(cString: strerror(errno)))
    }
    do {
      let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      // Written from the array's own buffer: a Data copy would hold the image twice.
      try bytes.withUnsafeBytes { p in
        var done = 0
        while done < p.count {
          let n = systemWrite(fd, p.baseAddress! + done, p.count - done)
          if n < 0 {
            if errno == EINTR { continue }
            throw BuildError.cannotWrite(path: temp.path, reason: String(cString: strerror(errno)))
          }
          done += n
        }
      }
      try handle.synchronize()
      try handle.close()
      return temp
    } catch {
      try? FileManager.default.removeItem(at: temp)
      if let e = error as? BuildError { throw e }
      throw BuildError.cannotWrite(path: path, reason: error.localizedDescription)
    }
  }

  /// Removes temporaries for `name` left by builds whose process no longer runs.
  static func removeStaleTemporaries(in folder: URL, for name: String) {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return
    }
    for entry in entries where entry.hasPrefix(temporaryPrefix) && entry.hasSuffix("-" + name) {
      let pidText = entry.dropFirst(temporaryPrefix.count).prefix { $0.isNumber }
      if let pid = Int32(pidText), pid != getpid(), kill(pid, 0) == 0 { continue }
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(entry))
    }
  }
}

/// write(2) (inside ``ArtifactWriter`` the name is its own method's).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}
