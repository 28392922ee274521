import Dispatch
import Foundation

/// Reads an OSM PBF file: a sequence of frames, each a 4-byte big-endian BlobHeader length, a
/// `BlobHeader` (type, datasize) and a `Blob` of that size. The first blob is the `OSMHeader`;
/// each `OSMData` blob holds one `PrimitiveBlock`.
///
/// Blobs are independent, so they are inflated and decoded on the available cores (Dispatch)
/// while this thread hands their elements to the handler in file order: the handler sees
/// exactly what a one-thread read would show it. At most ``window`` blobs are in flight, which
/// bounds memory to that many blocks (each at most 32 MiB uncompressed, about 1 MiB in
/// practice). Frames are read in order from the stream, never by seeking, so a pipe works.
final class PBFReader {
  /// Largest BlobHeader the format allows.
  static let maxHeaderSize = 64 << 10
  /// Largest Blob the format allows.
  static let maxBlobSize = 32 << 20

  /// Blobs read ahead of the one being handed to the handler.
  static let window = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount + 2)

  private let input: ExtractInput
  private let path: String
  private var offset: Int64 = 0

  init(input: ExtractInput) {
    self.input = input
    path = input.displayPath
  }

  /// One blob on its way through a worker.
  private final class Pending: @unchecked Sendable {
    // @unchecked: `result` is written once by the worker before `done` is signalled, and read
    // by the consumer only after waiting on `done`.
    let offset: Int64
    let end: Int64
    let done = DispatchSemaphore(value: 0)
    var result: Result<PBFBlock, OSMReaderError>

    init(offset: Int64, end: Int64, result: Result<PBFBlock, OSMReaderError>? = nil) {
      self.offset = offset
      self.end = end
      self.result = result ?? .failure(.pbf(path: "", offset: offset, reason: "not decoded"))
      if result != nil { done.signal() }
    }
  }

  /// A frame: its type, its Blob bytes and where it starts.
  private struct Frame {
    var type: String
    var blob: [UInt8]
    var offset: Int64
  }

  private func failure(_ reason: String, at offset: Int64) -> OSMReaderError {
    .pbf(path: path, offset: offset, reason: reason)
  }

  /// Fills `count` bytes from the stream, or throws `what` when it ends first.
  private func readExactly(_ count: Int, at start: Int64, _ what: String) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = try bytes.withUnsafeMutableBytes { try input.readFully(into: $0) }
    offset += Int64(got)
    guard got == count else {
      throw failure(
        "truncated frame: the file ends inside \(what) (\(got) of \(count) bytes)", at: start)
    }
    return bytes
  }

  /// The next frame, or nil at a clean end of the file.
  private func nextFrame() throws -> Frame? {
    let start = offset
    var prefix = [UInt8](repeating: 0, count: 4)
    let got = try prefix.withUnsafeMutableBytes { try input.readFully(into: $0) }
    offset += Int64(got)
    if got == 0 { return nil }
    guard got == 4 else {
      throw failure("truncated frame: the file ends inside a blob's length prefix", at: start)
    }
    let headerSize =
      Int(prefix[0]) << 24 | Int(prefix[1]) << 16 | Int(prefix[2]) << 8 | Int(prefix[3])
    guard headerSize <= Self.maxHeaderSize else {
      throw failure(
        "BlobHeader is \(headerSize) bytes; the format's limit is \(Self.maxHeaderSize)", at: start)
    }
    let headerBytes = try readExactly(headerSize, at: start, "a BlobHeader")
    var type: String? = nil
    var dataSize: Int64? = nil
    do {
      try headerBytes.withUnsafeBytes { raw in
        var reader = ProtoReader(raw)
        while let (field, wire) = try reader.readTag() {
          switch (field, wire) {
          case (1, ProtoReader.lengthDelimited):
            type = String(decoding: try reader.readBytes(), as: UTF8.self)
          case (3, ProtoReader.varint): dataSize = try reader.readInt64()
          default: try reader.skip(wire: wire)
          }
        }
      }
    } catch {
      throw failure("BlobHeader: \(error)", at: start)
    }
    guard let type else { throw failure("BlobHeader has no type", at: start) }
    guard let dataSize else { throw failure("BlobHeader has no datasize", at: start) }
    guard dataSize >= 0 else {
      throw failure("BlobHeader gives a negative datasize (\(dataSize))", at: start)
    }
    guard dataSize <= Self.maxBlobSize else {
      throw failure(
        "Blob is \(dataSize) bytes; the format's limit is \(Self.maxBlobSize)", at: start)
    }
    let blob = try readExactly(Int(dataSize), at: start, "a Blob")
    return Frame(type: type, blob: blob, offset: start)
  }

  /// Reads the file, handing every element to `handler` in file order.
  func read(
    into handler: OSMElementHandler, progress: ((Int64, Int64) -> Void)?
  ) throws -> OSMReadStatistics {
    var stats = OSMReadStatistics()
    guard let first = try nextFrame() else { throw OSMReaderError.noData(path: path) }
    guard first.type == "OSMHeader" else {
      throw failure("the first blob is '\(first.type)', not 'OSMHeader'", at: first.offset)
    }
    let header: PBFHeader
    do {
      let bytes = try first.blob.withUnsafeBytes { raw in
        try PBFBlob.decode(raw)
      }
      header = try PBFHeader.decode(bytes)
    } catch let error as PBFFailure {
      throw failure(error.reason, at: first.offset)
    }
    stats.generator = header.writingProgram
    let historical = header.requiredFeatures.contains("HistoricalInformation")

    var pending: [Pending] = []
    pending.reserveCapacity(Self.window)
    var head = 0
    var ended = false
    let path = self.path
    while true {
      while !ended && pending.count - head < Self.window {
        let frame: Frame
        do {
          guard let f = try nextFrame() else {
            ended = true
            break
          }
          frame = f
        } catch let error as OSMReaderError {
          // Reported in file order, after the blobs before it.
          pending.append(Pending(offset: offset, end: offset, result: .failure(error)))
          ended = true
          break
        }
        guard frame.type == "OSMData" else { continue }  // unknown blob types are skipped
        let job = Pending(offset: frame.offset, end: offset)
        let blob = frame.blob
        let at = frame.offset
        DispatchQueue.global(qos: .userInitiated).async {
          do {
            let bytes = try blob.withUnsafeBytes { raw in
              try PBFBlob.decode(raw)
            }
            var block = try PBFBlockDecoder.decode(bytes, historical: historical)
            block.warnings = block.warnings.map { "\(path): blob at byte \(at): \($0)" }
            job.result = .success(block)
          } catch let error as PBFFailure {
            job.result = .failure(.pbf(path: path, offset: at, reason: error.reason))
          } catch {
            job.result = .failure(.pbf(path: path, offset: at, reason: "\(error)"))
          }
          job.done.signal()
        }
        pending.append(job)
      }
      guard head < pending.count else { break }
      let job = pending[head]
      job.done.wait()
      // Let go of the slot (and its block) before the handler runs on the next one.
      let result = job.result
      job.result = .failure(.pbf(path: path, offset: job.offset, reason: "consumed"))
      head += 1
      if head > 64 && head * 2 > pending.count {
        pending.removeFirst(head)
        head = 0
      }
      let block = try result.get()
      stats.xmlBytes += Int64(block.rawBytes)
      stats.skippedElements += block.skipped
      for w in block.warnings where stats.warnings.count < 20 { stats.warnings.append(w) }
      if block.newestTimestamp > stats.newestTimestamp {
        stats.newestTimestamp = block.newestTimestamp
      }
      for group in block.groups {
        switch group {
        case .nodes(let nodes):
          stats.nodes += nodes.count
          for n in nodes { try handler.handle(node: n) }
        case .ways(let ways):
          stats.ways += ways.count
          for w in ways { try handler.handle(way: w) }
        case .relations(let relations):
          stats.relations += relations.count
          for r in relations { try handler.handle(relation: r) }
        }
      }
      progress?(job.end, input.compressedSize)
    }
    return stats
  }
}
