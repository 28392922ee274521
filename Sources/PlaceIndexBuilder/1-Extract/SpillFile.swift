import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a build keeps its temporary files, and how much it may write there.
struct SpillSettings: Sendable {
  /// The folder of the temporary files.
  var directory: String
  /// For tests: behave as if the disk filled up after this many bytes in all (nil: no limit).
  var byteLimit: Int64? = nil
}

/// Bytes written to temporary files so far, shared by the files of one build (for the limit).
final class SpillBudget: @unchecked Sendable {
  let settings: SpillSettings
  var written: Int64 = 0

  init(_ settings: SpillSettings) { self.settings = settings }

  /// The error for a temporary file that could not be created or written.
  func failure(_ what: String, _ code: Int32) -> BuildError {
    .temporaryFiles(
      directory: settings.directory, reason: "\(what): \(String(cString: strerror(code)))")
  }
}

/// A temporary file that is unlinked as soon as it is created, so that nothing is left behind
/// on any exit (a failed build, a kill, a crash): only its descriptor keeps it, and closing the
/// descriptor frees the disk space. Appends go through a 1 MiB buffer; ``map()`` maps what was
/// written.
final class SpillFile {
  let budget: SpillBudget
  let purpose: String
  private let fd: Int32
  private var buffer: UnsafeMutableRawPointer
  private let capacity = 1 << 20
  private var used = 0
  /// Bytes written (flushed or buffered).
  private(set) var size: Int64 = 0
  private var mapping: UnsafeMutableRawPointer? = nil
  private var mappedLength = 0

  init(_ budget: SpillBudget, purpose: String) throws {
    self.budget = budget
    self.purpose = purpose
    let directory = budget.settings.directory
    // A file without a name from the start (O_TMPFILE) where the file system has them: a kill
    // cannot come between creating it and unlinking it.
    var fd = Self.unnamedFile(in: directory)
    if fd < 0 {
      var template = Array(
        ((directory as NSString).appendingPathComponent(".placeidx-spill-XXXXXX")).utf8CString)
      fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else {
        throw budget.failure("cannot create a temporary \(purpose) file", errno)
      }
      template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }
    self.fd = fd
    buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  /// A descriptor of a new file in `directory` that has no name (Linux's O_TMPFILE), or -1
  /// where the system or the file system has none.
  private static func unnamedFile(in directory: String) -> Int32 {
    #if os(Linux)
      // O_TMPFILE is a macro Swift does not import: __O_TMPFILE (the same bits on every Linux
      // architecture Swift runs on) with O_DIRECTORY.
      let tmpfile: Int32 = 0o20_000_000 | O_DIRECTORY
      return open(directory, tmpfile | O_RDWR | O_CLOEXEC, 0o600)
    #else
      return -1
    #endif
  }

  deinit {
    if let mapping { munmap(mapping, mappedLength) }
    buffer.deallocate()
    close(fd)
  }

  /// Appends `count` bytes from `bytes`.
  func append(_ bytes: UnsafeRawPointer, count: Int) throws {
    var done = 0
    while done < count {
      if used == capacity { try flush() }
      let n = min(count - done, capacity - used)
      (buffer + used).copyMemory(from: bytes + done, byteCount: n)
      used += n
      done += n
    }
    size += Int64(count)
  }

  /// Appends two 64-bit words (one record).
  func append(_ a: Int64, _ b: Int64) throws {
    if capacity - used < 16 { try flush() }
    buffer.storeBytes(of: a.littleEndian, toByteOffset: used, as: Int64.self)
    buffer.storeBytes(of: b.littleEndian, toByteOffset: used + 8, as: Int64.self)
    used += 16
    size += 16
  }

  /// Writes the buffer to the file.
  func flush() throws {
    var done = 0
    if let limit = budget.settings.byteLimit, budget.written + Int64(used) > limit {
      throw budget.failure("writing the temporary \(purpose) file", ENOSPC)
    }
    while done < used {
      let n = write(fd, buffer + done, used - done)
      if n < 0 {
        if errno == EINTR { continue }
        throw budget.failure("writing the temporary \(purpose) file", errno)
      }
      done += n
    }
    budget.written += Int64(used)
    used = 0
  }

  /// Sets the file's size to `bytes`, reserving the disk blocks (so that writing through a
  /// mapping cannot meet a full disk, which would be a bus error rather than an error).
  func reserve(_ bytes: Int64) throws {
    precondition(used == 0 && mapping == nil)
    if let limit = budget.settings.byteLimit, budget.written + bytes > limit {
      throw budget.failure("reserving the temporary \(purpose) file", ENOSPC)
    }
    if bytes > 0 {
      let r = posix_fallocate(fd, 0, off_t(bytes))
      if r != 0 {
        // Some file systems (tmpfs on old kernels) lack fallocate: fall back to writing zeros.
        guard r == EOPNOTSUPP || r == EINVAL else {
          throw budget.failure("reserving the temporary \(purpose) file", r)
        }
        var zeros = Int64(0)
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        chunk.initializeMemory(as: UInt8.self, repeating: 0, count: 1 << 16)
        while zeros < bytes {
          let n = write(fd, chunk, Int(min(Int64(1 << 16), bytes - zeros)))
          if n < 0 {
            if errno == EINTR { continue }
            throw budget.failure("reserving the temporary \(purpose) file", errno)
          }
          zeros += Int64(n)
        }
      }
    }
    budget.written += bytes
    size = bytes
  }

  /// Maps the whole file for reading and writing (after the last append); the mapping lives
  /// as long as this object.
  func map() throws -> UnsafeMutableRawBufferPointer {
    try flush()
    if let mapping { return UnsafeMutableRawBufferPointer(start: mapping, count: mappedLength) }
    guard size > 0 else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
    let p = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
    guard let p, p != MAP_FAILED else {
      throw budget.failure("mapping the temporary \(purpose) file", errno)
    }
    mapping = p
    mappedLength = Int(size)
    return UnsafeMutableRawBufferPointer(start: p, count: mappedLength)
  }

  /// Reads `count` bytes at `offset` of what was written (flushed) into `bytes`, with `pread`:
  /// a read at random that leaves no page of the file resident in the process.
  func read(into bytes: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws {
    var done = 0
    while done < count {
      let n = pread(fd, bytes + done, count - done, off_t(offset) + off_t(done))
      if n < 0 {
        if errno == EINTR { continue }
        throw budget.failure("reading the temporary \(purpose) file", errno)
      }
      if n == 0 { throw budget.failure("reading the temporary \(purpose) file", EIO) }
      done += n
    }
  }

  /// Lets the kernel take back the mapped pages (they stay in the page cache and in the
  /// file): bounds the resident memory of a mapping read at random.
  func dropResidentPages() {
    guard let mapping else { return }
    _ = madvise(mapping, mappedLength, MADV_DONTNEED)
  }
}

/// Counts the distinct pages of a mapping touched since the last drop, so that its owner can
/// drop them once they pass a budget: resident memory stays below the budget while a large
/// file is read at random.
///
/// The kernel maps the pages around a faulting page of a file mapping too, when they are in
/// the page cache ("fault-around", 64 KiB by default), and a temporary file just written is
/// in it: one touched page can make 16 resident. So the budget counts aligned blocks of 16
/// pages, and a block counts as all of its pages.
struct PageBudget {
  private var bits: [UInt64]
  private var touched = 0
  /// Blocks that may stay touched.
  let limit: Int
  /// Pages the budget covers.
  let pageCount: Int
  /// Pages per block (log2): 16 pages of 4 KiB, the kernel's fault-around.
  static let blockShift = 4

  /// A budget over `pages` pages of which at most about `limit` stay resident.
  init(pages: Int, limit: Int) {
    let blocks = (pages + (1 << PageBudget.blockShift) - 1) >> PageBudget.blockShift
    bits = [UInt64](repeating: 0, count: (blocks + 63) / 64)
    pageCount = pages
    self.limit = max(1, limit >> PageBudget.blockShift)
  }

  /// Notes that `page` was touched; true when the budget is spent (the owner drops the pages,
  /// and the count starts again).
  mutating func touch(_ page: Int) -> Bool {
    let block = page >> PageBudget.blockShift
    let w = block >> 6
    let b = UInt64(1) << UInt64(block & 63)
    if bits[w] & b != 0 { return false }
    bits[w] |= b
    touched += 1
    guard touched > limit else { return false }
    for i in bits.indices { bits[i] = 0 }
    touched = 1
    bits[w] |= b
    return true
  }
}
