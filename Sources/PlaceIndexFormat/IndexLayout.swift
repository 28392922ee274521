// The PlaceIndex file layout, version 9.0. docs/FORMAT.md has the full description; this is the
// summary next to the code that implements it. All integers are little-endian; all offsets are
// from the start of the file; every section starts on an 8-byte boundary.
//
//   offset  size  field
//   0       8     magic: 89 50 4C 49 44 58 0D 0A  ("\x89PLIDX\r\n")
//   8       2     format major version (9)
//   10      2     format minor version (0)
//   12      4     flags (0; reserved)
//   16      8     file length in bytes
//   24      4     section count N
//   28      4     CRC-32 of the section table
//   32      8     data timestamp: newest OSM element timestamp, seconds since 1970 (0 if unknown)
//   40      8     build options hash (FNV-1a 64 of the canonical options string)
//   48      12    reserved, zero
//   60      4     CRC-32 of bytes 0..<60
//   64      24*N  section table, entries sorted by kind:
//                   u32 kind, u32 CRC-32 of the section bytes, u64 offset, u64 length
//   ...           sections
//
// Opening reads the header and the table only (O(1) in the file size); `verify()` checks every
// section checksum and every internal reference.

/// Constants of the file layout.
package enum IndexLayout {
  /// The first 8 bytes of every index file.
  package static let magic: [UInt8] = [0x89, 0x50, 0x4C, 0x49, 0x44, 0x58, 0x0D, 0x0A]
  /// The major version this code reads and writes; another major version is refused.
  package static let majorVersion: UInt16 = 9
  /// The minor version this code writes; a reader accepts every minor version of its major.
  package static let minorVersion: UInt16 = 0
  /// Header size in bytes.
  package static let headerSize = 64
  /// Section table entry size in bytes.
  package static let sectionEntrySize = 24
  /// Alignment of every section's start.
  package static let sectionAlignment = 8
  /// The most bytes a section may hold: offsets inside a section (item blocks, record groups,
  /// token blocks) are 32-bit. At the 10.6 bytes a place of the largest section (PLACES) that
  /// is about 400 million places; the file itself (64-bit section offsets) has no such limit.
  package static let maxSectionBytes = Int(UInt32.max)
  /// The most places a file may hold (2^30): ranks are 32-bit in postings and the reader,
  /// and PLACE IDS' bit positions (about 3 a place) are 32-bit.
  package static let maxPlaces = 1 << 30
}

/// The kinds of section. A reader skips kinds it does not know.
package enum SectionKind: UInt32, Sendable, CaseIterable {
  /// UTF-8 JSON: source, attribution, licence, counts, build options.
  case metadata = 1
  /// Deduplicated strings referenced by id.
  case strings = 2
  /// Place type names and per-place type lists.
  case types = 3
  /// The place type vocabulary (Data/place_types.tsv), for validating filters.
  case vocabulary = 4
  /// Place records in rank order (most important first).
  case places = 5
  /// Sorted token dictionary in front-coded blocks.
  case tokens = 6
  /// Postings: for each token, the places that carry it.
  case postings = 7
  /// The abbreviation table (Data/abbreviations.tsv), for highlighting.
  case abbreviations = 8
  /// Each place's OSM element in rank order (an Elias–Fano sequence): the place ID of a rank,
  /// and the rank of a place ID for details.
  case placeIDs = 9
  /// Address contexts shared between places: reference point, country, secondary text,
  /// address components.
  case contexts = 10
  /// Places in Hilbert-curve order, for bias and restriction regions.
  case geo = 11
  /// Each place's importance by rank, as runs of equal values.
  case importance = 12
  /// Each way's and relation's bounding box by rank, for place details (since 6.1).
  case viewports = 13
  /// Each place's tokens by rank, the inverse of POSTINGS (since 7.0).
  case terms = 14
  /// The union of the postings of each prefix that many tokens share (since 7.1).
  case prefixUnions = 15
  /// The places of each token (and prefix union) that many places carry, in GEO order
  /// (since 7.2).
  case nearLists = 16
  /// Each place's primary name's word count, 4 bits a place (since 7.2).
  case nameWords = 17
  /// Where each place's primary name's first word lies among its name tokens in TERMS, 4 bits
  /// a place (since 7.3).
  case nameStarts = 18

  /// The section's name in messages.
  package var name: String {
    switch self {
    case .metadata: "META"
    case .strings: "STRINGS"
    case .types: "TYPES"
    case .vocabulary: "VOCABULARY"
    case .places: "PLACES"
    case .tokens: "TOKENS"
    case .postings: "POSTINGS"
    case .abbreviations: "ABBREVIATIONS"
    case .placeIDs: "PLACE IDS"
    case .contexts: "CONTEXTS"
    case .geo: "GEO"
    case .importance: "IMPORTANCE"
    case .viewports: "VIEWPORTS"
    case .terms: "TERMS"
    case .prefixUnions: "PREFIX UNIONS"
    case .nearLists: "NEAR LISTS"
    case .nameWords: "NAME WORDS"
    case .nameStarts: "NAME STARTS"
    }
  }

  /// The name of a section kind that may be unknown to this reader.
  package static func name(of raw: UInt32) -> String {
    SectionKind(rawValue: raw)?.name ?? "kind \(raw)"
  }
}
