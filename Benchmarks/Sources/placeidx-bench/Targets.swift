import Foundation
import PlaceCore

/// The kinds of target the harness draws from each extract.
enum Category: String, CaseIterable, Codable, Sendable {
  case poi
  case address
  case place
  case street
  case typo

  var title: String {
    switch self {
    case .poi: "named POIs"
    case .address: "addresses"
    case .place: "place nodes and areas"
    case .street: "streets"
    case .typo: "typo variants"
    }
  }

  /// Primary types of settlements, areas and other `place=*` features.
  static let placeTypes: Set<String> = [
    "country", "administrative_area_level_1", "administrative_area_level_2",
    "administrative_area_level_3", "administrative_area_level_4", "administrative_area_level_5",
    "administrative_area_level_6", "administrative_area_level_7", "locality", "sublocality",
    "sublocality_level_1", "sublocality_level_2", "sublocality_level_3", "sublocality_level_4",
    "sublocality_level_5", "neighborhood", "postal_town", "colloquial_area", "island",
    "archipelago", "plaza",
  ]

  /// The base category of a place (never `.typo`), or nil for places of none. A POI without a
  /// name of its own (shown by its street address) is not a named POI.
  static func of(_ p: CorpusPlace) -> Category? {
    let primary = p.types.first ?? ""
    guard p.name.contains(where: \.isLetter) else { return nil }
    if primary == "route" { return .street }
    if primary == "street_address" || primary == "premise" || primary == "subpremise" {
      return p.hasStreetNumber && p.name.contains(where: \.isNumber) ? .address : nil
    }
    if placeTypes.contains(primary) { return .place }
    if p.types.contains("establishment") && !p.nameIsStreetAddress { return .poi }
    return nil
  }
}

/// The half of the targets a target belongs to: peers are tuned on the tuning half only, and
/// every quality figure is also reported on the held-out half.
enum TargetHalf: String, Codable, Sendable, CaseIterable {
  case tuning
  case heldOut = "held-out"

  /// The half of a target, from a hash of the run's seed and the target (category, place ID,
  /// text): stable across runs with the same seed, independent of the other targets.
  static func of(seed: UInt64, category: Category, placeID: String, text: String) -> TargetHalf {
    let h = fnv1a("\(seed)|\(category.rawValue)|\(placeID)|\(text)")
    return (h >> 29) & 1 == 0 ? .tuning : .heldOut
  }
}

/// One place to find, the text a user types for it, and where the user is.
struct Target: Sendable {
  var category: Category
  /// The place's rank in the corpus.
  var rank: Int
  /// The full text typed.
  var text: String
  /// The request's origin (near the target) for half of the targets; nil for the others.
  var origin: Coordinate?
  /// The tuning or the held-out half (set by the harness: `TargetHalf.of`).
  var half: TargetHalf = .tuning
  /// The script most of the text's letters are written in (`Script.of`).
  var script: Script = .latin
}

/// The writing system of a target's text, by its letters' Unicode blocks: typo variants are
/// reported per script (Latin and the others apart).
enum Script: String, Codable, Sendable, CaseIterable {
  case latin = "Latin"
  case cyrillic = "Cyrillic"
  case greek = "Greek"
  case armenian = "Armenian"
  case hebrew = "Hebrew"
  case arabic = "Arabic"
  case devanagari = "Devanagari"
  case tamil = "Tamil"
  case thai = "Thai"
  case georgian = "Georgian"
  case hangul = "Hangul"
  case kana = "Kana"
  case han = "Han"
  case other = "other"

  /// The script of one scalar, nil for what is not a letter of a script (digits, spaces,
  /// punctuation).
  static func of(_ s: Unicode.Scalar) -> Script? {
    guard s.properties.isAlphabetic else { return nil }
    switch s.value {
    case 0..<0x250, 0x1E00..<0x1F00: return .latin
    case 0x370..<0x400, 0x1F00..<0x2000: return .greek
    case 0x400..<0x530: return .cyrillic
    case 0x530..<0x590: return .armenian
    case 0x590..<0x600: return .hebrew
    case 0x600..<0x700, 0x750..<0x780, 0xFB50..<0xFE00, 0xFE70..<0xFF00: return .arabic
    case 0x900..<0x980: return .devanagari
    case 0xB80..<0xC00: return .tamil
    case 0xE00..<0xE80: return .thai
    case 0x10A0..<0x1100: return .georgian
    case 0x1100..<0x1200, 0x3130..<0x3190, 0xAC00..<0xD7B0: return .hangul
    case 0x3040..<0x3100, 0x31F0..<0x3200, 0xFF66..<0xFFA0: return .kana
    case 0x3400..<0x4DC0, 0x4E00..<0xA000, 0xF900..<0xFB00, 0x20000..<0x32000: return .han
    default: return .other
    }
  }

  /// The script most of the letters of `text` are written in (Kana over Han where a Japanese
  /// name mixes them); Latin for a text without letters.
  static func of(_ text: String) -> Script {
    var counts: [Script: Int] = [:]
    for s in text.unicodeScalars {
      if let script = of(s) { counts[script, default: 0] += 1 }
    }
    if counts[.kana] != nil { return .kana }
    return counts.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key ?? .latin
  }

  /// Letters of this script a typo draws from (lower case for the bicameral ones); nil for
  /// Latin (the ASCII letters) and for scripts without a table.
  var typoLetters: ClosedRange<UInt32>? {
    switch self {
    case .latin, .other: nil
    case .cyrillic: 0x430...0x44F
    case .greek: 0x3B1...0x3C9
    case .armenian: 0x561...0x586
    case .hebrew: 0x5D0...0x5EA
    case .arabic: 0x628...0x64A
    case .devanagari: 0x915...0x939
    case .tamil: 0xB95...0xBB9
    case .thai: 0xE01...0xE2E
    case .georgian: 0x10D0...0x10F0
    case .hangul: 0xAC00...0xD7A3
    case .kana: 0x30A2...0x30F3
    case .han: 0x4E00...0x9FA5
    }
  }

  /// Whether each letter is a syllable or word (fewer letters make a name).
  var isSyllabic: Bool { self == .hangul || self == .kana || self == .han }
}

/// One request of a keystroke sequence: the first `length` characters of a target's text.
struct BenchRequest: Sendable {
  var target: Int
  var length: Int
  var query: String
  var origin: Coordinate?
}

enum TargetSampler {
  /// The targets of a bench run on extract `file`: drawn with the run's `seed` mixed with the
  /// file's name, each given its half (``TargetHalf/of(seed:category:placeID:text:)``).
  static func draw(_ corpus: Corpus, extract file: String, seed: UInt64, perCategory: Int)
    -> [Target]
  {
    var targets = sample(
      corpus, perCategory: perCategory, seed: seed ^ fnv1a((file as NSString).lastPathComponent))
    for i in targets.indices {
      let t = targets[i]
      targets[i].half = TargetHalf.of(
        seed: seed, category: t.category, placeID: corpus.places[t.rank].placeID, text: t.text)
    }
    return targets
  }

  /// Draws `perCategory` targets of each category from `corpus`, with `seed`.
  static func sample(_ corpus: Corpus, perCategory: Int, seed: UInt64) -> [Target] {
    var rng = SeededRandom(seed: seed)
    var pools = basePools(corpus)
    var typoPool: [Int] = []
    for c in [Category.poi, .place, .street] {
      for r in pools[c] ?? [] where corpus.places[r].name.filter(\.isLetter).count >= 6 {
        typoPool.append(r)
      }
    }
    typoPool.sort()
    pools[.typo] = typoPool
    // Names in another script than the place's display name's (its `name:zh`, `name:ta`, …),
    // drawn apart with a stream of their own so that the draw of the other targets stays
    // what it was.
    var otherPool: [(rank: Int, name: String)] = []
    for c in [Category.poi, .place, .street] {
      for r in pools[c] ?? [] {
        for name in corpus.places[r].otherScriptNames where isTypoCandidate(name) {
          otherPool.append((r, name))
        }
      }
    }
    otherPool.sort { ($0.rank, $0.name) < ($1.rank, $1.name) }

    var targets: [Target] = []
    for category in Category.allCases {
      let drawn = rng.sample(pools[category] ?? [], perCategory)
      for (i, rank) in drawn.enumerated() {
        let p = corpus.places[rank]
        let text: String
        if category == .typo {
          text = typo(p.name, &rng)
        } else {
          text = Self.text(p, as: category)
        }
        // Every other target gets an origin 100 to 1 500 m from the place.
        let origin = i % 2 == 0 ? near(p.coordinate, &rng) : nil
        targets.append(
          Target(
            category: category, rank: rank, text: text, origin: origin, script: Script.of(text)))
      }
    }
    var otherRNG = SeededRandom(seed: seed ^ 0x5C81_7703_0000_0017)
    for (i, k) in otherRNG.sample(Array(otherPool.indices), perCategory).enumerated() {
      let (rank, name) = otherPool[k]
      let text = typo(name, &otherRNG)
      let origin = i % 2 == 0 ? near(corpus.places[rank].coordinate, &otherRNG) : nil
      targets.append(
        Target(
          category: .typo, rank: rank, text: text, origin: origin, script: Script.of(text)))
    }
    return targets
  }

  /// Whether a name in another script is long enough for a typo variant: 6 letters, or 4 in
  /// a script whose letters are syllables (Han, Kana, Hangul).
  static func isTypoCandidate(_ name: String) -> Bool {
    let script = Script.of(name)
    guard script != .latin else { return false }
    return name.filter(\.isLetter).count >= (script.isSyllabic ? 4 : 6)
  }

  /// The ranks of the places of each base category (every category but `.typo`).
  static func basePools(_ corpus: Corpus) -> [Category: [Int]] {
    var pools: [Category: [Int]] = [:]
    for p in corpus.places {
      if let c = Category.of(p) { pools[c, default: []].append(p.rank) }
    }
    return pools
  }

  /// The text a user types for `p` as a target of base category `category`.
  static func text(_ p: CorpusPlace, as category: Category) -> String {
    category == .address ? addressText(p) : p.name
  }

  /// An address as typed in the local convention: the formatted address without the country.
  static func addressText(_ p: CorpusPlace) -> String {
    var text = p.formattedAddress
    if !p.country.isEmpty, text.hasSuffix(", " + p.country) {
      text = String(text.dropLast(p.country.count + 2))
    }
    return text
  }

  /// One edit (substitution, deletion, insertion or transposition) of a letter other than the
  /// first; the result always folds differently from the name. A letter put in is of the
  /// script of the one it replaces or stands before (`Script.typoLetters`), ASCII for Latin.
  static func typo(_ name: String, _ rng: inout SeededRandom) -> String {
    let chars = Array(name)
    let folded = TextNormalizer.fold(name)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let positions = chars.indices.filter { $0 > 0 && chars[$0].isLetter }
    for _ in 0..<20 where !positions.isEmpty {
      var out = chars
      let pos = positions[rng.below(positions.count)]
      func letter(like c: Character) -> Character {
        if let first = c.unicodeScalars.first, let range = Script.of(first)?.typoLetters {
          let count = Int(range.upperBound - range.lowerBound) + 1
          while true {
            let v = range.lowerBound + UInt32(rng.below(count))
            if let s = Unicode.Scalar(v), s.properties.isAlphabetic,
              TextNormalizer.fold(String(s)) != TextNormalizer.fold(String(c))
            {
              return Character(s)
            }
          }
        }
        var l = letters[rng.below(letters.count)]
        while String(l) == TextNormalizer.fold(String(c)) { l = letters[rng.below(letters.count)] }
        return c.isUppercase ? Character(l.uppercased()) : l
      }
      switch rng.below(4) {
      case 0: out[pos] = letter(like: chars[pos])
      case 1: out.remove(at: pos)
      case 2: out.insert(letter(like: chars[pos]), at: pos)
      default:
        if pos + 1 < out.count, out[pos + 1].isLetter, out[pos] != out[pos + 1] {
          out.swapAt(pos, pos + 1)
        } else {
          out[pos] = letter(like: chars[pos])
        }
      }
      let typo = String(out)
      if TextNormalizer.fold(typo) != folded { return typo }
    }
    return name
  }

  /// A point 100 to 1 500 m from `c` in a random direction.
  static func near(_ c: Coordinate, _ rng: inout SeededRandom) -> Coordinate {
    let d = 100 + 1_400 * rng.unit()
    let bearing = 2 * Double.pi * rng.unit()
    let dLat = d * cos(bearing) / 111_320
    let dLon = d * sin(bearing) / (111_320 * max(0.01, cos(c.latitude * .pi / 180)))
    return Coordinate(
      latitude: min(90, max(-90, c.latitude + dLat)),
      longitude: min(180, max(-180, c.longitude + dLon)))
  }

  /// Every prefix of every target's text (by characters), in order.
  static func keystrokes(_ targets: [Target]) -> [BenchRequest] {
    var out: [BenchRequest] = []
    for (i, t) in targets.enumerated() {
      let chars = Array(t.text)
      guard !chars.isEmpty else { continue }
      for n in 1...chars.count {
        out.append(
          BenchRequest(target: i, length: n, query: String(chars[0..<n]), origin: t.origin))
      }
    }
    return out
  }
}
