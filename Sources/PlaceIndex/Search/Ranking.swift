import Foundation
import PlaceCore

/// Every setting of the search in one place: the weights of the ranking formula, the limits
/// that bound a request's work, and the rules that fold duplicates into one suggestion
/// (`docs/RANKING.md` explains each; `RankingDocumentTests` keeps the two in step).
///
/// A score is the sum of
/// - per typed word, the weight of the part of the place it lies in (``nameExact``,
///   ``namePrefix``, ``contextExact``, ``contextPrefix``), times ``alternativeName`` when it
///   lies only in an alternative name and times ``typoShare`` when only within typo distance
///   (a word still being typed and shorter than ``exactFromLetters`` counts as a prefix);
/// - ``coverage`` times the share of the name's words that the typed words matched (a typo
///   match counting ``typoShare`` of a word);
/// - ``wholeName`` when every word of the name was typed (``wholeNameMinimum`` letters at
///   least for one word), times ``typoShare`` when one of them needed a typo;
/// - or, for a place whose address was typed whole (``wholeAddress``), the text of a name
///   typed whole with ``wholeAddress`` in place of ``wholeName``, when that is more;
/// - ``importance`` times the place's importance (0…1);
/// - ``nearness`` times `exp(-distance / nearnessScale)` plus ``localNearness`` times
///   `exp(-distance / localNearnessScale)` from the origin or the bias region's
///   center (the whole of it inside the bias region);
/// - minus ``relaxedPenalty`` when one typed word is left unmatched.
///
/// ``violations`` lists the rules these settings must keep (signs, order); a test asserts it
/// is empty, so that a tuning change that breaks one fails at once.
/// `ScoreBreakdown` (`placeidx query --explain`) prints a result's score in these parts.
enum Ranking {
  // MARK: Text

  /// A typed word equal to a word of the primary name.
  static let nameExact = 3.0
  /// A typed word that is a prefix of a word of the primary name.
  static let namePrefix = 2.0
  /// A typed word equal to a word of the place's context (street, locality, admin areas).
  static let contextExact = 1.2
  /// A typed word that is a prefix of a word of the context.
  static let contextPrefix = 0.8
  /// Every word of the name typed: "Restaurant Weinstube" is that place, not
  /// "Hotel Restaurant Weinstube".
  static let wholeName = 1.5
  /// ``wholeName`` in its place when the first typed word lies whole in the name but the
  /// name's first word is another token: the name holds it inside a compound split off its
  /// street type ("Rütti" in the street "Rüttistrasse", beside the area "Rütti"), or the words
  /// came in another order ("Avenue A" and "2nd Avenue"). A name typed as it is written
  /// outranks one whose words the typed words only reach (``LoadedIndex/wholeNameBonus``).
  static let wholeNameOtherwise = 0.75
  /// Every typed word whole in the place, the last a number in its context (its house number)
  /// and the others in its name or context: "Bergstrasse 1" is the Rathaus at Bergstrasse 1,
  /// before the bare addresses Bergstrasse 12 and 175 that the number only starts. The words
  /// then score as a name typed whole, with this bonus instead of ``wholeName``: below a bare
  /// address of that very number, above those the number starts.
  static let wholeAddress = 0.75
  /// The most places the rarest typed word's whole token may hold over all shards for the
  /// addresses typed whole to be looked for (``wholeAddress``): every place that carries all
  /// the words is read, and a street name in every town of a country is too many.
  static let wholeAddressPlaces = 4096
  /// The typed words, all in the primary name, start it (its first word is a match of the
  /// first typed word) without covering it: "Lönn" is the start of "Lönnrotinkatu 16" and
  /// not of "Elias Lönnrot", "E" of "East 2nd Street" and not of "Lower East Side
  /// Preparatory High School" (Photon's prefix field on the whole name). At most the
  /// whole-name bonus, in whose place it is added, so that every bound that counts that
  /// bonus holds it too.
  static let nameStart = 1.5
  /// Letters a word still being typed (the last, with nothing after it) needs before it counts
  /// as a whole token: shorter, it counts as a prefix of the words it starts.
  static let exactFromLetters = 3
  /// Letters below which a one-word query still being typed starts the names its prefix starts
  /// (the name-start bonus), though it is a whole token too: "Har" starts "Harbor East" as
  /// much as "Har Sinai Church"; "rautatieasema" starts the station, not "Rautatieaseman
  /// Kauppakuja".
  static let startsNamesBelowLetters = 5
  /// Letters a one-word query needs before a name counts as typed whole.
  static let wholeNameMinimum = 3
  /// Scaled by the share of the name's words that the typed words matched: "Rivington"
  /// is more the street "Rivington Street" than the station "Allen St & Rivington St".
  static let coverage = 1.5
  /// A word found only in an alternative name (another language's, a former name) counts
  /// this share of a primary-name match: "Gamla kyrkan" finds Vanha kirkko, below places
  /// named so.
  static let alternativeName = 0.75
  /// A token found only within typo distance (or, for a word that matches nothing else, only
  /// inside a longer token) counts this share of a prefix match; in the coverage it counts this
  /// share of a word, and the whole-name bonus it earns is this share of the bonus.
  static let typoShare = 0.45

  // MARK: Importance and nearness

  /// Weight of the place's importance (stored as 0…65535 in the index).
  static let importance = 6.0
  /// The regional part of the nearness bonus at the focus: it falls to 1/e at
  /// ``nearnessScale``, so that of two towns with the same name the one 20 km away beats the
  /// one 200 km away.
  static let nearness = 5.0
  /// Distance, in meters, at which the regional nearness bonus falls to 1/e of its maximum.
  static let nearnessScale = 8_000.0
  /// The local part of the nearness bonus at the focus: it falls to 1/e at
  /// ``localNearnessScale``, so that within a city the café 300 m away beats the one 1.5 km
  /// away (the regional part alone moves from 4.82 to 4.15 over those 1.2 km).
  static let localNearness = 3.0
  /// Distance, in meters, at which the local nearness bonus falls to 1/e of its maximum.
  static let localNearnessScale = 2_000.0
  /// The nearness bonus at the focus: both parts whole.
  static let maxNearness = nearness + localNearness
  /// What a place inside a bias region earns beyond ``maxNearness``: the region says where
  /// the user looks, so a hotel there found by its kind alone ("hotel": a context word, 1.2)
  /// comes before hotels named "Hotel …" a few hundred meters outside it (5.25 for the name
  /// and its start, less nearness). Not so much that a place inside found by a context word
  /// passes one named by every typed word outside (a rule below).
  static let insideBias = 3.0
  /// The nearness bonus everywhere inside a bias region.
  static let biasNearness = maxNearness + insideBias

  /// The most nearness any place can earn with `filter`: ``biasNearness`` with a bias region,
  /// else ``maxNearness`` with an origin, else 0.
  static func mostNearness(_ filter: AutocompleteFilter) -> Double {
    filter.coordinateRegionBias != nil ? biasNearness : filter.origin != nil ? maxNearness : 0
  }

  /// The nearness bonus of a place `distance` meters from the focus: both parts, falling
  /// with the distance (every bound of the search takes it at the least distance a place can
  /// lie at, as it only falls).
  @inline(__always)
  static func nearness(distance: Double) -> Double {
    guard distance < nearnessReach else { return 0 }
    return nearness * exp(-distance / nearnessScale)
      + localNearness * exp(-distance / localNearnessScale)
  }
  /// Distance, in meters, from which the nearness bonus is 0: there it is below 3e-16 (the
  /// regional part 5.0 × exp(−37.5)), less than a rounding of any score, so that places
  /// farther away tie on it, and a search that has read its rings that far knows that every
  /// place it has not seen earns nothing for nearness (``nearRingRadii`` ends there).
  static let nearnessReach = 300_000.0

  // MARK: The relaxed pass (every word but one)

  /// A relaxed match sorts after every full match: its score is lowered by this much.
  static let relaxedPenalty = 100.0
  /// ``relaxedPenalty`` exceeds the best score of a full match of up to this many words.
  static let relaxedOrderWords = 24
  /// The most postings the relaxed pass reads (over its two driving words).
  static let relaxedBudget = 256

  // MARK: Typos and words inside words

  /// Edits allowed for a typed word of `length` letters (Unicode scalars): 1 from 4, 2 from 9.
  static func allowedEdits(length: Int) -> Int {
    length >= typoTwoEditsFrom ? 2 : length >= typoOneEditFrom ? 1 : 0
  }
  /// Letters a word needs for one edit.
  static let typoOneEditFrom = 4
  /// Letters a word needs for two edits.
  static let typoTwoEditsFrom = 9
  /// Letters a word needs before its edit may match the start of a longer token; shorter, it
  /// matches whole tokens within the edit only ("noth" is "north", "roda" "road"; "schb" is
  /// not the start of every token of "sch").
  static let typoPrefixFrom = 5

  /// Whether a word (as the typo walk reads it, ``TypoWalk/units(_:)``) matches within its
  /// edits only as a whole token: a word of letters shorter than ``typoPrefixFrom`` (a word
  /// written in syllables counts them otherwise, ``allowedEdits(scalars:)``).
  static func typoMatchesWholeTokens(_ units: [UInt32]) -> Bool {
    units.count < typoPrefixFrom && !units.allSatisfy(isSyllable)
  }

  /// Edits allowed for a typed word given as its scalar values. A word written in syllables
  /// (every scalar Han, Kana or Hangul: ``isSyllable(_:)``) counts its characters as
  /// syllables, each as much of the word as two or three letters are: 1 edit from 3, 2 from
  /// 6 (a kana's voiced mark, a scalar apart once folded, is part of its syllable). Any other
  /// word counts letters (``allowedEdits(length:)``).
  ///
  /// Two syllables get none: with the first character kept, one edit of a word of two
  /// matches every token that starts with its first character.
  static func allowedEdits(scalars: [UInt32]) -> Int {
    // A voiced kana as the typo walk reads it (``TypoWalk/units(_:)``) is its kana.
    guard !scalars.isEmpty, scalars.allSatisfy({ isSyllable($0 & 0x3F_FFFF) }) else {
      return allowedEdits(length: scalars.count)
    }
    // A voiced or semi-voiced mark (folding splits ガ into カ and U+3099) is part of its kana.
    let n = scalars.count(where: { $0 != 0x3099 && $0 != 0x309A })
    return n >= syllableTypoTwoEditsFrom ? 2 : n >= syllableTypoOneEditFrom ? 1 : 0
  }
  /// Syllables (Han, Kana or Hangul characters) a word of them needs for one edit.
  static let syllableTypoOneEditFrom = 3
  /// Syllables a word of them needs for two edits.
  static let syllableTypoTwoEditsFrom = 6

  /// Whether a scalar is a character that carries a syllable (or a word): Han (the unified
  /// ideographs and their extensions, the compatibility ideographs, 々 and 〇), Hiragana and
  /// Katakana (with the length mark and the half-width forms), Hangul syllables and jamo.
  static func isSyllable(_ v: UInt32) -> Bool {
    guard let s = Unicode.Scalar(v) else { return false }
    // Han and Kana as the builder spells them (EastAsianSpelling); 々 repeats the ideograph
    // before it; Hangul syllables and jamo.
    return v == 0x3005 || EastAsianSpelling.isHan(s) || EastAsianSpelling.isKana(s)
      || LatinTransliteration.isHangul(s) || v &- 0x1100 < 0x100 || v &- 0x3130 < 0x60
  }
  /// A word looks for typo candidates only when its tokens as typed hold fewer places than
  /// this many times the result limit.
  static let typoWhenFewerThanLimits = 2
  /// The most typo candidates one typed word gathers.
  static let maxTypoCandidates = 256
  /// The fewest letters a word needs before it is looked for inside longer tokens.
  static let infixMinimum = 4
  /// The most tokens one typed word gathers by lying inside them.
  static let maxInfixCandidates = 256

  // MARK: Reading from both ends (a focus: origin or bias)

  /// Radii of the rings read around the focus, in meters.
  static let ringRadii: [Double] = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000]
  /// Radii of the rings read after ``ringRadii`` when NEAR LISTS give the driving word's
  /// places (a ring then reads those alone), in meters.
  static let nearRingRadii: [Double] = [64_000, 128_000, nearnessReach]
  /// Most places in a ring: this many, or when the driving word's postings hold more than
  /// ``ringShare`` times as many, that share of them. A ring of more ends the rings: reading
  /// it (each place's tokens) would cost more than the postings it may spare. Where one word
  /// matches places all over a large index ("s"), the rings around the focus are what end
  /// the scan, and they hold as many places as in a small one.
  static let ringPlaces = 4096
  /// See ``ringPlaces``.
  static let ringShare = 8
  /// With NEAR LISTS, the rings hold the driving word's places around the focus alone; the
  /// word's places that no list holds (its tokens of few places) are scored before the rings
  /// when they are at most this many. More, and the rings read every place around the focus.
  static let nearOtherPlaces = 512
  /// At most this many places whose name carries the typed word whole are read first.
  static let exactNamesFirst = 64
  /// The places whose name carries the driving word whole are read ahead (the last of them
  /// tightens the bound of the scan in rank order) only when they are at most this many.
  static let exactNamesRead = 1024
  /// Typed words with a whole token up to which a scan that reads only the places whose
  /// names carry some of them whole works out how many they must carry (over every choice
  /// of them: 2^n bounds); past it, one.
  static let wholeWordChoicesUpTo = 6
  /// Places a scan in rank order scores from their tokens (TERMS) before the other words'
  /// postings are read as filters beside it (``PlaceScorer``): a search that ends sooner
  /// does not pay for opening them.
  static let filterAfter = 64
  /// A word's postings filter the candidates only when they hold at most this many times as
  /// many places as the candidates' postings: reading them forward costs about that many
  /// postings per candidate, against one place's tokens.
  static let filterRatio = 32
  /// Records a scan in rank order reads before it turns to reading from both ends.
  static let nearFirstAfter = 16
  /// The search reads from both ends only when the driving words' postings hold more than
  /// this many places; fewer, and the scan in rank order reads them all and ends by itself.
  static let nearFirstMinimumCost = 256

  // MARK: Results

  /// Each index of a client finds this many times the requested results, so that duplicates
  /// folded away still leave a full page.
  static let candidatesPerResult = 2
  /// How deep the search goes again when folding duplicates left fewer than the requested
  /// results from a full first search (a station of many nodes).
  static let candidatesPerResultWhenShort = 8

  /// Primary types that say no more than "a place", "an address" or "a building": such a
  /// result is one with a same-named result of any type close by.
  static let genericTypes: Set<String> = [
    "point_of_interest", "establishment", "street_address", "premise",
  ]

  /// How far apart, in meters, two places with the same name and primary type may be and
  /// still be one place (a town as node and boundary, a street in pieces, a shop as node and
  /// building).
  static func duplicateRadius(primaryType: String) -> Double {
    switch primaryType {
    case "country", "administrative_area_level_1", "administrative_area_level_2": 100_000
    case "locality", "administrative_area_level_3", "postal_town": 10_000
    case "sublocality", "neighborhood", "route": 2_000
    default: 150
    }
  }

  /// Whether two places with the same name, of primary types `a` and `b`, `distance` meters
  /// apart are one: the same type within ``duplicateRadius(primaryType:)``, or one of them of
  /// a generic type within the default 150 m (the untyped grounds of a named bank; an address
  /// point inside the building of the same address).
  static func areDuplicates(_ a: String, _ b: String, distance: Double) -> Bool {
    if a == b { return distance < duplicateRadius(primaryType: a) }
    return (genericTypes.contains(a) || genericTypes.contains(b))
      && distance < duplicateRadius(primaryType: "")
  }

  /// Primary types of public transport stops and stations. One named like a place found with
  /// it (the street, square or building it serves) is shown after that place; the nodes of one
  /// station (its entrances, each line's stop) are one.
  static let transitTypes: Set<String> = [
    "bus_stop", "tram_stop", "transit_stop", "bus_station", "subway_station", "train_station",
    "light_rail_station", "transit_station", "ferry_terminal",
  ]

  /// The stops among ``transitTypes``: one found with a station (any other transit type but a
  /// ferry terminal) closer than ``stopNearStationRadius`` is shown after it, whatever their
  /// names ("Rautatieasema (M)", the tram stop, after the central station named "Helsinki").
  static let stopTypes: Set<String> = ["bus_stop", "tram_stop", "transit_stop"]
  /// See ``stopTypes``.
  static let stopNearStationRadius = 400.0

  /// Words that say "a station" or "a stop" in a stop's or station's name ("Metro Helsingin
  /// yliopisto", "Bahnhof Schaan"), folded: two of them close together whose names are the
  /// same without these words are one station (``stationRadius(_:)``).
  static let stationWords: Set<String> = [
    "metro", "subway", "station", "stop", "tram", "bus", "asema", "metroasema", "pysakki",
    "bahnhof", "haltestelle", "hbf", "gare", "stazione", "estacion", "estacao", "mrt", "lrt",
  ]

  /// How far, in meters, a place may lie from a stop or station named like it for the stop to
  /// be named after it.
  static let namedAfterRadius = 2_000.0

  /// How far, in meters, a neighbourhood may lie from a point of interest of its name for it
  /// to be that place's grounds ("Schloss Vaduz" the neighbourhood around the castle), shown
  /// after it.
  static let groundsRadius = 300.0

  /// How far apart, in meters, two places of one name and one address (the same secondary
  /// text) may be and still be one, whatever their types: a shop mapped twice, as a drugstore
  /// and as a pharmacy.
  static let sameAddressRadius = 50.0

  /// How far apart, in meters, two stops or stations of one name may be and still be one:
  /// farther for the same type (a station's entrances and lines) than for two types (a
  /// station and the tram stop outside it).
  static func stationRadius(_ sameType: Bool) -> Double {
    sameType ? 400 : duplicateRadius(primaryType: "")
  }

  // MARK: Rules

  /// The best score a full match of `words` typed words can reach.
  static func bestScore(words: Int) -> Double {
    Double(words) * nameExact + coverage + wholeName + importance + biasNearness
  }

  /// The rules the settings keep, each with whether it holds; ``violations`` names the broken
  /// ones.
  static var rules: [(rule: String, holds: Bool)] {
    [
      (
        "every weight is positive",
        [
          nameExact, namePrefix, contextExact, contextPrefix, wholeName, coverage, importance,
          nearness, nearnessScale, localNearness, localNearnessScale, insideBias, relaxedPenalty,
        ].allSatisfy { $0 > 0 }
      ),
      (
        "a whole word outweighs a prefix, in the name and in the context",
        nameExact > namePrefix && contextExact > contextPrefix
      ),
      ("the name outweighs the context", namePrefix > contextExact),
      ("an address typed whole ranks below a name typed whole", wholeAddress < wholeName),
      (
        "an alternative name counts less than the primary one, but something",
        alternativeName > 0 && alternativeName < 1
      ),
      (
        "a typo counts less than the word as typed, even in the context",
        typoShare > 0 && typoShare * namePrefix < contextExact
      ),
      (
        "a relaxed match sorts after every full match of up to \(relaxedOrderWords) words",
        relaxedPenalty > bestScore(words: relaxedOrderWords)
      ),
      (
        "a station's nodes of one type lie farther apart than a station and a stop",
        stationRadius(true) >= stationRadius(false) && namedAfterRadius > 0
      ),
      (
        "two edits need a longer word than one, in letters and in syllables; an edit at the"
          + " start of a longer token needs more letters than one on a whole token",
        typoTwoEditsFrom > typoOneEditFrom && syllableTypoTwoEditsFrom > syllableTypoOneEditFrom
          && typoPrefixFrom > typoOneEditFrom && typoPrefixFrom <= typoTwoEditsFrom
      ),
      (
        "a word of syllables needs fewer of them than a word of letters needs letters, and more"
          + " than two (one edit of two, the first kept, matches every word of the first)",
        syllableTypoOneEditFrom > 2 && syllableTypoOneEditFrom < typoOneEditFrom
          && syllableTypoTwoEditsFrom < typoTwoEditsFrom
      ),
      (
        "inside a bias region a place found by a context word gains on those outside, but does"
          + " not pass a one-word name typed whole at the region's edge",
        insideBias > 0 && contextExact + insideBias < nameExact + coverage + wholeName
      ),
      (
        "a name typed otherwise than it is written earns less of the whole-name bonus, and"
          + " every bound counts the whole bonus",
        wholeNameOtherwise >= 0 && wholeNameOtherwise <= wholeName
      ),
      (
        "the name-start bonus counts, and no more than the whole-name bonus (which every bound"
          + " counts in its place)",
        nameStart > 0 && nameStart <= wholeName
      ),
      (
        "the local nearness falls faster than the regional one",
        localNearnessScale < nearnessScale
      ),
      (
        "the nearness ends where it is below a rounding of a score, and the rings reach there",
        nearness(distance: nearnessReach) == 0 && nearness(distance: nearnessReach - 1) < 1e-15
          && nearRingRadii.last == nearnessReach
      ),
      (
        "rings grow outward",
        zip(ringRadii + nearRingRadii, (ringRadii + nearRingRadii).dropFirst()).allSatisfy {
          $0 < $1
        }
      ),
      (
        "the whole-word places read first are among those read ahead",
        exactNamesFirst <= exactNamesRead
      ),
      (
        "work limits are positive",
        [
          wholeNameMinimum, relaxedBudget, maxTypoCandidates, infixMinimum,
          maxInfixCandidates, ringPlaces, ringShare, exactNamesFirst, exactNamesRead,
          nearFirstAfter, nearOtherPlaces, wholeWordChoicesUpTo,
          nearFirstMinimumCost,
          candidatesPerResult, candidatesPerResultWhenShort, typoWhenFewerThanLimits,
        ].allSatisfy { $0 > 0 }
      ),
      (
        "a generic duplicate lies within the smallest radius",
        duplicateRadius(primaryType: "") <= duplicateRadius(primaryType: "route")
      ),
    ]
  }

  /// The rules that the settings break (empty when they keep them all).
  static var violations: [String] { rules.filter { !$0.holds }.map(\.rule) }
}
