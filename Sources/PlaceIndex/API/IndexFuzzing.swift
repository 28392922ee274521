import PlaceIndexFormat

// What the fuzz targets (Fuzz/, a package of its own, so that `package` declarations do not
// reach it) need of the index format, behind the `Fuzz` SPI: apps that import PlaceIndex do
// not see it, and PlaceIndexFormat keeps no public declaration.

/// The header layout and checksum the fuzz harness needs to make mutated bytes consistent
/// (docs/FORMAT.md, "Header").
@_spi(Fuzz) public enum IndexFuzzing {
  /// The 8 bytes every index starts with.
  public static var magic: [UInt8] { IndexLayout.magic }
  /// The header's size in bytes.
  public static var headerSize: Int { IndexLayout.headerSize }
  /// The size of one section table entry in bytes.
  public static var sectionEntrySize: Int { IndexLayout.sectionEntrySize }

  /// The CRC-32 the format stores for `bytes`.
  public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    CRC32.checksum(bytes)
  }
}

extension LoadedIndex {
  /// Opens an index held in a copy of `bytes`, named `path` in errors.
  @_spi(Fuzz) public convenience init(
    copying bytes: [UInt8], path: String, verification: IndexVerification = .checksums
  ) throws(PlacesError) {
    let file: IndexFile
    do throws(IndexFormatError) {
      file = try IndexFile(bytes: MappedBytes(copying: bytes), path: path)
    } catch {
      throw .index(error, path: path)
    }
    try self.init(file: file, verification: verification)
  }

  /// The number of tokens in the index's dictionary.
  @_spi(Fuzz) public var dictionaryTokenCount: Int { tokens.count }

  /// Token `id` of the index's dictionary.
  @_spi(Fuzz) public func dictionaryToken(_ id: Int) throws(PlacesError) -> String {
    do throws(IndexFormatError) {
      return try tokens.token(id)
    } catch {
      throw .index(error, path: file.path)
    }
  }
}
