import Foundation
import PlaceCore
import PlaceIndexFormat

extension LoadedIndex {
  /// The nearness score of a place at `point` (``Ranking/biasNearness`` inside the bias region, else
  /// falling with the distance from the focus) and its distance from the origin, if any.
  @inline(__always)
  func geoScore(_ point: Coordinate, context: SearchContext) -> (Double, distance: Double?) {
    let distance = context.filter.origin.map { $0.distance(to: point) }
    if let bias = context.filter.coordinateRegionBias, bias.contains(point) {
      return (Ranking.biasNearness, distance)
    }
    guard let focus = context.focus else { return (0, distance) }
    let d = distance ?? focus.distance(to: point)
    return (Ranking.nearness(distance: d), distance)
  }

  /// The share of a name's `nameWordCount` words that typed words matching `inName` of them
  /// cover: at most 1, and 1 exactly when they cover all (the ratio is taken before it is
  /// weighted, so that no rounding lifts a weighted share above ``Ranking/coverage``).
  @inline(__always)
  static func coverage(inName: Double, nameWordCount: Int) -> Double {
    guard nameWordCount > 0 else { return 0 }
    return Ranking.coverage * (min(inName, Double(nameWordCount)) / Double(nameWordCount))
  }

  /// The text score of a place whose name has `nameWordCount` words, from where each
  /// resolved word lies in it (`hits`, one per word), or nil when it misses more than
  /// `missing` of them (exactly `missing`: fewer were scored by a stricter pass).
  /// `startsName` says whether the name's first word is a match of the first typed word
  /// (``Ranking/nameStart``), `typedAsNamed` whether it is that word's whole token when the
  /// word has one (else ``Ranking/wholeNameOtherwise`` stands for the whole-name bonus); nil
  /// when not known yet, which counts it as true (a bound).
  @inline(__always)
  func textScore(
    nameWordCount: Int, hits: [WordHits], _ resolved: [ResolvedToken], missing: Int,
    startsName: Bool? = nil, typedAsNamed: Bool? = nil
  ) -> Double? {
    var words = 0.0
    var allInName = true
    var missed = 0
    // The name's words the typed words matched, a typo match counting its share; and the
    // least share of any word, which the whole-name bonus is scaled by.
    var inName = 0.0
    var leastShare = 1.0
    for h in hits {
      // Where the word lies: the primary name, an alternative name only, or the context; as
      // typed, else within typo distance.
      guard let (part, share, exact) = h.match else {
        missed += 1
        if missed > missing { return nil }
        allInName = false
        continue
      }
      if part == .name { inName += share } else { allInName = false }
      leastShare = min(leastShare, share)
      words += share * part.weight(exact: exact)
    }
    guard missed == missing else { return nil }
    // Every word of the name typed: "Restaurant Weinstube" is that place, not
    // "Hotel Restaurant Weinstube".
    // Not after one or two letters: any one-word name (or other-language name) starting with
    // them would get it.
    // A typo earns its share of it: a name typed as it is outranks one reached by a typo.
    let whole =
      !allInName
      ? 0
      : resolved.count >= nameWordCount && Self.mayEarnWholeName(resolved)
        ? Self.wholeNameBonus(typedAsNamed: typedAsNamed, firstHits: hits.first) * leastShare
        : startsName ?? true ? Ranking.nameStart * leastShare : 0
    let text = Ranking.text(
      words: words, coverage: Self.coverage(inName: inName, nameWordCount: nameWordCount),
      wholeName: whole)
    guard let address = Self.wholeAddressText(hits, resolved, missing: missing) else {
      return text
    }
    return max(text, address)
  }

  /// The whole-name bonus of a name every word of which was typed (before the least share):
  /// ``Ranking/wholeNameOtherwise`` when the first typed word lies whole in the primary name
  /// (its token: a compound split off its street type, "Tristel" in "Tristelstrasse", or
  /// another word than the first, "avenue" in "2nd Avenue") while the name's first word is
  /// another token (`typedAsNamed` false), else ``Ranking/wholeName``: a prefix of the name's
  /// first word ("esplanadi" of "Esplanadinpuisto") may be that word still being typed.
  @inline(__always)
  static func wholeNameBonus(typedAsNamed: Bool?, firstHits: WordHits?) -> Double {
    typedAsNamed == false && firstHits?.contains(.exact(.name)) == true
      ? Ranking.wholeNameOtherwise : Ranking.wholeName
  }

  /// The text score of a place whose address was typed whole (``Ranking/wholeAddress``): nil
  /// unless the search looks for such places (``ResolvedToken/wholeAddress``), every word's
  /// whole token lies in the place and the last one's in its context.
  @inline(__always)
  static func wholeAddressText(_ hits: [WordHits], _ resolved: [ResolvedToken], missing: Int)
    -> Double?
  {
    guard missing == 0, resolved.last?.wholeAddress == true,
      hits.last?.contains(.exact(.context)) == true,
      hits.allSatisfy({ !$0.isDisjoint(with: WordHits.exactAnywhere) })
    else { return nil }
    return Ranking.wholeAddressText(words: resolved.count)
  }
}

extension Ranking {
  /// A text score from its parts: the typed words' points, added in word order, then the
  /// coverage, then the whole-name bonus.
  ///
  /// Every score and every bound of the search is added up in this one order, and its total
  /// in that of ``score(text:importance:geo:)``. Floating-point addition rounds, so the same parts
  /// added in another order can differ in the last bit; in one order, a sum is monotone in
  /// each part: a bound whose parts are each at least a place's is at least its score, and a
  /// bound whose parts equal them is its score to the bit. That is what lets a scan in rank
  /// order stop on a tie (``LoadedIndex/collect(_:drivers:missing:context:into:)``): a later
  /// place that can at best equal the worst place kept sorts after it.
  @inline(__always)
  static func text(words: Double, coverage: Double, wholeName: Double) -> Double {
    words + coverage + wholeName
  }

  /// The text score of an address typed whole in `words` words: each a whole name word, the
  /// whole coverage, and ``wholeAddress`` (added as ``text(words:coverage:wholeName:)`` adds).
  @inline(__always)
  static func wholeAddressText(words: Int) -> Double {
    var points = 0.0
    for _ in 0..<words { points += nameExact }
    return text(words: points, coverage: coverage, wholeName: wholeAddress)
  }

  /// The importance part of a score: a place's stored importance (0…65535) weighted.
  @inline(__always)
  static func importance(stored: UInt16) -> Double {
    importance * Double(stored) / 65535
  }

  /// A score from its parts, in the one order of ``text(words:coverage:wholeName:)``.
  @inline(__always)
  static func score(text: Double, importance: Double, geo: Double) -> Double {
    text + importance + geo
  }
}

extension PostingsPart {
  /// The score of a word found in this part, as a whole token or as a prefix.
  @inline(__always)
  func weight(exact: Bool) -> Double {
    typealias W = Ranking
    switch self {
    case .name: return exact ? W.nameExact : W.namePrefix
    case .alternative: return W.alternativeName * (exact ? W.nameExact : W.namePrefix)
    case .context: return exact ? W.contextExact : W.contextPrefix
    }
  }
}

extension LoadedIndex {
  /// Whether a place's primary name starts with the whole token of `word`, the first typed
  /// one, when the word starts names only as that token (``ResolvedToken/startsNamesWhole``),
  /// given whether it starts the name (``startsName(_:with:terms:shared:)``): "rutti" starts
  /// the area "Rütti", not the street "Rüttistrasse", whose first word's token is
  /// "ruttistrasse". True when the word starts names by its prefix ("Ring" may be the start of
  /// "Ringstrasse" as much as the word "Ring"), or without NAME STARTS: nothing then tells the
  /// names apart.
  @inline(__always)
  func typedAsNamed(_ word: ResolvedToken, startsName: Bool) -> Bool {
    !word.startsNamesWhole || nameStarts == nil || startsName
  }

  /// Whether the primary name of the place whose tokens are `terms` (at `rank`) starts with a
  /// match of `word`, the first typed one: the token NAME STARTS names as its first word's is
  /// the word's whole token when it has one ("east" starts "East 2nd Street", not "Eastern
  /// Parkway"; "rautatieasema" not "Rautatieaseman Kauppakuja"), else in its prefix range or
  /// one of its typo candidates. False without NAME STARTS.
  @inline(__always)
  func startsName(
    _ rank: Int, with word: ResolvedToken, terms: PlaceTermRefs, shared: SharedTermLists
  ) -> Bool {
    guard let position = nameStarts?[rank],
      let token = terms.nameToken(at: position, shared: shared)
    else { return false }
    if word.startsNamesWhole { return token == word.exact }
    return word.range.contains(token) || word.typos.contains(token)
  }
}
