import PlaceIndexFormat

/// How much of an index file is checked when it is opened.
///
/// A damaged section is refused at open with ``PlacesError/index(path:problem:reason:)`` holding
/// ``IndexProblem/checksumMismatch(section:)`` (naming the section), never answered from.
public enum IndexVerification: Sendable, Hashable {
  /// The header, the section table and every section's CRC-32 (the default). One pass over
  /// the file: about 2–4 ms per MB on the shared build machine, measured in the bench's open
  /// table ("ours open" against "unchecked").
  case checksums
  /// The header and the section table only (O(1) in the file size), for callers that checked
  /// the file themselves: `verify()` or `placeidx verify` on this very file, or its manifest's
  /// sha256. Damage in a section then shows as a typed error only where a decoder sees it, or
  /// not at all (a flipped bit in a place's ID gives another ID). `serve` always checks.
  case skip
}

/// How the bytes of an index are held while it is open.
public enum IndexLoading: Sendable, Hashable {
  /// Memory-mapped, read-only (the default): opening costs no copy and the pages are shared
  /// between processes. The file must then be replaced by rename (as `placeidx build` and
  /// `dist` do), never rewritten in place: a mapped file that is truncated or rewritten while
  /// open gives wrong answers or stops the process with SIGBUS (docs/LIMITS.md).
  case map
  /// Read into memory owned by the index: later changes to the file, even truncation in place,
  /// do not reach it. Costs the file's size in memory and a read of the whole file at open.
  case copy
}

extension LoadedIndex {
  /// Opens the index at `path`, holding its bytes as `loading` says and checking them as
  /// `verification` says. Throws ``PlacesError/index(path:problem:reason:)`` naming the file
  /// and the fault.
  public convenience init(
    path: String, verification: IndexVerification = .checksums, loading: IndexLoading = .map
  ) throws(PlacesError) {
    let file: IndexFile
    do throws(IndexFormatError) {
      let bytes =
        loading == .copy ? try MappedBytes(readingFileAt: path) : try MappedBytes(path: path)
      file = try IndexFile(bytes: bytes, path: path)
    } catch {
      throw .index(error, path: path)
    }
    try self.init(file: file, verification: verification)
  }
}

extension PlacesClient {
  /// Loads the indexes at `paths` (regional shards, queried as one; a folder stands for every
  /// `.placeidx` file in it, in name order), each held as `loading` says and checked as
  /// `verification` says: by default mapped, with every section's checksum checked. Throws for
  /// the first index that cannot be used, naming it.
  public convenience init(
    indexPaths: [String], verification: IndexVerification = .checksums,
    loading: IndexLoading = .map
  ) throws(PlacesError) {
    var loaded: [LoadedIndex] = []
    for p in try Self.expandingFolders(indexPaths) {
      loaded.append(try LoadedIndex(path: p, verification: verification, loading: loading))
    }
    self.init(indexes: loaded)
  }
}
