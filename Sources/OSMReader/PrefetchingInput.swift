import Foundation

/// Reads an extract a few chunks ahead of the parser, on a thread of its own, so that an
/// extract takes about as long as the slower of reading (decompressing) and parsing it
/// instead of their sum.
///
/// Memory stays bounded: ``chunks`` buffers of the chunk size circulate between the reading
/// thread and the parser. An error of the reading thread reaches the parser at the chunk
/// where it happened; a parser that stops early (``stop()``) ends the reading thread.
final class PrefetchingInput: @unchecked Sendable {
  // @unchecked: `input` and `tagGuard` are used by the reading thread alone once `start()` ran (and by
  // `position` before that); every other stored property is read and written only while
  // holding `condition`.
  private let input: ExtractInput
  private let condition = NSCondition()
  /// Filled chunks in reading order: the buffer, its byte count, and the file position after it.
  private var filled: [(buffer: UnsafeMutableRawBufferPointer, count: Int, position: Int64)] = []
  /// Buffers the reading thread may fill.
  private var empty: [UnsafeMutableRawBufferPointer]
  /// Every buffer, for deallocation.
  private let buffers: [UnsafeMutableRawBufferPointer]
  /// The buffer the parser holds, handed back at its next call.
  private var held: UnsafeMutableRawBufferPointer?
  private var failure: Error?
  private var ended = false
  private var stopped = false
  private var running = false

  /// Number of buffers in circulation.
  static let chunks = 3

  /// Scans the XML bytes for over-large start tags before the parser sees them (reading
  /// thread only).
  private var tagGuard: StartTagGuard?

  init(_ input: ExtractInput, chunkSize: Int, guardingStartTags: Bool = false) {
    self.input = input
    tagGuard = guardingStartTags ? StartTagGuard(path: input.displayPath) : nil
    buffers = (0..<Self.chunks).map { _ in
      UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 8)
    }
    empty = buffers
  }

  deinit {
    for b in buffers { b.deallocate() }
  }

  /// Starts the reading thread.
  func start() {
    condition.lock()
    running = true
    condition.unlock()
    let thread = Thread { [self] in self.readAll() }
    thread.name = "placeidx extract reader"
    thread.start()
  }

  /// The reading thread: fills empty buffers until the input ends, fails or is stopped.
  private func readAll() {
    while true {
      condition.lock()
      while empty.isEmpty && !stopped { condition.wait() }
      if stopped {
        running = false
        condition.broadcast()
        condition.unlock()
        return
      }
      let buffer = empty.removeLast()
      condition.unlock()
      var count = 0
      var failed: Error? = nil
      do {
        count = try input.read(into: buffer)
        try tagGuard?.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      } catch { failed = error }
      let position = input.position
      condition.lock()
      if let failed {
        failure = failed
        empty.append(buffer)
      } else {
        filled.append((buffer, count, position))
      }
      let done = failed != nil || count == 0
      if done {
        ended = true
        running = false
      }
      condition.broadcast()
      condition.unlock()
      if done { return }
    }
  }

  /// The next chunk (empty at the end of the input) and the file position after it; the
  /// bytes stay valid until the next call. Throws what reading the input threw.
  func next() throws -> (buffer: UnsafeMutableRawBufferPointer, count: Int, position: Int64) {
    condition.lock()
    defer { condition.unlock() }
    if let held {
      empty.append(held)
      self.held = nil
      condition.broadcast()
    }
    while filled.isEmpty && failure == nil && !ended { condition.wait() }
    if !filled.isEmpty {
      let chunk = filled.removeFirst()
      held = chunk.buffer
      return chunk
    }
    if let failure { throw failure }
    return (buffers[0], 0, input.compressedSize)
  }

  /// Ends the reading thread early and waits for it, so that the input can be closed.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
  }
}
