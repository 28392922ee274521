import Foundation
import OSMReader
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Extracts read from a pipe and from a named FIFO, in every format: the format is sniffed from
/// a buffered prefix (a pipe cannot rewind), and an input that ends early, or a FIFO nobody
/// writes to, is a clear error instead of a hang.
@Suite("Stream input", .serialized)
struct StreamInputTests {
  enum Format: String, CaseIterable, Sendable {
    case plain, gzip, bzip2, pbf
  }

  /// The sample in `format`, as bytes.
  static func sample(_ format: Format, in dir: TemporaryDirectory) throws -> Data {
    let xml = try Data(contentsOf: TestPaths.sample)
    switch format {
    case .plain: return xml
    case .gzip, .bzip2:
      let tool = URL(fileURLWithPath: format == .gzip ? "/bin/gzip" : "/bin/bzip2")
      let file = try dir.write("sample.osm", xml)
      let r = try runProcess(tool, ["-k", "-f", file.path])
      #expect(r.status == 0, "\(r.stderr)")
      return try Data(
        contentsOf: URL(fileURLWithPath: file.path + (format == .gzip ? ".gz" : ".bz2")))
    case .pbf:
      return try Data(contentsOf: URL(fileURLWithPath: Osmium.pbf(of: TestPaths.sample.path)))
    }
  }

  /// Writes `data` to `fd` on a thread of its own, in small pieces (so that the reader sees
  /// short reads), then closes it.
  static func feed(_ data: Data, to fd: Int32, pause: Double = 0) -> Thread {
    let thread = Thread {
      if pause > 0 { Thread.sleep(forTimeInterval: pause) }
      data.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let n = write(fd, raw.baseAddress! + done, min(4096, raw.count - done))
          if n <= 0 { break }
          done += n
        }
      }
      close(fd)
    }
    thread.start()
    return thread
  }

  static func formats() -> [Format] {
    Osmium.available ? Format.allCases : [.plain, .gzip, .bzip2]
  }

  @Test("a pipe in each format reads as the file does", arguments: formats())
  func pipe(_ format: Format) throws {
    let dir = try TemporaryDirectory()
    let bytes = try Self.sample(format, in: dir)
    let expected = try readAll(TestPaths.sample).0.elements
    #expect(expected.count > 100)
    var fds: [Int32] = [0, 0]
    #expect(Glibc.pipe(&fds) == 0)
    _ = Self.feed(bytes, to: fds[1])
    defer { close(fds[0]) }
    let handler = CollectingHandler()
    _ = try OSMExtractReader(path: "/dev/fd/\(fds[0])").read(into: handler)
    #expect(handler.elements == expected)
  }

  @Test("a named FIFO in each format reads as the file does", arguments: formats())
  func fifo(_ format: Format) throws {
    let dir = try TemporaryDirectory()
    let bytes = try Self.sample(format, in: dir)
    let expected = try readAll(TestPaths.sample).0.elements
    let path = dir.file("extract.fifo").path
    #expect(mkfifo(path, 0o600) == 0)
    // The writer opens the FIFO after the reader did (open blocks until both ends are there).
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      guard fd >= 0 else { return }
      _ = StreamInputTests.feed(bytes, to: fd, pause: 0.2)
    }
    writer.start()
    let handler = CollectingHandler()
    _ = try OSMExtractReader(path: path).read(into: handler)
    #expect(handler.elements == expected)
  }

  @Test("a FIFO whose writer closes without sending anything: 'no OSM data'")
  func fifoWriterGoesAway() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("empty.fifo").path
    #expect(mkfifo(path, 0o600) == 0)
    let writer = Thread {
      Thread.sleep(forTimeInterval: 0.2)
      let fd = open(path, O_WRONLY)
      if fd >= 0 { close(fd) }
    }
    writer.start()
    #expect(throws: OSMReaderError.noData(path: path)) {
      try OSMExtractReader(path: path).read(into: CollectingHandler())
    }
  }

  @Test("a FIFO whose writer goes away mid-element: a truncation error, not a hang")
  func fifoWriterGoesAwayMidway() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("cut.fifo").path
    #expect(mkfifo(path, 0o600) == 0)
    let xml = try Data(contentsOf: TestPaths.sample)
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      guard fd >= 0 else { return }
      _ = StreamInputTests.feed(xml.prefix(xml.count / 2), to: fd)
    }
    writer.start()
    #expect {
      try OSMExtractReader(path: path).read(into: CollectingHandler())
    } throws: { error in
      guard case .malformedXML(let p, _, _, _) = error as? OSMReaderError else { return false }
      return p == path
    }
  }

  @Test("a FIFO nobody opens for writing: an error after the timeout, not a hang")
  func fifoWithoutWriter() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("lonely.fifo").path
    #expect(mkfifo(path, 0o600) == 0)
    setenv("PLACEIDX_FIFO_TIMEOUT", "0.3", 1)
    defer { unsetenv("PLACEIDX_FIFO_TIMEOUT") }
    let start = Date()
    let error = readError(URL(fileURLWithPath: path))
    guard case .cannotOpen(let p, let reason) = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(p == path)
    #expect(reason.contains("no data arrived on the FIFO"), "\(reason)")
    #expect(Date().timeIntervalSince(start) < 60)
  }

  @Test("an empty file, /dev/null and a pipe closed at once: 'no OSM data'", arguments: [0, 1, 2])
  func noData(_ which: Int) throws {
    let dir = try TemporaryDirectory()
    var path: String
    var fds: [Int32] = [0, 0]
    switch which {
    case 0: path = try dir.write("empty.osm", "").path
    case 1: path = "/dev/null"
    default:
      #expect(Glibc.pipe(&fds) == 0)
      close(fds[1])
      path = "/dev/fd/\(fds[0])"
    }
    defer { if which == 2 { close(fds[0]) } }
    #expect(throws: OSMReaderError.noData(path: path)) {
      try OSMExtractReader(path: path).read(into: CollectingHandler())
    }
    #expect(
      OSMReaderError.noData(path: path).description
        == "\(path): no OSM data: the input ends before any element")
  }

  @Test("blank input, only a prolog, an empty gzip member: 'no OSM data'")
  func endsBeforeAnyElement() throws {
    let dir = try TemporaryDirectory()
    let blank = try dir.write("blank.osm", "  \n\n")
    let prolog = try dir.write("prolog.osm", #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n")
    let emptyGzip = try dir.write(
      "empty.osm.gz",
      Data([
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00,
      ]))
    for file in [blank, prolog, emptyGzip] {
      #expect(readError(file) == .noData(path: file.path), "\(file.lastPathComponent)")
    }
  }

  @Test("garbage after a gzip member, or a bzip2 stream after gzip data, is an error")
  func trailingData() throws {
    let dir = try TemporaryDirectory()
    let gz = try Self.sample(.gzip, in: dir)
    let bz = try Self.sample(.bzip2, in: dir)
    let cases: [(String, Data, String)] = [
      (
        "garbage.osm.gz", gz + Data("garbage\n".utf8),
        "garbage follows the gzip data at byte \(gz.count)"
      ),
      ("gzip-bzip2.osm.gz", gz + bz, "a bzip2 stream follows the gzip data at byte \(gz.count)"),
      (
        "garbage.osm.bz2", bz + Data("x".utf8), "garbage follows the bzip2 data at byte \(bz.count)"
      ),
    ]
    for (name, data, message) in cases {
      let file = try dir.write(name, data)
      let error = readError(file)
      guard case .compression(let path, _, let reason) = error else {
        Issue.record("\(name): expected a compression error, got \(String(describing: error))")
        continue
      }
      #expect(path == file.path)
      #expect(reason == message)
    }
    // Two gzip members, and two bzip2 streams, are one extract each (gzip and pbzip2 write them).
    let half = try Data(contentsOf: TestPaths.sample)
    let cut = half.count / 2
    for (tool, ext) in [("/bin/gzip", "gz"), ("/bin/bzip2", "bz2")] {
      let a = try dir.write("a.part", half.prefix(cut))
      let b = try dir.write("b.part", half.suffix(from: cut))
      for f in [a, b] { _ = try runProcess(URL(fileURLWithPath: tool), ["-f", f.path]) }
      let joined =
        try Data(contentsOf: URL(fileURLWithPath: a.path + "." + ext))
        + Data(contentsOf: URL(fileURLWithPath: b.path + "." + ext))
      let (handler, _) = try readAll(try dir.write("joined.osm.\(ext)", joined))
      #expect(handler.elements == (try readAll(TestPaths.sample).0.elements), "\(ext)")
    }
  }
}
