import Foundation
import TestSupport
import Testing

@testable import OSMReader

/// The thread that decompresses an extract ahead of the parser.
@Suite("PrefetchingInput")
struct PrefetchingInputTests {
  /// A gzip and a bzip2 copy of the sample.
  func compressedCopies(_ dir: TemporaryDirectory) throws -> [URL] {
    var out: [URL] = []
    if let gzip = Tools.gzip {
      out.append(dir.file("s.osm.gz"))
      try Tools.compress(gzip, TestPaths.sample, to: out[out.count - 1])
    }
    if let bzip2 = Tools.bzip2 {
      out.append(dir.file("s.osm.bz2"))
      try Tools.compress(bzip2, TestPaths.sample, to: out[out.count - 1])
    }
    return out
  }

  @Test(
    "its chunks, in order, are the decompressed bytes; the last is empty",
    .enabled(if: Tools.gzip != nil || Tools.bzip2 != nil))
  func chunksAreTheBytesInOrder() throws {
    let plain = try Data(contentsOf: TestPaths.sample)
    let dir = try TemporaryDirectory()
    for file in try compressedCopies(dir) {
      let input = try ExtractInput(path: file.path)
      let prefetch = PrefetchingInput(input, chunkSize: 1000)
      prefetch.start()
      var bytes = Data()
      var chunks = 0
      var lastPosition: Int64 = 0
      while true {
        let (buffer, count, position) = try prefetch.next()
        #expect(position >= lastPosition)
        lastPosition = position
        if count == 0 { break }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        chunks += 1
      }
      prefetch.stop()
      input.close()
      #expect(bytes == plain, "\(file.lastPathComponent)")
      #expect(chunks >= plain.count / 1000)
    }
  }

  @Test(
    "a parser that stops after one chunk ends the reading thread",
    .enabled(if: Tools.gzip != nil || Tools.bzip2 != nil), .timeLimit(.minutes(10)))
  func stoppingEarlyEndsTheThread() throws {
    let dir = try TemporaryDirectory()
    for file in try compressedCopies(dir) {
      let input = try ExtractInput(path: file.path)
      let prefetch = PrefetchingInput(input, chunkSize: 64)
      prefetch.start()
      let (_, count, _) = try prefetch.next()
      #expect(count == 64)
      // Returns once the thread has ended, with most of the input unread.
      prefetch.stop()
      input.close()
    }
  }

  @Test(
    "a corrupt stream's error reaches the parser",
    .enabled(if: Tools.gzip != nil), .timeLimit(.minutes(10)))
  func aReadErrorReachesTheParser() throws {
    let dir = try TemporaryDirectory()
    let gz = dir.file("s.osm.gz")
    try Tools.compress(Tools.gzip!, TestPaths.sample, to: gz)
    var bytes = try Data(contentsOf: gz)
    for i in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[i] ^= 0x5A }
    try bytes.write(to: gz)
    let input = try ExtractInput(path: gz.path)
    let prefetch = PrefetchingInput(input, chunkSize: 256)
    prefetch.start()
    var failure: Error? = nil
    do {
      while true {
        let (_, count, _) = try prefetch.next()
        if count == 0 { break }
      }
    } catch { failure = error }
    prefetch.stop()
    input.close()
    let error = try #require(failure as? OSMReaderError)
    #expect("\(error)".contains("gzip"), "\(error)")
  }
}
