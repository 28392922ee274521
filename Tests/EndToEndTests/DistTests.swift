import Foundation
import PlaceIndexBuilder
import PlaceIndexFormat
import TestSupport
import Testing

/// `placeidx dist` and `placeidx verify` of the packed artifact (an index, its manifest and
/// ATTRIBUTION.txt in one ustar archive).
@Suite struct DistTests {
  /// A member as found by walking the ustar headers here, independently of the code under test.
  struct Member {
    var name: String
    var headerOffset: Int
    var size: Int
    var dataOffset: Int { headerOffset + 512 }
  }

  /// A freshly built sample index (with its manifest) in its own folder, and that folder.
  func sampleIndex() throws -> (index: String, dir: URL) {
    let dir = try TestPaths.temporaryDirectory()
    let index = dir.appendingPathComponent("sample.placeidx").path
    let r = try runProcess(
      TestPaths.placeidx,
      ["build", TestPaths.data + "/sample.osm", "-o", index, "--data", TestPaths.data, "--quiet"])
    try #require(r.status == 0, "\(r.stderr)")
    return (index, dir)
  }

  /// Runs `placeidx dist` on `index` into `out`; returns the result and the path it printed.
  func dist(_ index: String, into out: URL) throws -> (
    status: Int32, stdout: String, stderr: String, path: String
  ) {
    let r = try runProcess(TestPaths.placeidx, ["dist", "--index", index, "-o", out.path])
    let path = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
    return (r.status, r.stdout, r.stderr, path)
  }

  /// The members of a ustar archive, read from the headers' name and size fields.
  func members(_ bytes: [UInt8]) throws -> [Member] {
    var result: [Member] = []
    var offset = 0
    while offset + 512 <= bytes.count, bytes[offset..<(offset + 512)].contains(where: { $0 != 0 }) {
      let nameField = bytes[offset..<(offset + 100)]
      let name = String(decoding: nameField.prefix { $0 != 0 }, as: UTF8.self)
      let sizeText = String(decoding: bytes[(offset + 124)..<(offset + 135)], as: UTF8.self)
      let size = try #require(Int(sizeText, radix: 8), "size field '\(sizeText)'")
      result.append(Member(name: name, headerOffset: offset, size: size))
      offset += 512 + (size + 511) / 512 * 512
    }
    return result
  }

  /// The expected archive file name, from the manifest's data timestamp formatted here.
  func expectedFileName(manifest: String) throws -> String {
    let json = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: manifest)))
    let dict = try #require(json as? [String: Any])
    let version = try #require(dict["formatVersion"] as? String)
    let data = try #require(dict["dataVersion"] as? [String: Any])
    let stamp = try #require((data["timestamp"] as? NSNumber)?.doubleValue)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return "sample-f\(version)-d\(formatter.string(from: Date(timeIntervalSince1970: stamp)))"
      + ".placeidx.tar"
  }

  @Test func distIsByteIdenticalAndAPlainTarOfExactlyThreeMembers() throws {
    let a = try sampleIndex()
    let b = try sampleIndex()
    let first = try dist(a.index, into: a.dir.appendingPathComponent("dist"))
    try #require(first.status == 0, "\(first.stderr)")
    let again = try dist(a.index, into: a.dir.appendingPathComponent("again"))
    let other = try dist(b.index, into: b.dir.appendingPathComponent("dist"))
    try #require(again.status == 0 && other.status == 0, "\(again.stderr) \(other.stderr)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: first.path)))
    #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: again.path))) == bytes)
    #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: other.path))) == bytes)

    // The name carries the format and data versions; the output names size and sha256.
    let name = try expectedFileName(manifest: a.index + ".json")
    #expect((first.path as NSString).lastPathComponent == name)
    #expect(first.stdout.contains("size    \(bytes.count) bytes"), "\(first.stdout)")
    let sha = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", first.path])
    let digest = try #require(sha.stdout.split(separator: " ").first.map(String.init))
    #expect(digest.count == 64 && first.stdout.contains("sha256  \(digest)"), "\(first.stdout)")
    // Nothing but the archive is left in the folder (no temporaries).
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: a.dir.appendingPathComponent("dist").path)
        == [name])

    // Members: sorted, the index's data on a 512-byte boundary, each byte as on disk.
    let found = try members(bytes)
    #expect(found.map(\.name) == ["ATTRIBUTION.txt", "sample.placeidx", "sample.placeidx.json"])
    #expect(bytes.count == found.last.map { $0.dataOffset + ($0.size + 511) / 512 * 512 + 1024 })
    let index = try [UInt8](Data(contentsOf: URL(fileURLWithPath: a.index)))
    let manifest = try [UInt8](Data(contentsOf: URL(fileURLWithPath: a.index + ".json")))
    let member = try #require(found.first { $0.name == "sample.placeidx" })
    #expect(member.dataOffset % 512 == 0)
    #expect(Array(bytes[member.dataOffset..<(member.dataOffset + member.size)]) == index)
    let json = try #require(found.first { $0.name == "sample.placeidx.json" })
    #expect(Array(bytes[json.dataOffset..<(json.dataOffset + json.size)]) == manifest)
    let attribution = try #require(found.first { $0.name == "ATTRIBUTION.txt" })
    let text = String(
      decoding: bytes[attribution.dataOffset..<(attribution.dataOffset + attribution.size)],
      as: UTF8.self)
    #expect(text.contains("© OpenStreetMap contributors") && text.contains("ODbL 1.0"), "\(text)")
    #expect(text.contains("Source extract: sample.osm"), "\(text)")

    // The system's tar reads it: the same names, and the same index bytes.
    let listed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["tar", "-tvf", first.path])
    try #require(listed.status == 0, "\(listed.stderr)")
    let lines = listed.stdout.split(separator: "\n")
    #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("-rw-r--r-- 0/0") }, "\(lines)")
    let extracted = a.dir.appendingPathComponent("extracted")
    try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
    let x = try runProcess(
      URL(fileURLWithPath: "/usr/bin/env"), ["tar", "-xf", first.path, "-C", extracted.path])
    try #require(x.status == 0, "\(x.stderr)")
    #expect(
      try [UInt8](Data(contentsOf: extracted.appendingPathComponent("sample.placeidx"))) == index)
  }

  @Test func verifyAcceptsThePackedArtifactAndStillAcceptsAnIndex() throws {
    let s = try sampleIndex()
    let d = try dist(s.index, into: s.dir.appendingPathComponent("dist"))
    try #require(d.status == 0, "\(d.stderr)")
    let packed = try runProcess(TestPaths.placeidx, ["verify", d.path])
    #expect(packed.status == 0, "\(packed.stderr)")
    #expect(packed.stdout.contains("OK") && packed.stdout.contains("3 members"), "\(packed.stdout)")
    let plain = try runProcess(TestPaths.placeidx, ["verify", s.index])
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(plain.stdout.contains("OK") && !plain.stdout.contains("members"), "\(plain.stdout)")
  }

  @Test func verifyNamesTheProblemInADamagedArtifact() throws {
    let s = try sampleIndex()
    let d = try dist(s.index, into: s.dir.appendingPathComponent("dist"))
    try #require(d.status == 0, "\(d.stderr)")
    let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: d.path)))
    let found = try members(good)
    let index = try #require(found.first { $0.name == "sample.placeidx" })
    let json = try #require(found.first { $0.name == "sample.placeidx.json" })
    let attribution = try #require(found.first { $0.name == "ATTRIBUTION.txt" })

    var flipped = good
    flipped[index.dataOffset + index.size / 2] ^= 0x10
    var manifestSHA = good
    let shaKey = Array(#""sha256" : ""#.utf8)
    let jsonBytes = Array(good[json.dataOffset..<(json.dataOffset + json.size)])
    let shaAt = try #require(
      (0..<(jsonBytes.count - shaKey.count)).first {
        Array(jsonBytes[$0..<($0 + shaKey.count)]) == shaKey
      })
    let digit = json.dataOffset + shaAt + shaKey.count
    manifestSHA[digit] =
      manifestSHA[digit] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
    // Without ATTRIBUTION.txt (the first member): a well-formed archive of two members.
    let missing = Array(good[index.headerOffset...])
    var header = good
    header[index.headerOffset + 100 + 3] ^= 0x01  // the mode field: "0000644" to "0010644"
    var licence = good
    let licenceText = Array("ODbL".utf8)
    let licenceAt = try #require(
      (attribution.dataOffset..<(attribution.dataOffset + attribution.size)).first {
        Array(good[$0..<($0 + licenceText.count)]) == licenceText
      })
    licence[licenceAt + 3] = UInt8(ascii: "X")
    func data(_ m: Member) -> [UInt8] { Array(good[m.dataOffset..<(m.dataOffset + m.size)]) }
    let extra = try UstarArchive.archive(
      [
        ("ATTRIBUTION.txt", data(attribution)), ("NOTES.txt", Array("hello\n".utf8)),
        ("sample.placeidx", data(index)), ("sample.placeidx.json", data(json)),
      ], modificationTime: 0, path: "extra")

    let cases: [(String, [UInt8], [String])] = [
      ("flipped byte in the index", flipped, ["member sample.placeidx", "sha256", "manifest"]),
      (
        "truncated inside the index", Array(good[..<(index.dataOffset + index.size / 2)]),
        ["member sample.placeidx", "truncated"]
      ),
      ("no second end block", Array(good[..<(good.count - 512)]), ["end-of-archive"]),
      ("truncated in the end blocks", Array(good[..<(good.count - 700)]), ["truncated"]),
      ("tampered manifest sha256", manifestSHA, ["member sample.placeidx", "sha256", "manifest"]),
      ("missing member", missing, ["missing member ATTRIBUTION.txt"]),
      ("damaged header", header, ["member sample.placeidx", "checksum"]),
      (
        "attribution that does not match META", licence,
        ["member ATTRIBUTION.txt", "META", "line 2"]
      ),
      ("an extra member", extra, ["member NOTES.txt", "unexpected member"]),
    ]
    // The intact archive passes, so each failure below is the damage's.
    #expect(try runProcess(TestPaths.placeidx, ["verify", d.path]).status == 0)
    for (what, bytes, expected) in cases {
      #expect(bytes != good, "\(what)")
      let path = s.dir.appendingPathComponent("damaged.placeidx.tar").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let r = try runProcess(TestPaths.placeidx, ["verify", path])
      #expect(r.status == 1, "\(what): \(r.stdout)")
      #expect(r.stderr.contains(path), "\(what): \(r.stderr)")
      for e in expected { #expect(r.stderr.contains(e), "\(what): '\(e)' not in \(r.stderr)") }
    }
  }

  @Test func verifyRunsTheFullIndexCheckOnAMemberWhoseManifestMatches() throws {
    // A damaged index whose manifest was rewritten to match: only the index's own checks see it.
    let s = try sampleIndex()
    let d = try dist(s.index, into: s.dir.appendingPathComponent("dist"))
    try #require(d.status == 0, "\(d.stderr)")
    let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: d.path)))
    let found = try members(good)
    var index = try [UInt8](Data(contentsOf: URL(fileURLWithPath: s.index)))
    // A byte in the middle of the largest section but META (whose text the archive's own
    // checks read). Table entries at 64: u32 kind, u32 crc, u64 offset, u64 length (LE).
    func u(_ at: Int, _ width: Int) -> Int {
      (0..<width).reduce(0) { $0 | Int(index[at + $1]) << (8 * $1) }
    }
    let sections = (0..<u(24, 4)).map { i in
      (kind: u(64 + 24 * i, 4), offset: u(64 + 24 * i + 8, 8), length: u(64 + 24 * i + 16, 8))
    }
    let section = try #require(
      sections.filter { $0.kind != Int(SectionKind.metadata.rawValue) }.max {
        $0.length < $1.length
      })
    let sectionName = SectionKind.name(of: UInt32(section.kind))
    index[section.offset + section.length / 2] ^= 0x40
    let damaged = s.dir.appendingPathComponent("damaged.placeidx")
    try Data(index).write(to: damaged)
    let sum = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", damaged.path])
    let digest = try #require(sum.stdout.split(separator: " ").first.map(String.init))
    let oldManifest = try String(contentsOfFile: s.index + ".json", encoding: .utf8)
    let oldDigest = try #require(oldManifest.firstMatch(of: /"sha256" : "([0-9a-f]{64})"/)?.1)
    let manifest = oldManifest.replacingOccurrences(of: String(oldDigest), with: digest)
    let attribution = try #require(found.first { $0.name == "ATTRIBUTION.txt" })
    let files: [(name: String, bytes: [UInt8])] = [
      (
        "ATTRIBUTION.txt",
        Array(good[attribution.dataOffset..<(attribution.dataOffset + attribution.size)])
      ),
      ("sample.placeidx", index), ("sample.placeidx.json", Array(manifest.utf8)),
    ]
    let path = s.dir.appendingPathComponent("repacked.placeidx.tar").path
    let bytes = try UstarArchive.archive(
      files, modificationTime: 0, path: path)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let r = try runProcess(TestPaths.placeidx, ["verify", path])
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("member sample.placeidx (data from byte")
        && r.stderr.contains(sectionName),
      "\(r.stderr)")
  }

  @Test func distRefusesAMissingOrMismatchedManifest() throws {
    let s = try sampleIndex()
    let manifestPath = s.index + ".json"
    let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
    let digest = try #require(manifest.firstMatch(of: /"sha256" : "([0-9a-f]{64})"/)?.1)
    let size = try #require(manifest.firstMatch(of: /"size" : (\d+)/)?.1)
    let wrongDigest = String(digest.reversed())
    let cases: [(String, String?, [String])] = [
      (
        "sha256", manifest.replacingOccurrences(of: String(digest), with: wrongDigest),
        ["sha256 \(wrongDigest) does not match"]
      ),
      (
        "size",
        manifest.replacingOccurrences(of: "\"size\" : \(size)", with: "\"size\" : \(size)1"),
        ["size \(size)1 does not match"]
      ),
      ("missing", nil, ["no manifest"]),
    ]
    for (what, text, expected) in cases {
      if let text {
        try Data(text.utf8).write(to: URL(fileURLWithPath: manifestPath))
      } else {
        try FileManager.default.removeItem(atPath: manifestPath)
      }
      let out = s.dir.appendingPathComponent("dist-\(what)")
      let r = try dist(s.index, into: out)
      #expect(r.status == 1, "\(what): \(r.stdout)")
      #expect(r.stderr.contains(manifestPath), "\(what): \(r.stderr)")
      for e in expected { #expect(r.stderr.contains(e), "\(what): '\(e)' not in \(r.stderr)") }
      #expect(!FileManager.default.fileExists(atPath: out.path), "\(what): wrote \(out.path)")
    }
  }
}
