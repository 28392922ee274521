import CZlib

/// What is wrong with one blob of a PBF file, before the file name and offset are added.
struct PBFFailure: Error, Equatable {
  var reason: String

  init(_ reason: String) { self.reason = reason }

  init(_ error: ProtoError, in what: String) { reason = "\(what): \(error)" }
}

/// The `Blob` message of fileformat.proto: one block's bytes, raw or compressed.
enum PBFBlob {
  /// Largest uncompressed block the format allows (and so the reader accepts).
  static let maxRawSize = 32 << 20

  /// The uncompressed bytes of the `Blob` message `bytes`.
  ///
  /// Blob fields: 1 raw, 2 raw_size, 3 zlib_data, 4 lzma_data, 5 OBSOLETE_bzip2_data, 6 lz4_data,
  /// 7 zstd_data. Only raw and zlib are read; the others are refused by name.
  static func decode(_ bytes: UnsafeRawBufferPointer) throws(PBFFailure) -> [UInt8] {
    var reader = ProtoReader(bytes)
    var rawSize: Int? = nil
    var raw: UnsafeRawBufferPointer? = nil
    var zlib: UnsafeRawBufferPointer? = nil
    var other: String? = nil
    do {
      while let (field, wire) = try reader.readTag() {
        switch (field, wire) {
        case (1, ProtoReader.lengthDelimited): raw = try reader.readBytes()
        case (2, ProtoReader.varint):
          let v = try reader.readInt64()
          guard v >= 0 else { throw PBFFailure("raw_size \(v) is negative") }
          guard v <= maxRawSize else {
            throw PBFFailure("raw_size \(v) is over the format's limit of \(maxRawSize) bytes")
          }
          rawSize = Int(v)
        case (3, ProtoReader.lengthDelimited): zlib = try reader.readBytes()
        case (4, _): other = "lzma"
        case (5, _): other = "bzip2"
        case (6, _): other = "lz4"
        case (7, _): other = "zstd"
        default: try reader.skip(wire: wire)
        }
        if let other {
          throw PBFFailure(
            "unsupported blob compression: \(other) (this reader reads raw and zlib)")
        }
      }
    } catch let error as ProtoError {
      throw PBFFailure(error, in: "Blob")
    } catch let failure as PBFFailure {
      throw failure
    } catch {
      throw PBFFailure("Blob: \(error)")
    }
    if let raw {
      if let rawSize, rawSize != raw.count {
        throw PBFFailure("raw blob is \(raw.count) bytes but raw_size says \(rawSize)")
      }
      guard raw.count <= maxRawSize else {
        throw PBFFailure("raw blob is over the format's limit of \(maxRawSize) bytes")
      }
      return [UInt8](raw)
    }
    guard let zlib else { throw PBFFailure("Blob holds no data (neither raw nor zlib_data)") }
    return try inflate(zlib, expected: rawSize)
  }

  /// Inflates zlib-wrapped deflate data to exactly `expected` bytes (when given), at most
  /// ``maxRawSize``.
  static func inflate(_ input: UnsafeRawBufferPointer, expected: Int?) throws(PBFFailure) -> [UInt8]
  {
    var stream = z_stream()
    guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw PBFFailure("zlib: cannot start the decoder")
    }
    defer { inflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: max(1, expected ?? min(maxRawSize, 1 << 20)))
    var produced = 0
    stream.next_in = UnsafeMutablePointer(
      mutating: (input.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!).assumingMemoryBound(
        to: Bytef.self))
    stream.avail_in = UInt32(input.count)
    while true {
      let rc: Int32 = out.withUnsafeMutableBytes { buffer in
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self) + produced
        stream.avail_out = UInt32(buffer.count - produced)
        let rc = CZlib.inflate(&stream, Z_FINISH)
        produced = buffer.count - Int(stream.avail_out)
        return rc
      }
      if rc == Z_STREAM_END { break }
      if rc == Z_BUF_ERROR && stream.avail_out == 0 {
        // More output than room.
        if let expected {
          throw PBFFailure("zlib data inflates to more than raw_size (\(expected) bytes)")
        }
        guard out.count < maxRawSize else {
          throw PBFFailure("zlib data inflates to more than \(maxRawSize) bytes")
        }
        out.append(contentsOf: repeatElement(0, count: min(out.count, maxRawSize - out.count)))
        continue
      }
      if rc == Z_BUF_ERROR {
        throw PBFFailure("zlib error: the compressed data is truncated")
      }
      let message = stream.msg.map { String(cString: $0) } ?? "code \(rc)"
      throw PBFFailure("zlib error: \(message)")
    }
    if stream.avail_in != 0 {
      throw PBFFailure("zlib error: \(stream.avail_in) bytes follow the compressed data")
    }
    if let expected, produced != expected {
      throw PBFFailure("zlib data inflates to \(produced) bytes but raw_size says \(expected)")
    }
    out.removeSubrange(produced...)
    return out
  }
}
