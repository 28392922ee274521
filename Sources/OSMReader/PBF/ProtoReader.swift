/// Why protobuf bytes could not be decoded. A closed set: every failure of ``ProtoReader`` is one
/// of these.
enum ProtoError: Error, Equatable, CustomStringConvertible {
  /// The bytes end inside a field.
  case truncated
  /// A varint longer than 10 bytes, or one that does not fit its type.
  case badVarint
  /// A wire type protobuf does not define (or a group, which OSM PBF never uses).
  case badWireType(Int)
  /// A length prefix that is negative or reaches past the end of the enclosing message.
  case badLength(UInt64)
  /// A field number of 0.
  case badFieldNumber

  var description: String {
    switch self {
    case .truncated: "the data ends inside a field"
    case .badVarint: "a varint is too long or out of range"
    case .badWireType(let w): "wire type \(w) is not valid"
    case .badLength(let n): "length \(n) reaches past the end of its message"
    case .badFieldNumber: "field number 0"
    }
  }
}

/// A bounds-checked cursor over protobuf bytes: varints, zigzag, length-delimited and packed
/// fields. It never reads outside `[position, end)`; every failure is a ``ProtoError``.
struct ProtoReader {
  /// Wire types.
  static let varint = 0
  static let fixed64 = 1
  static let lengthDelimited = 2
  static let fixed32 = 5

  let base: UnsafeRawPointer
  private(set) var position: Int
  let end: Int

  /// A reader over `bytes`, which must stay valid while it is used.
  init(_ bytes: UnsafeRawBufferPointer) {
    // A non-nil base even for an empty buffer, so that nothing needs to unwrap it.
    base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 8)!
    position = 0
    end = bytes.count
  }

  private init(base: UnsafeRawPointer, position: Int, end: Int) {
    self.base = base
    self.position = position
    self.end = end
  }

  var isAtEnd: Bool { position >= end }

  /// The next varint as 64 bits.
  @inline(__always)
  mutating func readVarint() throws(ProtoError) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end else { throw .truncated }
      let byte = base.load(fromByteOffset: position, as: UInt8.self)
      position += 1
      if shift == 63 && byte > 1 { throw .badVarint }
      result |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return result }
      shift += 7
      if shift > 63 { throw .badVarint }
    }
  }

  /// The next field's number and wire type, or nil at the end.
  @inline(__always)
  mutating func readTag() throws(ProtoError) -> (field: Int, wire: Int)? {
    if position >= end { return nil }
    let key = try readVarint()
    guard key >> 3 > 0 else { throw .badFieldNumber }
    guard key >> 3 <= UInt64(Int32.max) else { throw .badVarint }
    return (Int(key >> 3), Int(key & 7))
  }

  /// A varint read as a signed 64-bit value (int64, or int32 sign-extended).
  @inline(__always)
  mutating func readInt64() throws(ProtoError) -> Int64 {
    Int64(bitPattern: try readVarint())
  }

  /// A zigzag-coded varint (sint32, sint64).
  @inline(__always)
  mutating func readSInt64() throws(ProtoError) -> Int64 {
    let v = try readVarint()
    return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
  }

  /// A uint32 varint; larger values are refused.
  @inline(__always)
  mutating func readUInt32() throws(ProtoError) -> UInt32 {
    let v = try readVarint()
    guard v <= UInt64(UInt32.max) else { throw .badVarint }
    return UInt32(v)
  }

  /// An int32 varint (protobuf sign-extends negative ones to 10 bytes); out of range is refused.
  @inline(__always)
  mutating func readInt32() throws(ProtoError) -> Int32 {
    let v = Int64(bitPattern: try readVarint())
    guard v >= Int64(Int32.min) && v <= Int64(Int32.max) else { throw .badVarint }
    return Int32(v)
  }

  /// A length-delimited field's bytes as a reader of their own.
  mutating func readMessage() throws(ProtoError) -> ProtoReader {
    let length = try readVarint()
    guard length <= UInt64(end - position) else { throw .badLength(length) }
    let sub = ProtoReader(base: base, position: position, end: position + Int(length))
    position += Int(length)
    return sub
  }

  /// A length-delimited field's bytes.
  mutating func readBytes() throws(ProtoError) -> UnsafeRawBufferPointer {
    let sub = try readMessage()
    return sub.remainingBytes
  }

  /// The bytes not read yet.
  var remainingBytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base + position, count: end - position)
  }

  /// Skips a field of wire type `wire`.
  mutating func skip(wire: Int) throws(ProtoError) {
    switch wire {
    case Self.varint: _ = try readVarint()
    case Self.fixed64:
      guard end - position >= 8 else { throw .truncated }
      position += 8
    case Self.lengthDelimited: _ = try readMessage()
    case Self.fixed32:
      guard end - position >= 4 else { throw .truncated }
      position += 4
    default: throw .badWireType(wire)
    }
  }

  /// Reads a repeated varint field that is packed (wire type 2) or, as protobuf allows, one
  /// element given unpacked (wire type 0), calling `body` for each value in order.
  @inline(__always)
  mutating func forEachVarint(
    wire: Int, _ body: (UInt64) throws(ProtoError) -> Void
  ) throws(ProtoError) {
    if wire == Self.varint {
      try body(try readVarint())
    } else if wire == Self.lengthDelimited {
      var packed = try readMessage()
      while !packed.isAtEnd { try body(try packed.readVarint()) }
    } else {
      throw .badWireType(wire)
    }
  }
}

extension UInt64 {
  /// The zigzag-decoded signed value.
  @inline(__always)
  var zigzag: Int64 { Int64(bitPattern: (self >> 1) ^ (0 &- (self & 1))) }
}
