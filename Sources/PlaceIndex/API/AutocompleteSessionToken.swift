import Foundation

/// Groups the keystroke requests of one search and the place-details request that ends it.
///
/// A token is what the hosted API takes: 1 to 36 ASCII characters of URL- and filename-safe
/// base64 (RFC 4648 section 5: `A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`, and `=` padding at the
/// end), so a UUID fits. A request with any other token is refused with
/// ``PlacesError/invalidArgument(_:)`` on every path (Swift, JSON lines, HTTP).
public struct AutocompleteSessionToken: Sendable, Hashable, CustomStringConvertible {
  /// The token's text (a UUID v4 for tokens made here).
  public let value: String

  /// Most characters of a token (a UUID's 36).
  public static let maxLength = 36

  /// A new random token (UUID version 4).
  public init() {
    value = UUID().uuidString.lowercased()
  }

  /// A token received from elsewhere; requests check it (``validate()``).
  public init(_ value: String) {
    self.value = value
  }

  public var description: String { value }

  /// What is wrong with `value` as a token, or nil when it is a valid one.
  public static func problem(with value: String) -> String? {
    let bytes = Array(value.utf8)
    if bytes.isEmpty { return "is empty" }
    let shown = value.count <= 40 ? "'\(value)'" : "'\(value.prefix(40))…'"
    guard value.unicodeScalars.count <= maxLength else {
      return "\(shown) is \(value.unicodeScalars.count) characters long; at most \(maxLength)"
    }
    // "=" only as padding, at the end.
    let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
    for (i, b) in bytes.dropLast(padding).enumerated() {
      let safe =
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
        || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
      if !safe {
        // Every byte before `i` is ASCII: `i` is where a character starts, and its offset.
        let scalar = String(decoding: bytes[i...], as: UTF8.self).unicodeScalars.first ?? "?"
        return "\(shown) has '\(scalar)' at offset \(i): only A-Z, a-z, 0-9, '-', '_' "
          + "(URL-safe base64) and '=' padding at the end are allowed"
      }
    }
    if padding == bytes.count { return "\(shown) is only padding" }
    return nil
  }

  /// Throws ``PlacesError/invalidArgument(_:)`` naming the problem when the token is not valid.
  public func validate() throws(PlacesError) {
    if let problem = AutocompleteSessionToken.problem(with: value) {
      throw .invalidArgument("sessionToken \(problem)")
    }
  }
}
