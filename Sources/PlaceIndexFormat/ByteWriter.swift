/// Appends little-endian integers, LEB128 varints and raw bytes to a growing buffer.
package struct ByteWriter: Sendable {
  /// The bytes written so far.
  package private(set) var bytes: [UInt8] = []

  /// Creates an empty writer.
  package init() {}

  /// The number of bytes written.
  package var count: Int { bytes.count }

  /// Reserves room for `count` bytes in all.
  package mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }

  /// Appends `value` as 1 byte.
  package mutating func u8(_ value: UInt8) { bytes.append(value) }

  /// Appends `value` as 2 little-endian bytes.
  package mutating func u16(_ value: UInt16) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
  }

  /// Appends `value` as 4 little-endian bytes.
  package mutating func u32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  /// Overwrites the bytes from `offset` with `values`, each as 4 little-endian bytes (a table
  /// filled in after what follows it is written).
  package mutating func set(u32s values: [UInt32], at offset: Int) {
    for (k, value) in values.enumerated() {
      for b in 0..<4 { bytes[offset + 4 * k + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
    }
  }

  /// Appends `value` as 8 little-endian bytes.
  package mutating func u64(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  /// Appends `value` as an unsigned LEB128 varint (7 bits per byte, low bits first).
  package mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  /// Appends a non-negative `Int` as a varint.
  package mutating func varint(_ value: Int) {
    precondition(value >= 0, "varint of a negative value")
    varint(UInt64(value))
  }

  /// Appends a signed value zigzag-encoded as a varint.
  package mutating func zigzag(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// Appends raw bytes.
  package mutating func append<C: Collection>(_ other: C) where C.Element == UInt8 {
    bytes.append(contentsOf: other)
  }

  /// Appends zero bytes until the count is a multiple of `alignment`.
  package mutating func pad(to alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }
}
