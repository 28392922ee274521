/// A usage error: the command line is wrong. Exit code 2.
struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message }
}

/// A small command-line parser: positional arguments, `--flag`, `--option value` and
/// `--option=value`. A value that starts with '-' followed by a digit is a value, not an option.
struct Arguments {
  private(set) var positional: [String] = []
  private var options: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Parses `args`; `valued` names the options that take a value.
  init(_ args: [String], valued: Set<String>, flags allowedFlags: Set<String>) throws {
    var i = 0
    var onlyPositional = false
    while i < args.count {
      let a = args[i]
      i += 1
      if !onlyPositional, a.count == 2, a.hasPrefix("-"), let c = a.last, c.isLetter {
        // A short option such as -o.
        let name = String(c)
        if valued.contains(name) {
          guard i < args.count else { throw UsageError("option -\(name) needs a value") }
          options[name, default: []].append(args[i])
          i += 1
        } else if allowedFlags.contains(name) {
          flags.insert(name)
        } else {
          throw UsageError("unknown option -\(name)")
        }
        continue
      }
      if onlyPositional || !a.hasPrefix("--") {
        positional.append(a)
        continue
      }
      if a == "--" {
        onlyPositional = true
        continue
      }
      var name = String(a.dropFirst(2))
      var inline: String? = nil
      if let eq = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if valued.contains(name) {
        if let inline {
          options[name, default: []].append(inline)
        } else {
          guard i < args.count else { throw UsageError("option --\(name) needs a value") }
          options[name, default: []].append(args[i])
          i += 1
        }
      } else if allowedFlags.contains(name) {
        guard inline == nil else { throw UsageError("option --\(name) takes no value") }
        flags.insert(name)
      } else {
        throw UsageError("unknown option --\(name)")
      }
    }
  }

  func flag(_ name: String) -> Bool { flags.contains(name) }
  func value(_ name: String) -> String? { options[name]?.last }
  func values(_ name: String) -> [String] { options[name] ?? [] }
}
