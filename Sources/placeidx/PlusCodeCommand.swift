import Foundation
import PlaceCore

/// `placeidx pluscode …`: encodes, decodes, shortens and recovers Open Location Codes.
enum PlusCodeCommand {
  /// Help text for the `pluscode` subcommands.
  static let usage = """
    usage: placeidx pluscode <subcommand> [arguments]

    subcommands:
      encode LAT LNG [--length N]      print the plus code of a coordinate
                                       (N: 2, 4, 6, 8, or 10 to 15; default 10)
      decode CODE                      print the area of a full code as JSON:
                                       {"center":{...},"codeLength":N,"high":{...},"low":{...}}
      shorten CODE --ref LAT,LNG       print the shortest code that recovers near the reference
      recover SHORTCODE --ref LAT,LNG  print the full code nearest to the reference
      help                             print this text

    Coordinates are decimal degrees. encode clips a latitude outside -90...90 and normalizes a
    longitude outside -180..<180, as the Open Location Code specification says (with a note on
    stderr); --ref needs latitude -90...90 and longitude -180...180. Negative values such as
    -73.98 are read as values, not options. Codes are case-insensitive.

    exit status: 0 success, 1 a code that is not valid (or not full, or not short, as the
    subcommand needs), 2 a bad command line (including a --length that is not allowed).

    examples:
      placeidx pluscode encode 40.7195 -73.9876
      placeidx pluscode decode 87G8Q2CJ+C2
      placeidx pluscode shorten 8FVC9G8F+6X --ref 47.37,8.54
      placeidx pluscode recover 9G8F+6X --ref 47.37,8.54
    """

  /// Runs one subcommand; `arguments` exclude the leading "pluscode". Returns the output text;
  /// `note` gets remarks for stderr (a coordinate that encode clipped or normalized).
  static func run(
    _ arguments: [String], note: (String) -> Void = { _ in }
  ) throws -> String {
    guard let subcommand = arguments.first else { throw PlusCodeCommandError.missingSubcommand }
    let rest = arguments.dropFirst()
    switch subcommand {
    case "help", "-h", "--help":
      return usage
    case "encode":
      let parsed = try ParsedArguments(rest, options: ["--length"])
      if parsed.isHelp { return usage }
      try parsed.expectPositionals(["LAT", "LNG"])
      // As the Open Location Code specification says, a latitude outside -90...90 is clipped
      // and a longitude outside -180..<180 is normalized (the library does both).
      let latitude = try parseNumber(parsed.positionals[0], argument: "LAT")
      let longitude = try parseNumber(parsed.positionals[1], argument: "LNG")
      if let remark = coordinateRemark(latitude: latitude, longitude: longitude) { note(remark) }
      var length = OpenLocationCode.defaultCodeLength
      if let text = parsed.options["--length"] {
        guard let value = Int(text) else {
          throw PlusCodeCommandError.notAnInteger(argument: "--length", value: text)
        }
        length = value
      }
      return try library {
        try OpenLocationCode.encode(latitude: latitude, longitude: longitude, codeLength: length)
      }
    case "decode":
      let parsed = try ParsedArguments(rest, options: [])
      if parsed.isHelp { return usage }
      try parsed.expectPositionals(["CODE"])
      let area = try library { try OpenLocationCode.decode(parsed.positionals[0]) }
      return try json(area)
    case "shorten":
      let parsed = try ParsedArguments(rest, options: ["--ref"])
      if parsed.isHelp { return usage }
      try parsed.expectPositionals(["CODE"])
      let reference = try parsed.reference()
      return try library {
        try OpenLocationCode.shorten(parsed.positionals[0], reference: reference)
      }
    case "recover":
      let parsed = try ParsedArguments(rest, options: ["--ref"])
      if parsed.isHelp { return usage }
      try parsed.expectPositionals(["SHORTCODE"])
      let reference = try parsed.reference()
      return try library {
        try OpenLocationCode.recoverNearest(parsed.positionals[0], reference: reference)
      }
    default:
      throw PlusCodeCommandError.unknownSubcommand(subcommand)
    }
  }

  /// Runs a PlaceCore call, wrapping its error so the message names the command's problem.
  private static func library<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as OpenLocationCodeError {
      throw PlusCodeCommandError.plusCode(error)
    }
  }

  /// The decoded area as JSON with sorted keys.
  private static func json(_ area: CodeArea) throws -> String {
    struct DecodedArea: Encodable {
      var low: Coordinate
      var high: Coordinate
      var center: Coordinate
      var codeLength: Int
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(
      DecodedArea(low: area.low, high: area.high, center: area.center, codeLength: area.codeLength)
    )
    return String(decoding: data, as: UTF8.self)
  }

  /// A finite decimal number, or an error naming the argument.
  static func parseNumber(_ text: String, argument: String) throws -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let value = Double(trimmed), value.isFinite else {
      throw PlusCodeCommandError.notANumber(argument: argument, value: text)
    }
    return value
  }

  /// What encode does to a coordinate outside latitude -90...90 or longitude -180..<180, or nil.
  static func coordinateRemark(latitude: Double, longitude: Double) -> String? {
    var parts: [String] = []
    if latitude < -90 || latitude > 90 {
      parts.append("latitude \(latitude) clipped to \(min(90, max(-90, latitude)))")
    }
    if longitude < -180 || longitude >= 180 {
      var normalized = (longitude + 180).truncatingRemainder(dividingBy: 360)
      if normalized < 0 { normalized += 360 }
      parts.append("longitude \(longitude) normalized to \(normalized - 180)")
    }
    guard !parts.isEmpty else { return nil }
    return "note: " + parts.joined(separator: ", ") + " (Open Location Code specification)"
  }

  /// A latitude in -90...90.
  static func parseLatitude(_ text: String, argument: String) throws -> Double {
    let value = try parseNumber(text, argument: argument)
    guard (-90...90).contains(value) else {
      throw PlusCodeCommandError.latitudeOutOfRange(argument: argument, value: value)
    }
    return value
  }

  /// A longitude in -180...180.
  static func parseLongitude(_ text: String, argument: String) throws -> Double {
    let value = try parseNumber(text, argument: argument)
    guard (-180...180).contains(value) else {
      throw PlusCodeCommandError.longitudeOutOfRange(argument: argument, value: value)
    }
    return value
  }

  /// Positional arguments and `--name value` / `--name=value` options.
  ///
  /// A token that starts with "-" is an option unless it parses as a number, so negative
  /// coordinates are values. After "--" every token is positional.
  struct ParsedArguments {
    var positionals: [String] = []
    var options: [String: String] = [:]
    var isHelp = false

    init(_ tokens: ArraySlice<String>, options allowed: Set<String>) throws {
      var index = tokens.startIndex
      var onlyPositionals = false
      while index < tokens.endIndex {
        let token = tokens[index]
        index += 1
        if onlyPositionals || !token.hasPrefix("-") || token == "-" || Double(token) != nil {
          positionals.append(token)
          continue
        }
        if token == "--" {
          onlyPositionals = true
          continue
        }
        if token == "-h" || token == "--help" {
          isHelp = true
          continue
        }
        var name = token
        var value: String?
        if let equals = token.firstIndex(of: "=") {
          name = String(token[..<equals])
          value = String(token[token.index(after: equals)...])
        }
        guard allowed.contains(name) else { throw PlusCodeCommandError.unknownOption(name) }
        guard options[name] == nil else { throw PlusCodeCommandError.duplicateOption(name) }
        if value == nil {
          guard index < tokens.endIndex else {
            throw PlusCodeCommandError.missingOptionValue(name)
          }
          value = tokens[index]
          index += 1
        }
        options[name] = value
      }
    }

    /// Checks that exactly the named positional arguments are present.
    func expectPositionals(_ names: [String]) throws {
      if positionals.count < names.count {
        throw PlusCodeCommandError.missingArgument(names[positionals.count])
      }
      if positionals.count > names.count {
        throw PlusCodeCommandError.unexpectedArgument(positionals[names.count])
      }
    }

    /// The required `--ref LAT,LNG` option.
    func reference() throws -> Coordinate {
      guard let text = options["--ref"] else {
        throw PlusCodeCommandError.missingArgument("--ref LAT,LNG")
      }
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 2 else { throw PlusCodeCommandError.invalidReference(text) }
      return Coordinate(
        latitude: try PlusCodeCommand.parseLatitude(String(parts[0]), argument: "--ref latitude"),
        longitude: try PlusCodeCommand.parseLongitude(
          String(parts[1]), argument: "--ref longitude"))
    }
  }
}

/// A problem with the arguments of `placeidx pluscode`, or with the code or coordinate given.
enum PlusCodeCommandError: Error, Equatable, CustomStringConvertible {
  /// No subcommand after "pluscode".
  case missingSubcommand
  /// The subcommand is not encode, decode, shorten, recover or help.
  case unknownSubcommand(String)
  /// A required argument (named as in the usage text) is missing.
  case missingArgument(String)
  /// More positional arguments than the subcommand takes; carries the first extra one.
  case unexpectedArgument(String)
  /// An option the subcommand does not have.
  case unknownOption(String)
  /// The same option was given twice.
  case duplicateOption(String)
  /// An option at the end of the line without its value.
  case missingOptionValue(String)
  /// The value is not a finite decimal number.
  case notANumber(argument: String, value: String)
  /// The value is not an integer.
  case notAnInteger(argument: String, value: String)
  /// The `--ref` value is not of the form LAT,LNG.
  case invalidReference(String)
  /// A latitude outside -90...90.
  case latitudeOutOfRange(argument: String, value: Double)
  /// A longitude outside -180...180.
  case longitudeOutOfRange(argument: String, value: Double)
  /// PlaceCore rejected the code, length or coordinate.
  case plusCode(OpenLocationCodeError)

  /// Whether the command line is at fault (exit 2) rather than the code given (exit 1).
  var isUsageError: Bool {
    switch self {
    case .plusCode(.invalidLength): return true
    case .plusCode: return false
    default: return true
    }
  }

  /// A sentence naming the problem.
  var description: String {
    switch self {
    case .missingSubcommand:
      return "Missing pluscode subcommand: use encode, decode, shorten, recover or help."
    case .unknownSubcommand(let name):
      return
        "Unknown pluscode subcommand \"\(name)\": use encode, decode, shorten, recover or help."
    case .missingArgument(let name):
      return "Missing argument \(name)."
    case .unexpectedArgument(let value):
      return "Unexpected argument \"\(value)\"."
    case .unknownOption(let name):
      return "Unknown option \"\(name)\"."
    case .duplicateOption(let name):
      return "Option \(name) is given more than once."
    case .missingOptionValue(let name):
      return "Option \(name) needs a value."
    case .notANumber(let argument, let value):
      return "\(argument) must be a decimal number, not \"\(value)\"."
    case .notAnInteger(let argument, let value):
      return "\(argument) must be an integer, not \"\(value)\"."
    case .invalidReference(let value):
      return "--ref must be LAT,LNG (for example 47.37,8.54), not \"\(value)\"."
    case .latitudeOutOfRange(let argument, let value):
      return "\(argument) \(value) is out of range: a latitude must be within -90...90."
    case .longitudeOutOfRange(let argument, let value):
      return "\(argument) \(value) is out of range: a longitude must be within -180...180."
    case .plusCode(let error):
      return error.description
    }
  }
}
