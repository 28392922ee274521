import Foundation

/// Groups the keystroke requests of one search and the place-details request that ends it.
public struct AutocompleteSessionToken: Sendable, Hashable, CustomStringConvertible {
  /// The token's text (a UUID v4 for tokens made here).
  public let value: String

  /// A new random token (UUID version 4).
  public init() {
    value = UUID().uuidString.lowercased()
  }

  /// A token received from elsewhere.
  public init(_ value: String) {
    self.value = value
  }

  public var description: String { value }
}
