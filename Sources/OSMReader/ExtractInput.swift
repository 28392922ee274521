import CBzip2
import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the bytes of an extract from a file, a FIFO, a pipe or standard input (`-`),
/// decompressing gzip or bzip2 as its first bytes say.
///
/// The format is detected from a buffered prefix of the stream, never by rewinding (a pipe
/// cannot rewind) and never from the file name: `1f 8b` is gzip, `BZh` is bzip2, a 4-byte
/// big-endian length followed by a BlobHeader of type `OSMHeader` is an OSM PBF file (whose
/// bytes are handed over undecoded), anything else is read as plain XML.
///
/// A gzip file may hold several members and a bzip2 file several streams (pbzip2 writes them);
/// anything else after the last one (garbage, or a bzip2 stream after gzip data) is an error.
final class ExtractInput {
  /// The format of an input, as its first bytes say.
  enum Format: String {
    case none = "plain"
    case gzip
    case bzip2
    case pbf = "OSM PBF"
  }

  /// The path as given (`-` for standard input).
  let path: String
  /// The path as errors name it.
  let displayPath: String
  let format: Format
  /// The size of a regular file, else 0 (a pipe's size is not known in advance).
  private(set) var compressedSize: Int64 = 0

  private let source: RawSource
  private var gzip: GzipDecoder?
  private var bzip2: Bzip2Decoder?

  /// How long to wait for the first byte of a named FIFO before giving up (a FIFO nobody
  /// writes to would otherwise block forever). `PLACEIDX_FIFO_TIMEOUT` (seconds) overrides it.
  static var fifoTimeoutSeconds: Double {
    if let text = getenv("PLACEIDX_FIFO_TIMEOUT"), let v = Double(String(cString: text)), v > 0 {
      return v
    }
    return 60
  }

  /// The name errors use for `path`.
  static func displayName(_ path: String) -> String {
    path == "-" ? "standard input" : path
  }

  init(path: String) throws {
    self.path = path
    displayPath = Self.displayName(path)
    let fd: Int32
    if path == "-" {
      fd = dup(STDIN_FILENO)
      guard fd >= 0 else {
        throw OSMReaderError.cannotOpen(path: displayPath, reason: String(cString: strerror(errno)))
      }
    } else {
      // Non-blocking, so that opening a FIFO without a writer does not block; reads block again
      // once the descriptor is open (below).
      fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
      guard fd >= 0 else {
        throw OSMReaderError.cannotOpen(path: displayPath, reason: String(cString: strerror(errno)))
      }
    }
    var st = stat()
    if fstat(fd, &st) == 0 {
      let type = st.st_mode & S_IFMT
      if type == S_IFDIR {
        closeDescriptor(fd)
        throw OSMReaderError.cannotOpen(path: displayPath, reason: "is a directory")
      }
      if type == S_IFREG { compressedSize = Int64(st.st_size) }
      if type == S_IFIFO && path != "-" && !Self.isAnonymousPipe(fd) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(Self.fifoTimeoutSeconds * 1000)
        var rc: Int32
        repeat { rc = poll(&p, 1, ms) } while rc < 0 && errno == EINTR
        if rc == 0 {
          closeDescriptor(fd)
          throw OSMReaderError.cannotOpen(
            path: displayPath,
            reason:
              "no data arrived on the FIFO within \(Int(Self.fifoTimeoutSeconds)) s (is anything writing to it?)"
          )
        }
      }
    }
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
    source = RawSource(fd: fd, path: displayPath)
    let prefix = try source.fillPrefix(16)
    if prefix.count >= 2 && prefix[0] == 0x1f && prefix[1] == 0x8b {
      format = .gzip
      gzip = try GzipDecoder(source: source)
    } else if prefix.count >= 3 && prefix[0] == 0x42 && prefix[1] == 0x5a && prefix[2] == 0x68 {
      format = .bzip2
      bzip2 = try Bzip2Decoder(source: source)
    } else if Self.looksLikePBF(prefix) {
      format = .pbf
    } else {
      format = .none
    }
  }

  /// Whether `prefix` starts like an OSM PBF file: a 4-byte big-endian BlobHeader length below
  /// 64 KiB, then the BlobHeader's field 1 (type) holding the 9 bytes `OSMHeader`.
  static func looksLikePBF(_ prefix: [UInt8]) -> Bool {
    guard prefix.count >= 15 else { return false }
    let length = Int(prefix[0]) << 24 | Int(prefix[1]) << 16 | Int(prefix[2]) << 8 | Int(prefix[3])
    guard length > 0 && length <= 64 << 10, prefix[4] == 0x0a, prefix[5] == 9 else { return false }
    return prefix[6..<15].elementsEqual("OSMHeader".utf8)
  }

  /// Whether `fd` is an anonymous pipe (standard input from `|`, or `/dev/stdin` on one), whose
  /// writer existed when it was made: only a named FIFO can be waiting for a writer.
  private static func isAnonymousPipe(_ fd: Int32) -> Bool {
    var buffer = [CChar](repeating: 0, count: 64)
    let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
    guard n > 0 else { return false }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      .hasPrefix("pipe:")
  }

  deinit { close() }

  /// Reads up to `buffer.count` decoded bytes; returns 0 at the end of the stream.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if buffer.count == 0 { return 0 }
    switch format {
    case .none, .pbf: return try source.read(into: buffer)
    case .gzip: return try gzip!.read(into: buffer)
    case .bzip2: return try bzip2!.read(into: buffer)
    }
  }

  /// Fills `buffer` with undecoded bytes unless the stream ends first; returns the count
  /// (the PBF reader reads its frames with this).
  func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try source.readFully(into: buffer)
  }

  /// Bytes of the underlying file consumed so far.
  var position: Int64 { source.consumed }

  /// Releases the decoder and the file.
  func close() {
    gzip?.end()
    gzip = nil
    bzip2?.end()
    bzip2 = nil
    source.close()
  }
}

/// The undecoded bytes of a descriptor, with a prefix read ahead for sniffing.
final class RawSource {
  private var fd: Int32
  let path: String
  /// Bytes read ahead and not yet handed out.
  private var pending: [UInt8] = []
  private var pendingStart = 0
  private var ended = false
  /// Bytes handed out so far.
  private(set) var consumed: Int64 = 0

  init(fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  /// Reads ahead until `count` bytes are buffered or the stream ends; returns them.
  func fillPrefix(_ count: Int) throws -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: count)
    while pending.count - pendingStart < count && !ended {
      let want = count - (pending.count - pendingStart)
      let n = try chunk.withUnsafeMutableBytes { try rawRead($0.baseAddress!, want) }
      if n == 0 { ended = true } else { pending.append(contentsOf: chunk[0..<n]) }
    }
    return Array(pending[pendingStart...])
  }

  /// Reads up to `buffer.count` bytes; 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    if pendingStart < pending.count {
      let n = min(buffer.count, pending.count - pendingStart)
      pending.withUnsafeBytes { p in
        base.copyMemory(from: p.baseAddress! + pendingStart, byteCount: n)
      }
      pendingStart += n
      if pendingStart == pending.count {
        pending = []
        pendingStart = 0
      }
      consumed += Int64(n)
      return n
    }
    if ended { return 0 }
    let n = try rawRead(base, buffer.count)
    if n == 0 { ended = true }
    consumed += Int64(n)
    return n
  }

  /// Fills `buffer` completely unless the stream ends first; returns the bytes read.
  func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    var done = 0
    while done < buffer.count {
      let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
      if n == 0 { break }
      done += n
    }
    return done
  }

  private func rawRead(_ base: UnsafeMutableRawPointer, _ count: Int) throws -> Int {
    guard fd >= 0 else { return 0 }
    while true {
      let n = readDescriptor(fd, base, count)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      throw OSMReaderError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
  }

  func close() {
    if fd >= 0 {
      closeDescriptor(fd)
      fd = -1
    }
  }
}

/// Inflates gzip members one after another; refuses anything else after the last member.
final class GzipDecoder {
  private let source: RawSource
  private var stream = z_stream()
  private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 8)
  private var live = false
  private var finished = false
  /// Compressed bytes given to zlib before the current input buffer.
  private var offsetBase: Int64 = 0
  private var inputCount = 0

  init(source: RawSource) throws {
    self.source = source
    // 15 + 16: a gzip wrapper (not zlib, not raw deflate), the largest window.
    let rc = inflateInit2_(
      &stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard rc == Z_OK else {
      input.deallocate()
      throw OSMReaderError.compression(
        path: source.path, format: "gzip", reason: "cannot start decoder (code \(rc))")
    }
    live = true
  }

  deinit {
    end()
    input.deallocate()
  }

  func end() {
    if live {
      inflateEnd(&stream)
      live = false
    }
  }

  private func refill() throws -> Bool {
    offsetBase += Int64(inputCount)
    // Keep what zlib has not used yet at the front.
    let left = Int(stream.avail_in)
    if left > 0, let next = stream.next_in {
      input.baseAddress!.copyMemory(from: next, byteCount: left)
    }
    offsetBase -= Int64(left)
    let n = try source.read(
      into: UnsafeMutableRawBufferPointer(rebasing: input[left...]))
    inputCount = left + n
    stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
    stream.avail_in = UInt32(inputCount)
    return n > 0
  }

  /// Byte offset in the file of zlib's next input byte.
  private var offset: Int64 { offsetBase + Int64(inputCount) - Int64(stream.avail_in) }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if finished { return 0 }
    stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
    stream.avail_out = UInt32(clamping: buffer.count)
    let capacity = Int(stream.avail_out)
    while stream.avail_out > 0 {
      if stream.avail_in == 0 {
        if try !refill() {
          throw OSMReaderError.compression(
            path: source.path, format: "gzip", reason: "unexpected end of file")
        }
      }
      let rc = inflate(&stream, Z_NO_FLUSH)
      if rc == Z_STREAM_END {
        // Another member may follow; anything else is an error.
        while stream.avail_in < 3 {
          if try !refill() { break }
        }
        if stream.avail_in == 0 {
          finished = true
          break
        }
        let next = stream.next_in!
        if next[0] == 0x1f && (stream.avail_in < 2 || next[1] == 0x8b) {
          inflateReset(&stream)
          continue
        }
        let what =
          stream.avail_in >= 3 && next[0] == 0x42 && next[1] == 0x5a && next[2] == 0x68
          ? "a bzip2 stream follows the gzip data" : "garbage follows the gzip data"
        throw OSMReaderError.compression(
          path: source.path, format: "gzip", reason: "\(what) at byte \(offset)")
      }
      if rc != Z_OK && rc != Z_BUF_ERROR {
        let message = stream.msg.map { String(cString: $0) } ?? "error \(rc)"
        throw OSMReaderError.compression(
          path: source.path, format: "gzip", reason: "\(message) (near byte \(offset))")
      }
    }
    return capacity - Int(stream.avail_out)
  }
}

/// Decompresses bzip2 streams one after another; refuses anything else after the last one.
final class Bzip2Decoder {
  private let source: RawSource
  private var stream = bz_stream()
  private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 8)
  private var live = false
  private var finished = false
  private var offsetBase: Int64 = 0
  private var inputCount = 0

  init(source: RawSource) throws {
    self.source = source
    try start()
  }

  private func start() throws {
    stream.bzalloc = nil
    stream.bzfree = nil
    stream.opaque = nil
    let rc = BZ2_bzDecompressInit(&stream, 0, 0)
    guard rc == BZ_OK else {
      throw OSMReaderError.compression(
        path: source.path, format: "bzip2", reason: "cannot start decoder (code \(rc))")
    }
    live = true
  }

  deinit {
    end()
    input.deallocate()
  }

  func end() {
    if live {
      BZ2_bzDecompressEnd(&stream)
      live = false
    }
  }

  private func refill() throws -> Bool {
    offsetBase += Int64(inputCount)
    let left = Int(stream.avail_in)
    if left > 0, let next = stream.next_in {
      input.baseAddress!.copyMemory(from: next, byteCount: left)
    }
    offsetBase -= Int64(left)
    let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: input[left...]))
    inputCount = left + n
    stream.next_in = input.baseAddress!.assumingMemoryBound(to: CChar.self)
    stream.avail_in = UInt32(inputCount)
    return n > 0
  }

  private var offset: Int64 { offsetBase + Int64(inputCount) - Int64(stream.avail_in) }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if finished { return 0 }
    stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
    stream.avail_out = UInt32(clamping: buffer.count)
    let capacity = Int(stream.avail_out)
    while stream.avail_out > 0 {
      if stream.avail_in == 0 {
        if try !refill() {
          throw OSMReaderError.compression(
            path: source.path, format: "bzip2", reason: "unexpected end of file")
        }
      }
      let rc = BZ2_bzDecompress(&stream)
      if rc == BZ_STREAM_END {
        end()
        while stream.avail_in < 3 {
          if try !refill() { break }
        }
        if stream.avail_in == 0 {
          finished = true
          break
        }
        let next = UnsafeRawPointer(stream.next_in!).assumingMemoryBound(to: UInt8.self)
        if stream.avail_in >= 3 && next[0] == 0x42 && next[1] == 0x5a && next[2] == 0x68 {
          // Another stream (pbzip2); keep the unused input.
          let nextIn = stream.next_in
          let availIn = stream.avail_in
          let out = stream.next_out
          let availOut = stream.avail_out
          stream = bz_stream()
          try start()
          stream.next_in = nextIn
          stream.avail_in = availIn
          stream.next_out = out
          stream.avail_out = availOut
          continue
        }
        throw OSMReaderError.compression(
          path: source.path, format: "bzip2",
          reason: "garbage follows the bzip2 data at byte \(offset)")
      }
      if rc != BZ_OK {
        let reason =
          switch rc {
          case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC: "data error"
          case BZ_MEM_ERROR: "out of memory"
          default: "error \(rc)"
          }
        throw OSMReaderError.compression(
          path: source.path, format: "bzip2", reason: "\(reason) (near byte \(offset))")
      }
    }
    return capacity - Int(stream.avail_out)
  }
}

/// The C `close` and `read` (the classes' own methods hide them inside them).
private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}

private func readDescriptor(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, base, count)
}
