/// A POSIX ustar archive of regular files: written deterministically, read back with every header
/// checked. The container of the packed artifact (`docs/FORMAT.md`, "Packed artifact").
///
/// ```
/// per member:  512-byte header, then the data zero-padded to a multiple of 512
/// then:        two 512-byte blocks of zeros (end of archive)
///
/// header field   offset  size  written as
///   name              0   100  member name, NUL-padded (no folders)
///   mode            100     8  "0000644\0"
///   uid, gid        108    16  "0000000\0" each
///   size            124    12  11 octal digits + NUL
///   mtime           136    12  11 octal digits + NUL
///   chksum          148     8  6 octal digits + NUL + space: the sum of the header's bytes
///                              as unsigned, this field counted as 8 spaces
///   typeflag        156     1  "0" (regular file)
///   linkname        157   100  zeros
///   magic, version  257     8  "ustar\0" "00"
///   uname, gname    265    64  zeros
///   devmajor/minor  329    16  "0000000\0" each
///   prefix          345   155  zeros
///   (pad)           500    12  zeros
/// ```
public enum UstarArchive {
  /// The block size: headers, padded data and the end marker are multiples of it.
  public static let blockSize = 512
  /// The largest member size and timestamp that 11 octal digits hold (8 GiB - 1).
  public static let maximumValue = 0o77777777777

  /// One regular-file member of an archive.
  public struct Member: Sendable, Equatable {
    /// The member's name.
    public var name: String
    /// Offset of its header block in the archive.
    public var headerOffset: Int
    /// Size of its data in bytes.
    public var size: Int
    /// Its modification time, seconds since 1970.
    public var modificationTime: Int
    /// Offset of its data in the archive: the block after the header.
    public var dataOffset: Int { headerOffset + UstarArchive.blockSize }
    /// Its data's byte range in the archive.
    public var dataRange: Range<Int> { dataOffset..<(dataOffset + size) }
  }

  /// The archive of `files`, in the order given, each with mode 0644, uid and gid 0 and
  /// `modificationTime`; `path` names the archive in errors.
  public static func archive(
    _ files: [(name: String, bytes: [UInt8])], modificationTime: Int, path: String
  ) throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(
      files.reduce(2 * blockSize) { $0 + blockSize + padded($1.bytes.count) })
    for file in files {
      out += try header(
        name: file.name, size: file.bytes.count, modificationTime: modificationTime, path: path)
      out += file.bytes
      out += [UInt8](repeating: 0, count: padded(file.bytes.count) - file.bytes.count)
    }
    out += [UInt8](repeating: 0, count: 2 * blockSize)
    return out
  }

  /// `count` rounded up to a whole number of blocks.
  public static func padded(_ count: Int) -> Int {
    (count + blockSize - 1) / blockSize * blockSize
  }

  /// The header block of a regular file.
  static func header(name: String, size: Int, modificationTime: Int, path: String) throws
    -> [UInt8]
  {
    let nameBytes = Array(name.utf8)
    guard !nameBytes.isEmpty, nameBytes.count <= 100, !nameBytes.contains(0),
      !nameBytes.contains(UInt8(ascii: "/"))
    else {
      throw PackedArtifactError(
        path: path, member: name, reason: "a member name must be 1 to 100 bytes, without '/'")
    }
    guard size <= maximumValue else {
      throw PackedArtifactError(
        path: path, member: name,
        reason: "\(size) bytes is more than a ustar member holds (\(maximumValue))")
    }
    guard (0...maximumValue).contains(modificationTime) else {
      throw PackedArtifactError(
        path: path, member: name,
        reason: "timestamp \(modificationTime) does not fit a ustar header")
    }
    var h = [UInt8](repeating: 0, count: blockSize)
    func put(_ bytes: some Sequence<UInt8>, at offset: Int) {
      for (i, b) in bytes.enumerated() { h[offset + i] = b }
    }
    // `width - 1` zero-padded octal digits, then NUL.
    func putOctal(_ value: Int, width: Int, at offset: Int) {
      let digits = String(value, radix: 8)
      put(String(repeating: "0", count: width - 1 - digits.count).utf8, at: offset)
      put(digits.utf8, at: offset + width - 1 - digits.count)
    }
    put(nameBytes, at: 0)
    putOctal(0o644, width: 8, at: 100)
    putOctal(0, width: 8, at: 108)
    putOctal(0, width: 8, at: 116)
    putOctal(size, width: 12, at: 124)
    putOctal(modificationTime, width: 12, at: 136)
    h[156] = UInt8(ascii: "0")
    put("ustar\0".utf8, at: 257)
    put("00".utf8, at: 263)
    putOctal(0, width: 8, at: 329)
    putOctal(0, width: 8, at: 337)
    put([UInt8](repeating: 0x20, count: 8), at: 148)
    putOctal(checksum(h), width: 7, at: 148)
    h[155] = 0x20
    return h
  }

  /// The members of the archive in `bytes`, every header checked (magic, checksum, type, size
  /// within the file) and the end-of-archive blocks present; `path` names the archive in errors.
  public static func members(of bytes: UnsafeRawBufferPointer, path: String) throws -> [Member] {
    var members: [Member] = []
    var offset = 0
    while true {
      guard bytes.count - offset >= blockSize else {
        throw PackedArtifactError(
          path: path, offset: offset,
          reason: offset == bytes.count
            ? "the archive ends without its end-of-archive blocks (truncated)"
            : "truncated: a header needs 512 bytes, \(bytes.count - offset) remain")
      }
      let block = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + blockSize)])
      if block.allSatisfy({ $0 == 0 }) {
        let second = offset + blockSize
        guard bytes.count - second >= blockSize,
          bytes[second..<(second + blockSize)].allSatisfy({ $0 == 0 })
        else {
          throw PackedArtifactError(
            path: path, offset: second,
            reason: "the second end-of-archive block is missing or not zero (truncated?)")
        }
        if let extra = bytes[(second + blockSize)...].firstIndex(where: { $0 != 0 }) {
          throw PackedArtifactError(
            path: path, offset: extra, reason: "data after the end-of-archive blocks")
        }
        return members
      }
      let member = try parseHeader(block, at: offset, archiveSize: bytes.count, path: path)
      members.append(member)
      offset = member.dataOffset + padded(member.size)
    }
  }

  /// Checks and decodes the header `block` found at `offset`.
  private static func parseHeader(
    _ block: UnsafeRawBufferPointer, at offset: Int, archiveSize: Int, path: String
  ) throws -> Member {
    func text(_ range: Range<Int>) -> String {
      let field = block[range]
      let end = field.firstIndex(of: 0) ?? range.upperBound
      return String(decoding: block[range.lowerBound..<end], as: UTF8.self)
    }
    let prefix = text(345..<500)
    let name = prefix.isEmpty ? text(0..<100) : prefix + "/" + text(0..<100)
    func fail(_ reason: String) -> PackedArtifactError {
      PackedArtifactError(path: path, member: name, offset: offset, reason: reason)
    }
    guard block[257..<263].elementsEqual("ustar\0".utf8), block[263..<265].elementsEqual("00".utf8)
    else {
      throw fail("not a POSIX ustar header (no \"ustar\\0\" \"00\" magic at byte 257)")
    }
    let computed = checksum(block)
    guard let stored = octal(block[148..<156]) else {
      throw fail("the header's checksum field is not an octal number")
    }
    guard stored == computed else {
      throw fail("header checksum field says \(stored), the header sums to \(computed)")
    }
    guard block[156] == UInt8(ascii: "0") || block[156] == 0 else {
      throw fail("not a regular file (type flag \(block[156]))")
    }
    guard let size = octal(block[124..<136]) else {
      throw fail("the size field is not an octal number")
    }
    guard let mtime = octal(block[136..<148]) else {
      throw fail("the mtime field is not an octal number")
    }
    let member = Member(name: name, headerOffset: offset, size: size, modificationTime: mtime)
    guard archiveSize - member.dataOffset >= padded(size) else {
      throw fail(
        "truncated: \(size) bytes of data (\(padded(size)) padded) from byte \(member.dataOffset), the archive has \(archiveSize)"
      )
    }
    return member
  }

  /// The sum of a header's bytes, its checksum field (148..<156) counted as spaces.
  private static func checksum(_ header: some Collection<UInt8>) -> Int {
    var sum = 0
    for (i, b) in header.enumerated() { sum += (148..<156).contains(i) ? 0x20 : Int(b) }
    return sum
  }

  /// An octal numeric field: optional leading spaces, digits, then NUL or space padding.
  private static func octal(_ field: Slice<UnsafeRawBufferPointer>) -> Int? {
    var value = 0
    var digits = 0
    var ended = false
    for b in field {
      switch b {
      case 0x30...0x37 where !ended:
        guard digits < 12 else { return nil }
        value = value * 8 + Int(b - 0x30)
        digits += 1
      case 0x20 where digits == 0 && !ended: continue
      case 0x00, 0x20: ended = true
      default: return nil
      }
    }
    return digits > 0 ? value : nil
  }
}
