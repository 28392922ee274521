/// The harness draws its targets, typos and origins from the project's one seeded generator,
/// SplitMix64 (`Seeded.swift`, a symlink to PlaceCore's source: PlaceCore declares it at `package`
/// access, which this package cannot see), never from the standard library's algorithms that
/// take a generator, whose output may change between Swift releases: the same seed must give the
/// same targets.
typealias SeededRandom = SplitMix64

/// FNV-1a 64 of a string: derives a per-extract seed from the harness seed and a file name.
func fnv1a(_ text: String) -> UInt64 { fnv1a64(text) }
