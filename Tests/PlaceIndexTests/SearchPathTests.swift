import Foundation
import PlaceCore
import PlaceIndexBuilder
import PlaceIndexFormat
import TestSupport
import Testing

@testable import PlaceCore
@_spi(Testing) @testable import PlaceIndex

/// The Helsinki extract's index, built once for the search-path tests.
let helsinkiSearchIndex: Result<String, Error> = Result {
  let dir = try TestPaths.temporaryDirectory()
  let out = dir.appendingPathComponent("helsinki.placeidx").path
  let tables = try BuildTables(directory: TestPaths.data)
  _ = try IndexBuilder(tables: tables).build(
    IndexBuilder.Options(extract: TestPaths.osm("helsinki-center-2019.osm").path, output: out))
  return out
}

/// The fast paths of the query (typo walk, bounded merge) give what the plain definitions give.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct SearchPathTests {
  /// The dictionary's tokens, in id order.
  func dictionary(_ index: LoadedIndex) throws -> [[UInt8]] {
    var all: [[UInt8]] = []
    try index.tokens.forEach { _, t in all.append(t) }
    return all
  }

  /// `times` seeded edits of `q` after its first letter, each a letter of `letters` put in
  /// for one, a letter dropped (while more than `keeping` are left), a letter put in, or two
  /// swapped.
  func edit(
    _ q: inout [UInt32], times: Int, letters: [UInt32], keeping: Int,
    _ random: inout SplitMix64
  ) {
    for _ in 0..<times {
      let at = 1 + random.below(q.count - 1)
      let letter = letters[random.below(letters.count)]
      switch random.below(4) {
      case 0: q[at] = letter
      case 1: if q.count > keeping { q.remove(at: at) }
      case 2: q.insert(letter, at: at)
      default: if at + 1 < q.count { q.swapAt(at, at + 1) }
      }
    }
  }

  /// The word of letters `q`, and the tokens with its first letter that the distance
  /// function puts within its edit limit, outside its prefix range: the first
  /// ``Ranking/maxTypoCandidates``, in id order, as the walk gives them.
  func bruteForceTypos(_ index: LoadedIndex, _ words: [[UInt8]], _ q: [UInt32]) throws -> (
    String, [Int]
  ) {
    let text = String(String.UnicodeScalarView(q.compactMap(Unicode.Scalar.init)))
    let range = try index.tokens.prefixRange(text)
    let limit = Ranking.allowedEdits(scalars: q)
    let first = try index.tokens.prefixRange(String(text.unicodeScalars.first!))
    let expected = first.filter { id in
      !range.contains(id)
        && TypoDistance.prefixDistance(q, TypoDistance.scalars(words[id]), limit: limit) != nil
    }
    return (text, Array(expected.prefix(Ranking.maxTypoCandidates)))
  }

  @Test func typoWalkFindsWhatTheDistanceFunctionFinds() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let words = try dictionary(index)
    var random = SplitMix64(seed: 7)
    var checked = 0
    for _ in 0..<400 {
      let word = words[Int(random.next() % UInt64(words.count))]
      guard word.count >= 5, word.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { continue }
      // One or two seeded edits after the first letter, or the word cut short.
      var q = word
      for _ in 0..<(1 + Int(random.next() % 2)) {
        let at = 1 + Int(random.next() % UInt64(q.count - 1))
        switch random.next() % 4 {
        case 0: q[at] = UInt8(0x61 + random.next() % 26)
        case 1: if q.count > 5 { q.remove(at: at) }
        case 2: q.insert(UInt8(0x61 + random.next() % 26), at: at)
        default: if at + 1 < q.count { q.swapAt(at, at + 1) }
        }
      }
      let (text, expected) = try bruteForceTypos(index, words, TypoDistance.scalars(q))
      let found = try index.typoCandidates(text, excluding: try index.tokens.prefixRange(text))
      #expect(found == expected, "\(text)")
      checked += 1
    }
    #expect(checked > 100)
  }

  /// The walk that resumes at the next prefix within the limit (``TypoWalk/resumeAt(_:)``)
  /// finds what the distance function finds over every token with the first letter, for
  /// words of any script (letters drawn from the dictionary's own, so that edits bring in
  /// "ä", "ö" and "å"), with one and two edits allowed, cut short or typed on.
  @Test func typoWalkFindsWhatTheDistanceFunctionFindsInAnyScript() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let words = try dictionary(index)
    let letters = Array(Set(words.flatMap { TypoDistance.scalars($0) })).sorted()
    var random = SplitMix64(seed: 17)
    var checked = 0
    var twoEdits = 0
    var outsideASCII = 0
    var found = 0
    for _ in 0..<600 {
      var q = TypoDistance.scalars(words[Int(random.next() % UInt64(words.count))])
      guard q.count >= 4 else { continue }
      if random.below(3) == 0 { q = Array(q.prefix(4 + random.below(q.count - 3))) }
      edit(&q, times: random.below(3), letters: letters, keeping: 4, &random)
      let (text, expected) = try bruteForceTypos(index, words, q)
      let walked = try index.typoCandidates(text, excluding: try index.tokens.prefixRange(text))
      #expect(walked == expected, "\(text)")
      checked += 1
      found += walked.count
      if Ranking.allowedEdits(scalars: q) == 2 { twoEdits += 1 }
      if q.contains(where: { $0 > 0x7F }) { outsideASCII += 1 }
    }
    #expect(
      checked > 300 && twoEdits > 50 && outsideASCII > 30 && found > 300,
      "\(checked) words, \(twoEdits) with two edits, \(outsideASCII) outside ASCII, \(found) found")
  }

  /// A word of four letters matches within its edit whole tokens only: the walk gives what the
  /// whole distance finds over every token with its first letter, though the starts of many
  /// more tokens lie within the edit (the cap counts whole matches, so that a large dictionary's
  /// starts cannot fill it first).
  @Test func aFourLetterWordsTyposAreWholeTokens() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let words = try dictionary(index)
    let letters = Array("abcdefghijklmnopqrstuvwxyzäö".unicodeScalars.map(\.value))
    var random = SplitMix64(seed: 41)
    var checked = 0
    var found = 0
    var startsOnly = 0
    for _ in 0..<500 {
      var q = TypoDistance.scalars(words[random.below(words.count)])
      guard q.count >= 4 else { continue }
      q = Array(q.prefix(4))
      let at = 1 + random.below(3)
      if random.below(2) == 0 { q[at] = letters[random.below(letters.count)] }
      guard Ranking.typoMatchesWholeTokens(q) else { continue }
      let text = String(String.UnicodeScalarView(q.compactMap(Unicode.Scalar.init)))
      let range = try index.tokens.prefixRange(text)
      let first = try index.tokens.prefixRange(String(text.unicodeScalars.first!))
      let limit = Ranking.allowedEdits(scalars: q)
      let whole = first.filter { id in
        !range.contains(id)
          && TypoDistance.wholeDistance(q, TypoDistance.scalars(words[id]), limit: limit) != nil
      }
      let starts = first.filter { id in
        !range.contains(id)
          && TypoDistance.prefixDistance(q, TypoDistance.scalars(words[id]), limit: limit) != nil
      }
      let walked = try index.typoCandidatesTyped(text, excluding: range)
      #expect(walked == Array(whole.prefix(Ranking.maxTypoCandidates)), "\(text)")
      checked += 1
      found += walked.count
      if starts.count > whole.count { startsOnly += 1 }
    }
    #expect(checked > 150 && found > 50 && startsOnly > 50, "\(checked) \(found) \(startsOnly)")
  }

  /// A word typed letter by letter (sometimes with a typo in it) gets, at each keystroke,
  /// the typo candidates a walk of the dictionary gives, whether they come from a walk or
  /// from the previous keystroke's matches narrowed (``TypoMatches``); both ways are taken.
  @Test func typoCandidatesNarrowedFromTheKeystrokeBeforeAreTheWalksOwn() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let words = try dictionary(index)
    let letters = Array(Set(words.flatMap { TypoDistance.scalars($0) })).sorted()
    var random = SplitMix64(seed: 29)
    var narrowed = 0
    var walked = 0
    var found = 0
    for _ in 0..<250 {
      var q = TypoDistance.scalars(words[Int(random.next() % UInt64(words.count))])
      guard q.count >= 6 else { continue }
      if random.below(2) == 0 {
        q[1 + random.below(q.count - 1)] = letters[random.below(letters.count)]
      }
      for length in 2...q.count {
        let text = String(
          String.UnicodeScalarView(q.prefix(length).compactMap(Unicode.Scalar.init)))
        var shorter = text.unicodeScalars
        shorter.removeLast()
        let kept = index.recent.typoMatches.held(String(shorter)) != nil
        let range = try index.tokens.prefixRange(text)
        // Only what the search asks: a word whose prefix finds few places.
        guard try index.postings.length(of: range, cap: 1_000) < 10 else { continue }
        let typed = try index.typoCandidatesTyped(text, excluding: range)
        // A word of four letters matches whole tokens only (aFourLetterWordsTyposAreWholeTokens).
        let units = Array(q.prefix(length))
        let expected =
          Ranking.typoMatchesWholeTokens(units)
          ? try index.typoCandidates(text, excluding: range).filter { id in
            TypoDistance.wholeDistance(
              units, TypoDistance.scalars(words[id]),
              limit: Ranking.allowedEdits(scalars: units)) != nil
          } : try index.typoCandidates(text, excluding: range)
        #expect(typed == expected, "\(text)")
        if kept
          && Ranking.allowedEdits(scalars: Array(q.prefix(length)))
            == Ranking.allowedEdits(scalars: Array(q.prefix(length - 1)))
        {
          narrowed += 1
        } else {
          walked += 1
        }
        found += typed.count
      }
    }
    #expect(
      narrowed > 200 && walked > 50 && found > 200,
      "\(narrowed) narrowed, \(walked) walked, \(found) found")
  }

  /// Shards walk their dictionaries together (``LoadedIndex/walkTypos(_:_:excluding:wholeTokens:into:)``,
  /// each token looked at once however many of them hold it): each shard gets the ids of its
  /// tokens among the first ``Ranking/maxTypoCandidates`` that the distance function finds
  /// over the union of their dictionaries, whether the shards share every token (one index
  /// twice), some (Helsinki and the sample) or few (the syllable fixture); typed letter by
  /// letter, the shards that kept the keystroke before's matches narrow them and give the same.
  @Test func shardsWalkingTheirDictionariesTogetherFindWhatEachHolds() throws {
    let paths = [
      try helsinkiSearchIndex.get(), try sampleSearchIndex.get(), try syllableFixtureIndex.get(),
      try helsinkiSearchIndex.get(),
    ]
    let indexes = try paths.map { try LoadedIndex(path: $0) }
    let words = try indexes.map { try dictionary($0) }
    let latin = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars.map(\.value))
    var random = SplitMix64(seed: 53)
    var checked = 0
    var capped = 0
    var inSeveral = 0
    var typedOn = 0
    for _ in 0..<300 {
      let from = words[random.below(2)]
      var q = TypoDistance.scalars(from[random.below(from.count)])
      guard q.count >= 5 else { continue }
      edit(&q, times: random.below(3), letters: latin, keeping: 5, &random)
      let text = String(String.UnicodeScalarView(q.compactMap(Unicode.Scalar.init)))
      let limit = Ranking.allowedEdits(scalars: q)
      let ranges = try indexes.map { try $0.tokens.prefixRange(text) }
      // Every shard's matches by the distance function, then the first of their union.
      let letter = String(text.unicodeScalars.first!)
      let own = try indexes.indices.map { s in
        try indexes[s].tokens.prefixRange(letter).filter { id in
          !ranges[s].contains(id)
            && TypoDistance.prefixDistance(q, TypoDistance.scalars(words[s][id]), limit: limit)
              != nil
        }
      }
      let union = Set(indexes.indices.flatMap { s in own[s].map { words[s][$0] } })
      let kept = Set(
        union.sorted { $0.lexicographicallyPrecedes($1) }.prefix(Ranking.maxTypoCandidates))
      let expected = indexes.indices.map { s in own[s].filter { kept.contains(words[s][$0]) } }
      var none: [TypoMatches]? = nil
      let walked = try LoadedIndex.walkTypos(indexes, text, excluding: ranges, into: &none)
      #expect(walked == expected, "\(text)")
      checked += 1
      if union.count > Ranking.maxTypoCandidates { capped += 1 }
      if expected.filter({ !$0.isEmpty }).count > 2 { inSeveral += 1 }
      // Typed on by one letter from the shards' kept matches (the same, narrowed).
      let longer = text + "e"
      let longerRanges = try indexes.map { try $0.tokens.prefixRange(longer) }
      _ = try LoadedIndex.typoCandidatesTyped(indexes, text, excluding: ranges)
      let held = indexes.allSatisfy { $0.recent.typoMatches.held(text) != nil }
      let sameLimit = Ranking.allowedEdits(scalars: q + [0x65]) == limit
      let narrowed = try LoadedIndex.typoCandidatesTyped(indexes, longer, excluding: longerRanges)
      let fresh = try LoadedIndex.walkTypos(indexes, longer, excluding: longerRanges, into: &none)
      // (Each shard caps its narrowed matches alone: the same when their union is below it.)
      if union.count < Ranking.maxTypoCandidates {
        #expect(narrowed == fresh, "\(longer)")
        if held && sameLimit && narrowed.contains(where: { !$0.isEmpty }) { typedOn += 1 }
      }
    }
    #expect(
      checked > 150 && inSeveral > 50 && typedOn > 50,
      "\(checked) words, \(capped) capped, \(inSeveral) found in 3 or more shards, \(typedOn) narrowed"
    )
  }

  @Test func highlightsWithoutAllTermsEqualHighlightsWithThem() throws {
    let path = try helsinkiSearchIndex.get()
    let index = try LoadedIndex(path: path)
    let client = PlacesClient(indexes: [index])
    let table = try index.abbreviations
    var random = SplitMix64(seed: 11)
    var texts: [String] = [
      "Kanal Str. 12 bis", "Hauptstr. 3191/17", "l'Église Saint-Jean", "Yrjönk. 5",
      "23-30 29th St, Queens", "Zürich Straße", "Mannerheimintie 5 A",
    ]
    for rank in 0..<index.placeCount {
      let id = try index.placeIDForTesting(rank: rank)
      let place = try client.fetchPlace(
        with: FetchPlaceRequest(placeID: id, placeProperties: [.formattedAddress]))
      if let text = place.formattedAddress { texts.append(text) }
    }
    var compared = 0
    for text in texts {
      let tokens = Tokenizer.tokens(text)
      var queries: [[String]] = [tokens.map(\.text)]
      for (i, token) in tokens.enumerated() {
        let scalars = Array(token.text.unicodeScalars)
        let cut = 1 + Int(random.next() % UInt64(scalars.count))
        queries.append([String(textScalars: scalars[..<cut])])
        if i + 1 < tokens.count {
          let next = Array(tokens[i + 1].text.unicodeScalars)
          queries.append([token.text + String(textScalars: next[..<min(2, next.count)])])
        }
      }
      queries.append(IndexTerms.terms(for: text, abbreviations: table))
      for q in queries {
        let fast = MatchHighlighter.matches(queryTokens: q, in: text, abbreviations: table)
        let plain = MatchHighlighter.matchesByTerms(queryTokens: q, in: text, abbreviations: table)
        #expect(fast == plain, "\(text) for \(q)")
        compared += 1
      }
    }
    #expect(compared > 5000)
  }

  /// The place IDs of the top 5 for `query`.
  func top5(_ client: PlacesClient, _ query: String) throws -> [String] {
    try client.autocompleteSuggestions(for: AutocompleteRequest(query: query))
      .compactMap(\.placeSuggestion).map(\.placeID)
  }

  @Test func oneTypoInALongNameStillFindsThePlace() throws {
    let client = try PlacesClient(indexPaths: [try helsinkiSearchIndex.get()])
    // Transposition, insertion, substitution and deletion in names of 6+ letters.
    #expect(try top5(client, "Barbaossa").contains("N4747221535"))
    #expect(try top5(client, "Helsigin Kauppakamari").contains("N5239124161"))
    #expect(try top5(client, "Haaniemenranta").contains("W30148325"))
    #expect(try top5(client, "NaturaZzne").contains("N4727972445"))
  }

  /// The Bank of Finland is a bank node and, 60 m away, its untyped grounds (landuse=civil)
  /// of the same name: one suggestion.
  @Test func aNamedPlaceAndItsUntypedGroundsAreOneSuggestion() throws {
    let client = try PlacesClient(indexPaths: [try helsinkiSearchIndex.get()])
    let s = try client.autocompleteSuggestions(for: AutocompleteRequest(query: "suomen pankki"))
      .compactMap(\.placeSuggestion)
    #expect(s.filter { $0.primaryText.text == "Suomen Pankki" }.map(\.types.first) == ["bank"])
  }

  /// Mannerheimintie 2 is a building (premise) and, 26 m away, an address node: one
  /// suggestion, the building.
  @Test func anAddressNodeAndItsBuildingAreOneSuggestion() throws {
    let client = try PlacesClient(indexPaths: [try helsinkiSearchIndex.get()])
    let s = try client.autocompleteSuggestions(for: AutocompleteRequest(query: "mannerheimintie 2"))
      .compactMap(\.placeSuggestion)
    #expect(
      s.filter { $0.primaryText.text == "Mannerheimintie 2" }.map(\.placeID) == ["W123534687"])
  }

  @Test(arguments: [
    ("bank", "bank", 149.0, true), ("bank", "bank", 151, false),
    ("bank", "point_of_interest", 100, true), ("establishment", "cafe", 100, true),
    ("point_of_interest", "locality", 200, false), ("bank", "cafe", 10, false),
    ("route", "route", 1_999, true), ("route", "point_of_interest", 1_000, false),
    ("premise", "street_address", 100, true), ("street_address", "hotel", 149, true),
    ("premise", "apartment_building", 151, false), ("hotel", "apartment_building", 10, false),
  ])
  func duplicatesShareANameAndAreClose(a: String, b: String, distance: Double, same: Bool) {
    #expect(Ranking.areDuplicates(a, b, distance: distance) == same)
    #expect(Ranking.areDuplicates(b, a, distance: distance) == same)
  }

  /// A word that matches no token as typed, as a prefix or within typo distance is looked for
  /// inside longer tokens: the end of a compound, a name typed without its first letter.
  @Test func aWordFoundNowhereElseIsFoundInsideLongerWords() throws {
    let client = try PlacesClient(indexPaths: [try helsinkiSearchIndex.get()])
    #expect(try top5(client, "bianinkatu 20").first == "N2403526160")
    #expect(try top5(client, "aivokatu").contains("W14472962"))
    // From 4 letters: "aiv" lies inside many words.
    #expect(try top5(client, "aiv").isEmpty)
    // "Mint" lies inside "Mannerheimintie" only; a place that carries every other word still
    // comes first when nothing carries them all.
    #expect(try top5(client, "Mister Mint").first == "N6049453006")
  }

  @Test func aTypoInAShortWordFallsBackToTheOtherWords() throws {
    let client = try PlacesClient(indexPaths: [try helsinkiSearchIndex.get()])
    // "Bar" typed "Bgr" (too short for typo tolerance), "Bar" missing its first letter, a
    // wrong first letter: every word matches but one, and nothing matches them all.
    let aussie = try top5(client, "Club Aussie Bgr")
    #expect(aussie.first == "N1376356009")
    #expect(try top5(client, "Maya ar & Grill").contains("N59622323"))
    #expect(try top5(client, "DTM Gay Cight Club").contains("N1618153143"))
    // A full match always ranks before places that miss a word.
    let full = try top5(client, "Club Aussie Bar")
    #expect(full.first == "N1376356009")
  }
}

/// The whole-name bonus of the ranking.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct WholeNameBonusTests {
  @Test(arguments: [(1, false), (2, false), (3, true), (8, true)])
  func aOneWordQueryEarnsTheBonusFromThreeLetters(typed: Int, bonus: Bool) throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let token = ResolvedToken(
      range: 40..<50, exact: nil, typos: [], cost: 10, typedLength: typed)
    let score = try #require(
      index.textScore(
        nameWordCount: 1, hits: [.range(.name)], [token], missing: 0, startsName: false))
    // The one word of the name matched: the full coverage.
    let expected =
      Ranking.namePrefix + Ranking.coverage
      + (bonus ? Ranking.wholeName : 0)
    #expect(score == expected)
    // Shorter, a word that starts the name earns the name-start bonus in its place.
    let started = try #require(
      index.textScore(
        nameWordCount: 1, hits: [.range(.name)], [token], missing: 0, startsName: true))
    #expect(started == Ranking.namePrefix + Ranking.coverage + Ranking.wholeName)
    // Two words typed: the bonus does not wait for three letters.
    let second = ResolvedToken(range: 60..<61, exact: 60, typos: [], cost: 1, typedLength: 1)
    let two = try #require(
      index.textScore(
        nameWordCount: 2, hits: [.range(.name), [.range(.name), .exact(.name)]],
        [token, second], missing: 0))
    #expect(
      two == Ranking.namePrefix + Ranking.nameExact
        + Ranking.coverage + Ranking.wholeName)
  }

  @Test func aNameTypedOtherwiseThanWrittenEarnsLessOfTheBonus() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let word = ResolvedToken(range: 42..<44, exact: 42, typos: [], cost: 10, typedLength: 6)
    func score(_ typedAsNamed: Bool?) throws -> Double {
      try #require(
        index.textScore(
          nameWordCount: 1, hits: [[.range(.name), .exact(.name)]], [word], missing: 0,
          typedAsNamed: typedAsNamed))
    }
    let named = Ranking.nameExact + Ranking.coverage
    #expect(try score(true) == named + Ranking.wholeName)
    #expect(try score(false) == named + Ranking.wholeNameOtherwise)
    #expect(try score(false) < score(true))
    // Not known yet: the bound, the full bonus.
    #expect(try score(nil) == score(true))
    // A prefix of the name's first word, not the word whole in it: that word may be the one
    // being typed ("esplanadi" of "Esplanadinpuisto"), the full bonus.
    let prefix = try #require(
      index.textScore(
        nameWordCount: 1, hits: [.range(.name)], [word], missing: 0, typedAsNamed: false))
    #expect(prefix == Ranking.namePrefix + Ranking.coverage + Ranking.wholeName)
  }

  @Test func coverageIsTheShareOfTheNameTyped() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let word = ResolvedToken(range: 40..<50, exact: nil, typos: [], cost: 10, typedLength: 2)
    let score = try #require(
      index.textScore(
        nameWordCount: 4, hits: [.range(.name)], [word], missing: 0, startsName: false))
    #expect(score == Ranking.namePrefix + Ranking.coverage / 4)
  }

  @Test func anAlternativeNameScoresBelowThePrimaryNameAndEarnsNoBonus() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let word = ResolvedToken(range: 42..<43, exact: 42, typos: [], cost: 10, typedLength: 6)
    let w = Ranking.self
    func score(_ part: PostingsPart) throws -> Double {
      try #require(
        index.textScore(
          nameWordCount: 1, hits: [[.range(part), .exact(part)]], [word], missing: 0))
    }
    let p = try score(.name)
    let a = try score(.alternative)
    let c = try score(.context)
    #expect(p == w.nameExact + w.coverage + w.wholeName)
    #expect(a == w.alternativeName * w.nameExact)
    #expect(c == w.contextExact)
    #expect(p > a && a > c)
  }
}

/// The search's early stops (importance order, places whose word lies only in their context)
/// give what scoring every place gives.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct SearchOracleTests {
  /// The best `limit` (score, rank) pairs of every place that matches every word.
  func everyPlace(
    _ index: LoadedIndex, _ query: String, filter: AutocompleteFilter, limit: Int
  ) throws -> [ScoredPlace] {
    Array(try scoreEveryPlace(index, query, filter: filter, limit: limit).places.prefix(limit))
  }

  /// Every place that matches every word, best first, with the ranks of those whose address
  /// the words typed whole (``LoadedIndex/wholeAddressText(_:_:missing:)``); words resolved
  /// for `limit` results.
  func scoreEveryPlace(
    _ index: LoadedIndex, _ query: String, filter: AutocompleteFilter, limit: Int
  ) throws -> (places: [ScoredPlace], wholeAddresses: Set<Int>) {
    let plan = QueryPlan(query: query, inputOffset: nil)
    var resolved = try plan.tokens.map { try index.resolve($0, limit: limit) }
    LoadedIndex.shortWordAsPrefix(&resolved, plan)
    var words = [resolved]
    try LoadedIndex.markWholeAddress([index], &words, plan)
    resolved = words[0]
    let maps = try resolved.map {
      try PostingsHitMap($0, postings: index.postings, placeCount: index.places.count)
    }
    let context = SearchContext(filter: filter, typeFilter: .any, limit: limit)
    var all: [ScoredPlace] = []
    var wholeAddresses: Set<Int> = []
    var entry = PlaceMatch()
    var terms = PlaceTermRefs()
    let shared = try index.sharedTerms
    for rank in 0..<index.places.count {
      try index.places.match(rank, into: &entry)
      try index.terms.refs(of: rank, into: &terms)
      let starts = index.startsName(rank, with: resolved[0], terms: terms, shared: shared)
      guard
        let text = index.textScore(
          nameWordCount: entry.nameWordCount, hits: maps.map { $0[rank] }, resolved, missing: 0,
          startsName: starts, typedAsNamed: index.typedAsNamed(resolved[0], startsName: starts))
      else { continue }
      if LoadedIndex.wholeAddressText(maps.map { $0[rank] }, resolved, missing: 0) != nil {
        wholeAddresses.insert(rank)
      }
      let point = Coordinate(
        latitude: Double(entry.latitudeE7) / 1e7, longitude: Double(entry.longitudeE7) / 1e7)
      let (geo, distance) = index.geoScore(point, context: context)
      let importance = Ranking.importance(stored: entry.importance)
      all.append(
        ScoredPlace(
          rank: rank, score: text + importance + geo, distance: distance,
          latitudeE7: entry.latitudeE7, longitudeE7: entry.longitudeE7))
    }
    all.sort { $0.score > $1.score || ($0.score == $1.score && $0.rank < $1.rank) }
    return (all, wholeAddresses)
  }

  /// Compares the search with ``everyPlace(_:_:filter:limit:)`` on every prefix of `texts`
  /// with every filter, as the search runs and with the words' postings filtering it from the
  /// first place on (most searches of a small index end before they would); the number of
  /// places compared.
  func compareWithEveryPlace(
    _ index: LoadedIndex, texts: [String], filters: [AutocompleteFilter]
  ) throws -> Int {
    var compared = 0
    for text in texts {
      let chars = Array(text)
      for n in 1...chars.count {
        let query = String(chars[0..<n])
        for filter in filters {
          let plan = QueryPlan(query: query, inputOffset: nil)
          let expected = try everyPlace(index, query, filter: filter, limit: 10)
          for filterAfter in [Ranking.filterAfter, 0] {
            let found = try index.search(
              plan, filter: filter, typeFilter: .any, limit: 10, filterAfter: filterAfter
            )
            .filter { $0.score > -Ranking.relaxedPenalty / 2 }
            #expect(
              found.map(\.rank) == expected.map(\.rank),
              "\(query) with \(filter), filters after \(filterAfter)")
            #expect(found.map(\.score) == expected.map(\.score))
          }
          compared += expected.count
        }
      }
    }
    return compared
  }

  @Test func theSearchFindsWhatScoringEveryPlaceFinds() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let origins: [Coordinate?] = [
      nil, Coordinate(latitude: 60.1699, longitude: 24.9384),
      Coordinate(latitude: 60.1589, longitude: 24.9555),
    ]
    // Every prefix of names and of a street with a number, one- and two-word queries; the
    // one-letter ones match most places by their context ("Helsinki", "Finland").
    // Streets, towns and category words are many places' context: their places rank by it.
    let texts = [
      "Kaivokatu", "Stockmann", "Esplanadi 3", "Hotel K", "Suomen Pankki", "Fi", "Helsinki",
      "Mannerheimintie", "Kluuvi", "pharmacy", "restaurant Kaivokatu",
      // Short prefixes of several words: every word but the driving one is sought.
      "k m s", "Su Pa", "h ka 1",
      // A word many places carry in their context beside one a few carry in their names.
      "Helsinki Stockmann", "Kaivokatu Hotel",
      // Short whole words and numbers: past some importance only names that carry two of them
      // whole can enter (``WholeWordNames``).
      "k 12", "m 1 a", "e 3",
      // The same read from both ends, and past the first narrowing: names that carry one of
      // the words whole, then both.
      "a 1", "s k", "k 2 a",
      // Addresses typed whole: the places at the address, whose names carry neither word,
      // earn a name's score (``LoadedIndex/collectWholeAddresses``).
      "Kaivokatu 1", "Mannerheimintie 5",
    ]
    // Origins, and biases: every place inside a bias region earns the full nearness bonus.
    let center = Coordinate(latitude: 60.1699, longitude: 24.9384)
    let filters =
      origins.map { AutocompleteFilter(origin: $0) } + [
        AutocompleteFilter(coordinateRegionBias: .circle(center: center, radiusMeters: 400)),
        AutocompleteFilter(
          coordinateRegionBias: .rectangle(
            low: Coordinate(latitude: 60.165, longitude: 24.93),
            high: Coordinate(latitude: 60.172, longitude: 24.95))),
        AutocompleteFilter(
          origin: Coordinate(latitude: 60.1589, longitude: 24.9555),
          coordinateRegionBias: .circle(center: center, radiusMeters: 300)),
      ]
    #expect(try compareWithEveryPlace(index, texts: texts, filters: filters) > 3000)
  }

  /// The pass for addresses typed whole (``LoadedIndex/collectWholeAddresses(_:into:)``) on
  /// its own, without the scan before it: it finds every place whose address the words typed
  /// whole, and scores each as scoring every place does. (On a city's index the scan reaches
  /// those places before it stops, so the search's answers alone would not tell a pass that
  /// missed them; on a country's it stops first.)
  @Test(
    arguments: [
      ("Kaivokatu 1", nil), ("Mannerheimintie 5", nil), ("Kaivokatu 1", "60.1589,24.9555"),
      ("Aleksanterinkatu 52", nil), ("Unioninkatu 45", "60.1699,24.9384"),
    ] as [(String, String?)])
  func thePassForAddressesTypedWholeFindsThemAlone(_ query: String, _ origin: String?) throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let filter = AutocompleteFilter(
      origin: origin.map { o in
        let ll = o.split(separator: ",").map { Double($0)! }
        return Coordinate(latitude: ll[0], longitude: ll[1])
      })
    let limit = 10
    let oracle = try scoreEveryPlace(index, query, filter: filter, limit: limit)
    #expect(!oracle.wholeAddresses.isEmpty, "\(query): no place at that address")
    let plan = QueryPlan(query: query, inputOffset: nil)
    let words = try LoadedIndex.resolveWords([index], plan, limit: limit).words[0]
    #expect(words.last?.wholeAddress == true)
    // Room for every place the pass finds: none is left out for a better one.
    let context = SearchContext(filter: filter, typeFilter: .any, limit: index.places.count)
    let driver = words.indices.min { words[$0].cost < words[$1].cost }!
    let candidates = try Candidates(index, resolved: words, drivers: [driver], context: context)
    var scorer = try PlaceScorer(
      index, resolved: words, drivers: [driver], missing: 0, context: context,
      candidates: candidates)
    var found = TopPlaces(limit: index.places.count)
    try index.collectWholeAddresses(&scorer, into: &found)
    #expect(Set(found.places.map(\.rank)) == oracle.wholeAddresses, "\(query)")
    let expected = Dictionary(uniqueKeysWithValues: oracle.places.map { ($0.rank, $0.score) })
    for p in found.places {
      #expect(p.score == expected[p.rank], "\(query): rank \(p.rank)")
    }
  }
}

/// The same proof on the sample index (Data/sample.osm), which every checkout has: the search
/// gives what scoring every place gives, with and without an origin and a bias region.
@Suite struct SampleSearchOracleTests {
  @Test func theSearchOfTheSampleFindsWhatScoringEveryPlaceFinds() throws {
    let index = try LoadedIndex(path: sampleIndexPath)
    #expect(index.places.count > 100)
    // Names, a name with its town, the town alone, and short prefixes of several words.
    let texts = [
      "Apotheke zum Löwen", "Gasthof Krone", "Sankt Quirin Bahnhof", "Raiffeisenbank Sankt",
      "Pizzeria", "Oberried", "Dorfladen Oberried", "Quirin", "s q b", "a z l", "g k", "Bühel",
      // Finished words that several names share.
      "Sankt ", "Quirin ", "Hoher ",
      // An address typed whole: the places there rank as names typed whole.
      "Hauptstraße 25", "Hauptstrasse 1",
    ]
    let village = Coordinate(latitude: 47.1852, longitude: 9.9001)
    let filters = [
      AutocompleteFilter(),
      AutocompleteFilter(origin: village),
      AutocompleteFilter(origin: Coordinate(latitude: 47.1905, longitude: 9.9124)),
      AutocompleteFilter(coordinateRegionBias: .circle(center: village, radiusMeters: 300)),
    ]
    let compared = try SearchOracleTests().compareWithEveryPlace(
      index, texts: texts, filters: filters)
    #expect(compared > 1000)
  }
}

/// The bounds a scan in rank order stops on hold to the last bit: it stops on a tie with the
/// worst place kept, so a bound a rounding below a score it bounds would drop a place that
/// belongs in the results.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct ScoreBoundTests {
  /// Seeded words and hits: no text score lies above the bound for what the driving word's
  /// postings tell of the place, and a place that reaches every part of a bound scores it to
  /// the bit.
  @Test func noTextScoreLiesAboveItsBoundAndOneThatReachesItEqualsIt() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let context = SearchContext(filter: AutocompleteFilter(), typeFilter: .any, limit: 10)
    var rng = SplitMix64(seed: 20_261_202)
    let parts: [PostingsPart] = [.name, .alternative, .context]
    var checked = 0
    var reached = 0
    for _ in 0..<4_000 {
      let count = 1 + rng.below(4)
      // One word in five no token starts with: it matches only within typo distance.
      let resolved = (0..<count).map { i in
        rng.below(5) == 0
          ? ResolvedToken(
            range: (10 * i)..<(10 * i), exact: nil, typos: [10 * i + 7], cost: 100,
            typedLength: 4 + rng.below(4))
          : ResolvedToken(
            range: (10 * i)..<(10 * i + 5), exact: rng.below(2) == 0 ? 10 * i : nil, typos: [],
            cost: 100, typedLength: 1 + rng.below(7))
      }
      let typoOnly = resolved.map(\.range.isEmpty)
      let candidates = try Candidates(index, resolved: resolved, drivers: [0], context: context)
      let scorer = try PlaceScorer(
        index, resolved: resolved, drivers: [0], missing: 0, context: context,
        candidates: candidates)
      for _ in 0..<8 {
        // Each word: a prefix or its whole token in one part, or a typo there.
        var hits: [WordHits] = resolved.map { word in
          let part = rng.element(of: parts)
          if word.range.isEmpty { return .typo(part) }
          switch rng.below(3) {
          case 0: return word.exact != nil ? [.range(part), .exact(part)] : .range(part)
          case 1: return .range(part)
          default: return .typo(part)
          }
        }
        var nameWords = 1 + rng.below(5)
        // One case in four: every word as its best match, the driving one perhaps only in the
        // context or only as a prefix, and the name's every other word typed.
        let best = rng.below(4) == 0
        let driverCase = rng.below(3)
        if best {
          for i in 1..<count {
            hits[i] =
              typoOnly[i]
              ? .typo(.name)
              : resolved[i].exact != nil ? [.range(.name), .exact(.name)] : .range(.name)
          }
          let part: PostingsPart = driverCase == 1 ? .context : .name
          hits[0] =
            typoOnly[0]
            ? .typo(part)
            : resolved[0].exact != nil && driverCase != 2
              ? [.range(part), .exact(part)] : .range(part)
          nameWords = driverCase == 1 ? max(1, count - 1) : count
        }
        guard
          let text = index.textScore(
            nameWordCount: nameWords, hits: hits, resolved, missing: 0)
        else { continue }
        let bound = scorer.textBound(
          name: !hits[0].isDisjoint(with: .inName),
          exactName: !hits[0].isDisjoint(with: .exactInName))
        #expect(text <= bound, "\(hits) in a name of \(nameWords) words")
        #expect(text <= scorer.maxText)
        checked += 1
        // With a typo-only word among several, the coverage bound takes the words' shares over
        // a name of one word, which no place of `count` words reaches: at most, then.
        if best && (count == 1 || !typoOnly.contains(true)) {
          #expect(text == bound, "\(hits) in a name of \(nameWords) words")
          reached += 1
        }
      }
    }
    #expect(checked > 10_000)
    #expect(reached > 2_000)
  }
}

/// The tokens a word lies inside, found in the decoded token text, against every token.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct TokenTextTests {
  @Test func findsTheTokensHoldingAWordPastTheirFirstByte() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var all: [[UInt8]] = []
    try index.tokens.forEach { _, t in all.append(t) }
    try #require(all.count > 1000)
    let text = try index.tokenText
    var random = SplitMix64(seed: 7)
    var found = 0
    for _ in 0..<300 {
      // A piece of a token (found at least there, unless it starts it), or random letters.
      let t = all[Int(random.next() % UInt64(all.count))]
      let start = Int(random.next() % UInt64(t.count))
      let length = 1 + Int(random.next() % UInt64(min(6, t.count - start)))
      let needle =
        random.next() % 4 == 0
        ? (0..<length).map { _ in UInt8(ascii: "a") + UInt8(random.next() % 26) }
        : Array(t[start..<(start + length)])
      let expected = all.indices.filter { id in
        let w = all[id]
        return w.count > needle.count
          && (1...(w.count - needle.count)).contains {
            w[$0..<($0 + needle.count)].elementsEqual(needle)
          }
      }
      #expect(text.tokens(holding: needle, limit: .max) == expected, "\(needle)")
      #expect(text.tokens(holding: needle, limit: 3) == Array(expected.prefix(3)))
      found += expected.count
    }
    #expect(found > 300)
  }
}

/// Where a word lies in a place comes from the postings alone (format 5.0): the merged driving
/// lists and the per-word hit maps must say the same, and say what the place's texts say.
@Suite(
  .enabled(if: TestPaths.sharedOSMAvailable, "needs ../shared/data/osm (set PLACEINDEX_SHARED)"))
struct WordHitsTests {
  /// Seeded prefixes of dictionary tokens, each with typo candidates when it has them.
  func words(_ index: LoadedIndex, count: Int, seed: UInt64) throws -> [ResolvedToken] {
    var all: [String] = []
    try index.tokens.forEach { _, t in all.append(String(decoding: t, as: UTF8.self)) }
    var random = SplitMix64(seed: seed)
    return try (0..<count).map { _ in
      let t = all[Int(random.next() % UInt64(all.count))]
      let cut = String(t.prefix(1 + Int(random.next() % UInt64(t.count))))
      return try index.resolve(cut, limit: 5)
    }
  }

  /// Merged through the heap (`windowFrom` never reached), by windows of ranks (from 0
  /// lists; of 64 ranks in a ring of two, so that the small index spans dozens), or each as
  /// it would be.
  @Test(arguments: [
    (Int.max, PostingsMerger.windowShift, 256), (0, PostingsMerger.windowShift, 256),
    (0, 6, 2), (PostingsMerger.windowFrom, PostingsMerger.windowShift, 256),
  ])
  func theMergedListsTellWhatTheHitMapTells(windowFrom: Int, windowShift: Int, ringSize: Int)
    throws
  {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var compared = 0
    var withTypos = 0
    for word in try words(index, count: 120, seed: 11) {
      let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
      var merger = try PostingsMerger(
        postings: index.postings, words: [word], windowFrom: windowFrom,
        windowShift: windowShift, ringSize: ringSize)
      var fromMerger: [Int: UInt16] = [:]
      while let rank = try merger.next() { fromMerger[rank] = merger.hits.rawValue }
      var fromMap: [Int: UInt16] = [:]
      for rank in 0..<index.places.count where map[rank] != [] {
        fromMap[rank] = map[rank].rawValue
      }
      #expect(fromMerger == fromMap)
      #expect(!fromMap.isEmpty)
      compared += fromMap.count
      if !word.typos.isEmpty { withTypos += 1 }
    }
    #expect(compared > 1000 && withTypos > 0)
  }

  /// What a place's tokens (TERMS) tell of a word is what the word's postings tell, for every
  /// place: the search checks the words after the driving one that way.
  @Test func thePlacesTokensTellWhatThePostingsTell() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var matched = 0
    var withTypos = 0
    var terms = PlaceTermRefs()
    let shared = try index.sharedTerms
    for word in try words(index, count: 60, seed: 41) {
      let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
      for rank in 0..<index.places.count {
        try index.terms.refs(of: rank, into: &terms)
        let hits = WordHits.of(word, in: terms, shared: shared)
        #expect(hits == map[rank], "rank \(rank)")
        if hits != [] { matched += 1 }
      }
      if !word.typos.isEmpty { withTypos += 1 }
    }
    #expect(matched > 1000 && withTypos > 0, "\(matched) matched, \(withTypos) with typos")
  }

  /// A merger asked for places in ascending order, far apart or next to each other (bitmap
  /// lists pass whole bytes), tells for each what the hit map tells.
  /// Through the heap, by windows of 64 ranks in a ring of one (the small index spans dozens),
  /// and as the search merges.
  @Test(arguments: [(Int.max, 6, 1), (0, 6, 1), (0, PostingsMerger.windowShift, 256)])
  func seekingPlacesInRankOrderTellsWhatTheHitMapTells(
    windowFrom: Int, windowShift: Int, ringSize: Int
  ) throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var random = SplitMix64(seed: 29)
    var hitsFound = 0
    var asked = 0
    for word in try words(index, count: 120, seed: 23) {
      let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
      var merger = try PostingsMerger(
        postings: index.postings, words: [word], windowFrom: windowFrom,
        windowShift: windowShift, ringSize: ringSize)
      var rank = random.below(8)
      while rank < index.places.count {
        let hits = try merger.hits(at: rank)
        #expect(hits == map[rank], "rank \(rank)")
        if hits != [] { hitsFound += 1 }
        asked += 1
        // Steps of 0 (the same place again) to a few thousand places (past a whole window).
        rank += random.below(40) == 0 ? 5_000 : [0, 1, 3, 9, 40, 300][random.below(6)]
      }
    }
    #expect(asked > 2_000 && hitsFound > 200, "\(asked) asked, \(hitsFound) found")
  }

  /// Reading on, seeking ahead and dropping the context lists part-way, the merge by windows
  /// gives the ranks and hits the merge through the heap gives: with the windows after the
  /// current one in a ring of one or two (most lists then wait in the heap past it) or of the
  /// default size.
  /// Windows of 64 ranks: the small index spans dozens.
  @Test(arguments: [1, 2, MergeWindows.ringSize])
  func theWindowedMergeReadsAsTheHeapMerge(ringSize: Int) throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    #expect(index.places.count > 16 << 6, "windows past a small ring")
    var random = SplitMix64(seed: 53)
    var read = 0
    var dropped = 0
    for word in try words(index, count: 120, seed: 61) {
      var heap = try PostingsMerger(postings: index.postings, words: [word], windowFrom: .max)
      var windows = try PostingsMerger(
        postings: index.postings, words: [word], windowFrom: 0, windowShift: 6, ringSize: ringSize)
      let dropAfter = random.below(20)
      var steps = 0
      var last = -1
      while true {
        if steps == dropAfter {
          heap.dropContextLists()
          windows.dropContextLists()
          if heap.droppedContextLists { dropped += 1 }
        }
        steps += 1
        if random.below(8) == 0 {
          // A seek a little ahead of the last rank read.
          let target = last + 1 + random.below(200)
          #expect(try heap.hits(at: target) == windows.hits(at: target), "seek \(target)")
        }
        let a = try heap.next()
        let b = try windows.next()
        #expect(a == b)
        guard let a, a == b else { break }
        #expect(heap.hits == windows.hits, "rank \(a)")
        last = a
        read += 1
      }
    }
    #expect(read > 1_000 && dropped > 10, "\(read) read, \(dropped) dropped")
  }

  /// A seek passes over the places before its target, unread where the lists allow: the next
  /// place is the first from the target on that the hit map holds, with its hits; seeks and
  /// plain reads interleaved, through the heap and by windows of 64 ranks (ring of one or as
  /// the search merges).
  @Test(arguments: [(Int.max, 6, 1), (0, 6, 1), (0, PostingsMerger.windowShift, 256)])
  func aSeekThenTheNextPlaceIsTheFirstFromItsTarget(
    windowFrom: Int, windowShift: Int, ringSize: Int
  ) throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var random = SplitMix64(seed: 71)
    var sought = 0
    var found = 0
    for word in try words(index, count: 300, seed: 73) {
      let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
      let ranks = (0..<index.places.count).filter { map[$0] != [] }
      var merger = try PostingsMerger(
        postings: index.postings, words: [word], windowFrom: windowFrom,
        windowShift: windowShift, ringSize: ringSize)
      var from = 0
      while true {
        if random.below(40) == 0 {
          // Past every place, as a filter whose word's names ended asks the next one.
          try merger.seek(to: .max)
          #expect(try merger.next() == nil, "after a seek past the end")
          sought += 1
          break
        }
        if random.below(3) == 0 {
          from += [0, 1, 7, 50, 700, 5_000][random.below(6)]
          try merger.seek(to: from)
          sought += 1
        }
        let expected = ranks.first { $0 >= from }
        let next = try merger.next()
        #expect(next == expected, "from \(from)")
        guard let next, next == expected else { break }
        #expect(merger.hits == map[next], "rank \(next)")
        found += 1
        from = next + 1
      }
    }
    #expect(sought > 500 && found > 1_000, "\(sought) seeks, \(found) found")
  }

  /// A word's filter tells, for places asked in ascending order, what the hit map tells, and
  /// the first place from each that carries the word; once its context lists are dropped
  /// (part-way, after a place was read ahead), the same of the names only. A word with typo
  /// candidates keeps its context lists.
  @Test func aWordsFilterTellsWhatTheHitMapTells() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let contextHits: WordHits = [.range(.context), .exact(.context), .typo(.context)]
    var random = SplitMix64(seed: 79)
    var asked = 0
    var namesOnly = 0
    var kept = 0
    for word in try words(index, count: 120, seed: 83) {
      let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
      var filter = try WordFilter(
        word: 0, resolved: word, postings: index.postings, contextText: 0)
      let dropAt = random.below(3) == 0 ? Int.max : random.below(index.places.count)
      var dropped = false
      var rank = 0
      while rank < index.places.count {
        if !dropped && rank >= dropAt {
          try filter.dropContextLists()
          dropped = true
          if filter.namesOnly { namesOnly += 1 } else { kept += 1 }
          #expect(filter.namesOnly == word.typos.isEmpty, "\(word.typos.count) typos")
        }
        func expected(_ r: Int) -> WordHits {
          filter.namesOnly ? map[r].subtracting(contextHits) : map[r]
        }
        let first = (rank..<index.places.count).first { expected($0) != [] } ?? .max
        if random.below(2) == 0 {
          #expect(try filter.first(from: rank) == first, "first from \(rank)")
        }
        #expect(try filter.hits(at: rank) == expected(rank), "rank \(rank)")
        asked += 1
        // Next to it, a little ahead, to the first place with hits or past it.
        switch random.below(4) {
        case 0: rank += 1
        case 1: rank += 1 + random.below(300)
        case 2: rank = first == .max ? .max : first
        default: rank = first == .max ? .max : first + 1
        }
      }
      // Past the end: nothing, however the list is read.
      #expect(try filter.first(from: .max) == .max)
    }
    #expect(asked > 2_000 && namesOnly > 20 && kept > 0, "\(asked) asked, \(namesOnly) names only")
  }

  /// Seeded: from any place on, ``WholeWordNames`` finds the first place whose primary or
  /// alternative names carry at least `need` of its tokens whole (each token one word), as
  /// counting every token's name lists tells; the tokens are those of a drawn place's name,
  /// so that places carry several of them.
  @Test func theWholeWordNamesAreThePlacesThatCarryEnoughOfTheWords() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    let shared = try index.sharedTerms
    var random = SplitMix64(seed: 97)
    var asked = 0
    var several = 0
    var found = 0
    for _ in 0..<200 {
      var terms = PlaceTermRefs()
      try index.terms.refs(of: random.below(index.places.count), into: &terms)
      var name: [Int] = []
      while let t = terms.nameToken(at: name.count, shared: shared) { name.append(t) }
      guard !name.isEmpty else { continue }
      // Up to four of the name's tokens, and now and then a token of another place.
      var tokens = (0..<(1 + random.below(min(4, name.count)))).map { _ in
        name[random.below(name.count)]
      }
      if random.below(4) == 0 { tokens.append(random.below(index.tokens.count)) }
      let need = 1 + random.below(tokens.count)
      if need > 1 { several += 1 }
      var carried = [Int](repeating: 0, count: index.places.count)
      for t in tokens {
        let lists = try index.postings.lists(t)
        for var c in [lists.name, lists.alternative] {
          while let p = try c.next() { carried[p] += 1 }
        }
      }
      var names = try #require(
        try WholeWordNames(postings: index.postings, tokens: tokens, need: need))
      var rank = random.below(4)
      while rank < index.places.count {
        let expected = (rank..<index.places.count).first { carried[$0] >= need }
        #expect(try names.first(from: rank) == expected, "\(tokens) need \(need) from \(rank)")
        asked += 1
        guard let expected else { break }
        found += 1
        // The place found again, the one after it, or a jump ahead.
        switch random.below(3) {
        case 0: rank = expected
        case 1: rank = expected + 1
        default: rank = expected + 1 + random.below(500)
        }
      }
    }
    #expect(
      asked > 500 && found > 300 && several > 20,
      "\(asked) asked, \(found) found, \(several) with two words or more needed")
  }

  /// Every word of a place's primary text that the index holds as a token lies in that place's
  /// name, as a whole token; sampled over the whole index.
  @Test func aPlacesNameWordsLieInItsName() throws {
    let index = try LoadedIndex(path: try helsinkiSearchIndex.get())
    var random = SplitMix64(seed: 3)
    var checked = 0
    for _ in 0..<150 {
      let rank = Int(random.next() % UInt64(index.places.count))
      let entry = try index.places.entry(rank)
      let primary = try index.strings.string(entry.primaryText)
      for token in Tokenizer.tokens(primary).map(\.text) where !token.isEmpty {
        let word = try index.resolve(token, limit: 5)
        guard word.exact != nil else { continue }
        let map = try PostingsHitMap(word, postings: index.postings, placeCount: index.places.count)
        #expect(map[rank].contains([.range(.name), .exact(.name)]), "\(primary): \(token)")
        checked += 1
      }
    }
    #expect(checked > 100)
  }
}

/// The query's words, cut at the cursor, and whether the last one is finished (kept for the
/// next keystrokes).
@Suite struct QueryPlanTests {
  @Test(
    arguments: [
      ("new york", nil, ["new", "york"], false),
      ("new york, ", nil, ["new", "york"], true),
      ("new york,", nil, ["new", "york"], true),
      ("new york, ny", 6, ["new", "yo"], false),
      ("new york, ny", 9, ["new", "york"], true),
      ("   ", nil, [], false),
    ] as [(String, Int?, [String], Bool)])
  func theLastWordIsFinishedWhenTheTextGoesOn(
    query: String, offset: Int?, words: [String], finished: Bool
  ) {
    let plan = QueryPlan(query: query, inputOffset: offset)
    #expect(plan.tokens == words)
    #expect(plan.lastIsFinished == finished)
  }
}
