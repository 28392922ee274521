/// Why a packed artifact cannot be written or read: names the file, and the archive member and
/// byte offset when the problem lies inside one.
public struct PackedArtifactError: Error, Equatable, CustomStringConvertible {
  /// The archive, index or manifest file.
  public var path: String
  /// The archive member the problem lies in, if any.
  public var member: String?
  /// Byte offset in `path` (a member's header or data), if known.
  public var offset: Int?
  /// What is wrong.
  public var reason: String

  /// An error in `path`, optionally inside `member` at byte `offset`.
  public init(path: String, member: String? = nil, offset: Int? = nil, reason: String) {
    self.path = path
    self.member = member
    self.offset = offset
    self.reason = reason
  }

  public var description: String {
    var location = path
    if let member { location += ": member \(member)" }
    if let offset { location += " at byte \(offset)" }
    return "\(location): \(reason)"
  }
}
