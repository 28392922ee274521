import OSMReader

/// An element's tags in one byte array, for the thousands of candidates that wait for assembly.
///
/// A dictionary of ten tags takes about 600 bytes of hash table besides the strings; packed,
/// the same tags take their UTF-8 bytes and a length byte or two each. Assembly turns one
/// element at a time back into a dictionary (``dictionary``).
///
/// Layout, per tag in file order: key length (LEB128), key (UTF-8), value length (LEB128),
/// value (UTF-8). Of several tags with one key, readers take the first.
struct PackedTags: Sendable {
  private var bytes: [UInt8]

  /// No tags.
  static let empty = PackedTags(bytes: [])

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// Tags packed before (``packed``).
  init(packed: UnsafeRawBufferPointer) { bytes = Array(packed) }

  /// The packed bytes (the layout above).
  var packed: [UInt8] { bytes }

  /// Whether there are no tags.
  var isEmpty: Bool { bytes.isEmpty }

  /// The tags whose keys are in `keys`, in order.
  func keeping(_ keys: Set<String>) -> PackedTags {
    var out: [UInt8] = []
    forEach { k, v in
      guard keys.contains(String(decoding: k, as: UTF8.self)) else { return }
      Self.append(bytes: k, to: &out)
      Self.append(bytes: v, to: &out)
    }
    return PackedTags(bytes: out)
  }

  /// The tags of `tags`, in order (readers take the first of several with one key).
  init(_ tags: [OSMTag]) {
    var out: [UInt8] = []
    out.reserveCapacity(tags.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 })
    for t in tags {
      Self.append(t.key, to: &out)
      Self.append(t.value, to: &out)
    }
    bytes = out
  }

  /// The value of `key`, if the element has that tag.
  subscript(key: String) -> String? {
    var found: String? = nil
    forEach { k, v in
      if found == nil, k.elementsEqual(key.utf8) { found = String(decoding: v, as: UTF8.self) }
    }
    return found
  }

  /// Every tag, key to value.
  var dictionary: [String: String] {
    var d: [String: String] = [:]
    forEach { k, v in
      let key = String(decoding: k, as: UTF8.self)
      if d[key] == nil { d[key] = String(decoding: v, as: UTF8.self) }
    }
    return d
  }

  private static func append(_ text: String, to out: inout [UInt8]) {
    append(bytes: text.utf8, to: &out)
  }

  /// Appends `bytes` after their count as a varint (the packing of every tag string, and of
  /// a candidate's whole tag block in ``CandidateStore``).
  static func append(bytes: some Collection<UInt8>, to out: inout [UInt8]) {
    var n = bytes.count
    while n >= 0x80 {
      out.append(UInt8(n & 0x7F) | 0x80)
      n >>= 7
    }
    out.append(UInt8(n))
    out.append(contentsOf: bytes)
  }

  /// Calls `body` with each tag's key and value bytes, in order.
  private func forEach(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
    var i = 0
    func text() -> ArraySlice<UInt8> {
      var n = 0
      var shift = 0
      while bytes[i] & 0x80 != 0 {
        n |= Int(bytes[i] & 0x7F) << shift
        shift += 7
        i += 1
      }
      n |= Int(bytes[i]) << shift
      i += 1
      defer { i += n }
      return bytes[i..<(i + n)]
    }
    while i < bytes.count {
      let key = text()
      body(key, text())
    }
  }
}
