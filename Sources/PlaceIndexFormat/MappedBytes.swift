#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Read-only bytes of an index: a memory-mapped file or an owned copy.
///
/// This is the one platform-specific file of the reader: it uses POSIX `open`/`mmap`, which
/// Linux and Apple platforms share. The bytes never change after creation, which is what makes
/// sharing them between threads safe.
package final class MappedBytes: @unchecked Sendable {
  /// The bytes. Valid for the lifetime of this object.
  package let buffer: UnsafeRawBufferPointer
  private let mapped: Bool

  /// Opens `path` for reading: its descriptor and size; an error names a path that cannot be
  /// opened or is not a regular file.
  private static func openRegularFile(_ path: String) throws(IndexFormatError) -> (Int32, Int) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw IndexFormatError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw IndexFormatError.cannotOpen(path: path, reason: reason)
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw IndexFormatError.cannotOpen(path: path, reason: "not a regular file")
    }
    return (fd, Int(st.st_size))
  }

  /// Maps the file at `path` read-only.
  package init(path: String) throws(IndexFormatError) {
    let (fd, size) = try Self.openRegularFile(path)
    defer { close(fd) }
    if size == 0 {
      buffer = UnsafeRawBufferPointer(start: nil, count: 0)
      mapped = false
      return
    }
    let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
    guard let p, p != MAP_FAILED else {
      throw IndexFormatError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    buffer = UnsafeRawBufferPointer(start: p, count: size)
    mapped = true
  }

  /// Reads the whole file at `path` into memory owned by this object (no mapping): later
  /// changes to the file, even truncating it in place, do not reach these bytes. A file that
  /// changes while it is read gives bytes that fail the header's length or the checksums.
  package init(readingFileAt path: String) throws(IndexFormatError) {
    let (fd, size) = try Self.openRegularFile(path)
    defer { close(fd) }
    let p = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
    var done = 0
    while done < size {
      let n = read(fd, p.baseAddress! + done, size - done)
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        let reason = String(cString: strerror(errno))
        p.deallocate()
        throw IndexFormatError.cannotOpen(path: path, reason: reason)
      }
      if n == 0 { break }  // shorter than fstat said: truncated meanwhile
      done += n
    }
    buffer = UnsafeRawBufferPointer(rebasing: p[0..<done])
    mapped = false
  }

  /// Copies `bytes` into memory owned by this object.
  package init(copying bytes: [UInt8]) {
    let p = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
    bytes.withUnsafeBytes { p.copyMemory(from: $0) }
    buffer = UnsafeRawBufferPointer(rebasing: p[0..<bytes.count])
    mapped = false
  }

  deinit {
    if mapped {
      munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
    } else if let base = buffer.baseAddress {
      base.deallocate()
    }
  }
}
