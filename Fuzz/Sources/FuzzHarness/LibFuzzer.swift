// libFuzzer's driver, called from each target's main.swift. Only the Fuzz package compiles this
// file (the fuzz binaries link libFuzzer through -sanitize=fuzzer); the ReliabilityTests target
// compiles FuzzHarness.swift alone.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signature of libFuzzer's `LLVMFuzzerTestOneInput`.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: FuzzTestOneInput
) -> CInt

/// Runs libFuzzer with the process's arguments and `callback` as the target, then exits with
/// libFuzzer's status.
///
/// `--write-seeds DIR` instead writes the target's generated seeds (`seeds()`) into DIR and
/// exits: the Makefile uses it to seed each corpus from the project's real files.
public func runLibFuzzer(
  _ callback: FuzzTestOneInput, seeds: () -> [(name: String, bytes: [UInt8])]
) -> Never {
  let arguments = CommandLine.arguments
  if arguments.count == 3, arguments[1] == "--write-seeds" {
    let dir = arguments[2]
    do {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      for seed in seeds() {
        try Data(seed.bytes).write(
          to: URL(fileURLWithPath: dir).appendingPathComponent(seed.name))
      }
    } catch {
      FileHandle.standardError.write(Data("cannot write seeds to \(dir): \(error)\n".utf8))
      exit(1)
    }
    exit(0)
  }
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The bytes of libFuzzer's input.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: data, count: size))
}

/// The first `limit` bytes of the file at `path`, or nil when it cannot be read.
public func fileHead(_ path: String, limit: Int = .max) -> [UInt8]? {
  guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
  defer { try? handle.close() }
  guard let data = try? handle.read(upToCount: limit) else { return nil }
  return [UInt8](data)
}
