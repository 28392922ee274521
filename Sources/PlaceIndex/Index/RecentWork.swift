import PlaceCore

/// What recent requests computed from one index, kept so that the next requests (the next
/// keystrokes, the same place under another query) do not compute it again. Each cache is
/// bounded per thread (``BoundedCache``); a kept value is the one computing it gives, so
/// answers never depend on what is kept. `docs/LIMITS.md` gives the memory it may hold.
final class RecentWork: Sendable {
  /// Finished words resolved lately (queries grow keystroke by keystroke), by word and limit.
  let resolvedWords = BoundedCache<WordKey, ResolvedToken>(capacity: 512)
  /// The tokens within typo distance of words typed lately, as the typo walk found them
  /// (``TypoMatches``): the next keystroke's word narrows them instead of walking the
  /// dictionary again. Looked up only for the word one letter shorter than the one typed.
  let typoMatches = BoundedCache<String, TypoMatches>(
    capacity: 64, byteLimit: 1 << 18, bytes: { $0.bytes })
  /// Display texts of recent suggestions, prepared for highlighting.
  let preparedTexts = BoundedCache<String, MatchHighlighter.Prepared>(capacity: 1024)
  /// What recent suggestions showed of their places.
  let displays = BoundedCache<PlaceDisplay.Key, PlaceDisplay>(capacity: 1024)
  /// The names, types and positions of places recent searches found, by rank, as the order
  /// shown compares them (``PlacePeek``).
  let peeks = BoundedCache<Int, PlacePeek>(capacity: 1024)
}
