import CBzip2
import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the bytes of an extract, decompressing gzip or bzip2 as its first bytes say.
///
/// The compression is detected from the magic bytes, not the file name: `1f 8b` is gzip,
/// `BZh` is bzip2, anything else is read as plain XML.
final class ExtractInput {
  /// The compression of an input.
  enum Compression: String {
    case none = "plain"
    case gzip
    case bzip2
  }

  let path: String
  let compression: Compression
  private var file: UnsafeMutablePointer<FILE>?
  private var gz: gzFile?
  private var bz: UnsafeMutableRawPointer?
  private var finished = false
  /// Compressed bytes consumed so far (for progress reporting).
  private(set) var compressedSize: Int64 = 0

  init(path: String) throws {
    self.path = path
    guard let f = fopen(path, "rb") else {
      throw OSMReaderError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    var st = stat()
    if fstat(fileno(f), &st) == 0 {
      if (st.st_mode & S_IFMT) == S_IFDIR {
        fclose(f)
        throw OSMReaderError.cannotOpen(path: path, reason: "is a directory")
      }
      compressedSize = Int64(st.st_size)
    }
    var magic = [UInt8](repeating: 0, count: 3)
    let got = fread(&magic, 1, 3, f)
    rewind(f)
    if got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b {
      compression = .gzip
      let fd = dup(fileno(f))
      fclose(f)
      guard fd >= 0, let handle = gzdopen(fd, "rb") else {
        if fd >= 0 { closeDescriptor(fd) }
        throw OSMReaderError.cannotOpen(path: path, reason: "cannot start gzip decoder")
      }
      gzbuffer(handle, 1 << 17)
      gz = handle
    } else if got == 3 && magic[0] == 0x42 && magic[1] == 0x5a && magic[2] == 0x68 {
      compression = .bzip2
      var err: Int32 = 0
      guard let handle = BZ2_bzReadOpen(&err, f, 0, 0, nil, 0), err == BZ_OK else {
        fclose(f)
        throw OSMReaderError.compression(
          path: path, format: "bzip2", reason: "cannot start decoder (code \(err))")
      }
      file = f
      bz = handle
    } else {
      compression = .none
      file = f
    }
  }

  deinit { close() }

  /// Reads up to `buffer.count` bytes; returns 0 at the end of the stream.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if finished || buffer.count == 0 { return 0 }
    switch compression {
    case .none:
      let n = fread(buffer.baseAddress, 1, buffer.count, file)
      if n == 0 {
        if ferror(file) != 0 {
          throw OSMReaderError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        finished = true
      }
      return n
    case .gzip:
      let n = gzread(gz, buffer.baseAddress, UInt32(clamping: buffer.count))
      var errnum: Int32 = 0
      let message = gzerror(gz, &errnum)
      if n < 0 || (errnum != Z_OK && errnum != Z_STREAM_END) {
        let text = message.map { String(cString: $0) } ?? "error \(errnum)"
        throw OSMReaderError.compression(path: path, format: "gzip", reason: text)
      }
      if n == 0 { finished = true }
      return Int(n)
    case .bzip2:
      var err: Int32 = 0
      let n = BZ2_bzRead(&err, bz, buffer.baseAddress, Int32(clamping: buffer.count))
      if err == BZ_STREAM_END {
        // A file may hold several concatenated bzip2 streams (pbzip2 writes them).
        var unused: UnsafeMutableRawPointer? = nil
        var unusedCount: Int32 = 0
        var e2: Int32 = 0
        BZ2_bzReadGetUnused(&e2, bz, &unused, &unusedCount)
        let leftover =
          unusedCount > 0 && unused != nil
          ? [UInt8](UnsafeRawBufferPointer(start: unused, count: Int(unusedCount))) : []
        BZ2_bzReadClose(&e2, bz)
        bz = nil
        let more = leftover.isEmpty ? (feof(file) == 0 ? peekMore() : false) : true
        if more {
          var e3: Int32 = 0
          let next = leftover.withUnsafeBytes { raw -> UnsafeMutableRawPointer? in
            BZ2_bzReadOpen(
              &e3, file, 0, 0, UnsafeMutableRawPointer(mutating: raw.baseAddress),
              Int32(leftover.count))
          }
          if e3 == BZ_OK, let next { bz = next } else { finished = true }
        } else {
          finished = true
        }
        if n == 0 && !finished { return try read(into: buffer) }
        return Int(n)
      }
      if err != BZ_OK {
        let reason =
          switch err {
          case BZ_UNEXPECTED_EOF: "unexpected end of file"
          case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC: "data error"
          case BZ_MEM_ERROR: "out of memory"
          default: "error \(err)"
          }
        throw OSMReaderError.compression(path: path, format: "bzip2", reason: reason)
      }
      return Int(n)
    }
  }

  /// Whether more bytes follow in the underlying file.
  private func peekMore() -> Bool {
    let c = fgetc(file)
    if c == EOF { return false }
    ungetc(c, file)
    return true
  }

  /// Bytes of the underlying file consumed so far.
  var position: Int64 {
    switch compression {
    case .gzip: gz.map { Int64(gzoffset($0)) } ?? compressedSize
    case .none, .bzip2: file.map { Int64(ftello($0)) } ?? compressedSize
    }
  }

  /// Releases the decoder and the file.
  func close() {
    if let bz {
      var e: Int32 = 0
      BZ2_bzReadClose(&e, bz)
      self.bz = nil
    }
    if let gz {
      gzclose_r(gz)
      self.gz = nil
    }
    if let file {
      fclose(file)
      self.file = nil
    }
  }
}

/// Closes a file descriptor (the class's own `close()` hides the C function inside it).
private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}
