import CSQLite
import Foundation
import PlaceCore

/// The peer: what an app developer would build first for offline place search. An SQLite
/// database with an FTS5 full-text index (unicode61 tokenizer with diacritics removed, prefix
/// indexes) over the name, the rest of the formatted address and the locality, an R*Tree over
/// the positions, and a content table with an importance score.
///
/// A query ANDs every typed word as a prefix term and orders by bm25 (per word), minus an
/// importance term, minus, when an origin is given, a nearness term for the places the R*Tree
/// finds within 30 km of it. The weights mirror the scale of PlaceIndex's own ranking formula
/// (text, importance 0...1, nearness falling to 1/e at 8 km) and were set once, not tuned
/// against the harness's targets.
enum Peer {
  /// bm25 column weights: name, rest of the address, locality.
  static let columnWeights = (name: 1.0, address: 0.4, locality: 0.3)
  /// Weight of the importance term (importance in 0...1).
  static let importanceWeight = 2.0
  /// Weight of the nearness term, and the distance at which it falls to 1/e.
  static let nearnessWeight = 3.0
  static let nearnessScale = 8_000.0
  /// Half-size of the R*Tree box around the origin, in meters.
  static let nearBox = 30_000.0

  /// Importance of the place at `rank` of `count`, from 1 (most important) down towards 0.
  static func importance(rank: Int, count: Int) -> Double {
    1 - log(1 + Double(rank)) / log(1 + Double(max(1, count)))
  }

  /// The secondary text the peer indexes in its locality column: the locality, unless it is
  /// already part of the address text.
  static func localityColumn(_ p: CorpusPlace) -> String {
    p.locality.isEmpty || p.rest.contains(p.locality) ? "" : p.locality
  }

  /// Builds the database at `path` from `corpus`; returns the seconds it took.
  static func build(path: String, corpus: Corpus) throws -> Double {
    let fm = FileManager.default
    for suffix in ["", "-journal", "-wal", "-shm"] { try? fm.removeItem(atPath: path + suffix) }
    let clock = ContinuousClock()
    let start = clock.now
    let db = try SQLite(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    try db.exec(
      """
      PRAGMA page_size = 4096;
      PRAGMA journal_mode = OFF;
      PRAGMA synchronous = OFF;
      CREATE TABLE place(
        id INTEGER PRIMARY KEY, place_id TEXT NOT NULL, name TEXT NOT NULL,
        address TEXT NOT NULL, locality TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
        importance REAL NOT NULL);
      CREATE VIRTUAL TABLE place_fts USING fts5(
        name, address, locality, content = 'place', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
      CREATE VIRTUAL TABLE place_geo USING rtree(id, min_lat, max_lat, min_lon, max_lon);
      BEGIN;
      """)
    let insert = try db.prepare("INSERT INTO place VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
    let insertGeo = try db.prepare("INSERT INTO place_geo VALUES (?1, ?2, ?2, ?3, ?3)")
    for p in corpus.places {
      insert.reset()
      insert.bind(1, Int64(p.rank))
      insert.bind(2, p.placeID)
      insert.bind(3, p.name)
      insert.bind(4, p.rest)
      insert.bind(5, localityColumn(p))
      insert.bind(6, p.coordinate.latitude)
      insert.bind(7, p.coordinate.longitude)
      insert.bind(8, importance(rank: p.rank, count: corpus.count))
      try insert.stepDone()
      insertGeo.reset()
      insertGeo.bind(1, Int64(p.rank))
      insertGeo.bind(2, p.coordinate.latitude)
      insertGeo.bind(3, p.coordinate.longitude)
      try insertGeo.stepDone()
    }
    insert.finalize()
    insertGeo.finalize()
    try db.exec(
      """
      INSERT INTO place_fts(place_fts) VALUES ('rebuild');
      INSERT INTO place_fts(place_fts) VALUES ('optimize');
      COMMIT;
      VACUUM;
      """)
    db.close()
    return seconds(clock.now - start)
  }

  /// Bytes per part of the database (content table, FTS5 index, R*Tree, schema), from dbstat.
  static func parts(path: String) throws -> [NamedSize] {
    let db = try SQLite(path: path, flags: SQLITE_OPEN_READONLY)
    defer { db.close() }
    let s = try db.prepare("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")
    defer { s.finalize() }
    var sizes: [String: Int] = [:]
    while try s.stepRow() {
      let name = s.text(0)
      let part: String
      if name.hasPrefix("place_fts") {
        part = "FTS5 index (\(name == "place_fts_data" ? "terms and postings" : "other tables"))"
      } else if name.hasPrefix("place_geo") {
        part = "R*Tree"
      } else if name == "place" {
        part = "content table (names, addresses, positions, importance)"
      } else {
        part = "schema and other"
      }
      sizes[part, default: 0] += Int(s.int(1))
    }
    return sizes.map { NamedSize(name: $0.key, bytes: $0.value) }.sorted { $0.bytes > $1.bytes }
  }

  /// The FTS5 query for what the user typed: every word as a quoted prefix term, ANDed; nil when
  /// there is no word.
  static func matchExpression(_ query: String) -> String? {
    var words: [String] = []
    var word = ""
    for ch in query {
      if ch.isLetter || ch.isNumber {
        word.append(ch)
      } else if !word.isEmpty {
        words.append(word)
        word = ""
      }
    }
    if !word.isEmpty { words.append(word) }
    guard !words.isEmpty else { return nil }
    return words.map { "\"\($0)\"*" }.joined(separator: " ")
  }
}

/// One connection to the peer's database, used by one thread at a time.
final class PeerSession: SearchSession, @unchecked Sendable {
  private let db: SQLite
  private let plain: SQLite.Statement
  private let near: SQLite.Statement
  private(set) var errors = 0
  /// Bytes of text read from the results (keeps the reads from being optimized away).
  private(set) var bytesRead = 0

  init(path: String) throws {
    db = try SQLite(path: path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
    try db.exec("PRAGMA mmap_size = 268435456;")
    let w = Peer.columnWeights
    let text = "bm25(place_fts, \(w.name), \(w.address), \(w.locality)) / ?2"
    plain = try db.prepare(
      """
      SELECT p.id, p.name, p.address FROM place_fts JOIN place p ON p.id = place_fts.rowid
      WHERE place_fts MATCH ?1
      ORDER BY \(text) - \(Peer.importanceWeight) * p.importance
      LIMIT ?3
      """)
    near = try db.prepare(
      """
      SELECT p.id, p.name, p.address FROM place_fts JOIN place p ON p.id = place_fts.rowid
      WHERE place_fts MATCH ?1
      ORDER BY \(text) - \(Peer.importanceWeight) * p.importance
        - CASE WHEN p.id IN (
            SELECT id FROM place_geo
            WHERE max_lat >= ?4 AND min_lat <= ?5 AND max_lon >= ?6 AND min_lon <= ?7)
          THEN \(Peer.nearnessWeight) * exp(-sqrt(
            ((p.lat - ?8) * 111320.0) * ((p.lat - ?8) * 111320.0)
            + ((p.lon - ?9) * ?10) * ((p.lon - ?9) * ?10)) / \(Peer.nearnessScale))
          ELSE 0 END
      LIMIT ?3
      """)
  }

  deinit {
    plain.finalize()
    near.finalize()
    db.close()
  }

  func search(_ query: String, origin: Coordinate?) -> [Int] {
    guard let match = Peer.matchExpression(query) else { return [] }
    let words = match.reduce(0) { $1 == "*" ? $0 + 1 : $0 }
    let s = origin == nil ? plain : near
    s.reset()
    s.bind(1, match)
    s.bind(2, Double(words))
    s.bind(3, Int64(5))
    if let o = origin {
      let mPerLon = 111_320.0 * cos(o.latitude * .pi / 180)
      let dLat = Peer.nearBox / 111_320
      let dLon = Peer.nearBox / max(1, mPerLon)
      s.bind(4, o.latitude - dLat)
      s.bind(5, o.latitude + dLat)
      s.bind(6, o.longitude - dLon)
      s.bind(7, o.longitude + dLon)
      s.bind(8, o.latitude)
      s.bind(9, o.longitude)
      s.bind(10, mPerLon)
    }
    var ids: [Int] = []
    do {
      while try s.stepRow() {
        ids.append(Int(s.int(0)))
        // Read the texts a suggestion shows, as an app would.
        bytesRead &+= s.text(1).utf8.count &+ s.text(2).utf8.count
      }
    } catch {
      errors += 1
    }
    return ids
  }
}

/// A thin wrapper over SQLite's C API.
final class SQLite: @unchecked Sendable {
  private(set) var handle: OpaquePointer?
  let path: String

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(path: String, flags: Int32) throws {
    self.path = path
    var h: OpaquePointer?
    let rc = sqlite3_open_v2(path, &h, flags, nil)
    handle = h
    guard rc == SQLITE_OK else {
      let message = h.map { String(cString: sqlite3_errmsg($0)) } ?? "rc \(rc)"
      sqlite3_close(h)
      handle = nil
      throw Failure(description: "\(path): \(message)")
    }
  }

  func close() {
    if let h = handle { sqlite3_close(h) }
    handle = nil
  }

  var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

  func exec(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? lastError
      sqlite3_free(message)
      throw Failure(description: "\(path): \(text)")
    }
  }

  func prepare(_ sql: String) throws -> Statement {
    var s: OpaquePointer?
    guard
      sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil) == SQLITE_OK,
      let s
    else { throw Failure(description: "\(path): \(lastError) in \(sql)") }
    return Statement(s, owner: self)
  }

  /// A prepared statement.
  final class Statement {
    private var s: OpaquePointer?
    private unowned let owner: SQLite

    init(_ s: OpaquePointer, owner: SQLite) {
      self.s = s
      self.owner = owner
    }

    func finalize() {
      sqlite3_finalize(s)
      s = nil
    }

    func reset() {
      sqlite3_reset(s)
    }

    func bind(_ i: Int32, _ v: Int64) { sqlite3_bind_int64(s, i, v) }
    func bind(_ i: Int32, _ v: Double) { sqlite3_bind_double(s, i, v) }
    func bind(_ i: Int32, _ v: String) {
      // SQLITE_TRANSIENT: SQLite copies the text before this returns.
      sqlite3_bind_text(s, i, v, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    /// Steps once; true for a row, false when done.
    func stepRow() throws -> Bool {
      let rc = sqlite3_step(s)
      if rc == SQLITE_ROW { return true }
      if rc == SQLITE_DONE { return false }
      throw Failure(description: "\(owner.path): \(owner.lastError)")
    }

    func stepDone() throws {
      while try stepRow() {}
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(s, column) }

    func text(_ column: Int32) -> String {
      guard let p = sqlite3_column_text(s, column) else { return "" }
      return String(cString: p)
    }
  }
}

/// Turns off SQLite's memory statistics (a global mutex on every allocation), as SQLite advises
/// for multi-threaded use; once, before the first connection.
func configureSQLite() {
  let rc = csqlite_disable_memory_statistics()
  if rc != SQLITE_OK {
    FileHandle.standardError.write(Data("note: SQLite memory statistics stay on (\(rc))\n".utf8))
  }
}

/// The SQLite library's version.
var sqliteVersion: String { String(cString: sqlite3_libversion()) }
