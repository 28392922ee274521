import PlaceCore

/// What recent requests computed from one index, kept so that the next requests (the next
/// keystrokes, the same place under another query) do not compute it again. Each cache is
/// bounded per thread (``BoundedCache``); a kept value is the one computing it gives, so
/// answers never depend on what is kept. `docs/LIMITS.md` gives the memory it may hold.
final class RecentWork: Sendable {
  /// Finished words resolved lately (queries grow keystroke by keystroke), by word and limit.
  let resolvedWords = BoundedCache<WordKey, ResolvedToken>(capacity: 512)
  /// Every place's hits for finished words of recent queries: a word that does not drive a
  /// search is matched through them ("florinsgasse" while the number after it is typed). At
  /// most ``hitMapBytes`` per part: a map of every place is 2¼ bytes per place (2.9 MB for
  /// 1.3 M places), so a large index keeps a few.
  let hitMaps = BoundedCache<WordKey, WordHitMap>(
    capacity: 16, byteLimit: RecentWork.hitMapBytes, bytes: { $0.byteCount })
  /// The most bytes of hit maps one part of ``hitMaps`` keeps.
  static let hitMapBytes = 8 << 20
  /// Display texts of recent suggestions, prepared for highlighting.
  let preparedTexts = BoundedCache<String, MatchHighlighter.Prepared>(capacity: 1024)
  /// What recent suggestions showed of their places.
  let displays = BoundedCache<PlaceDisplay.Key, PlaceDisplay>(capacity: 1024)
}
