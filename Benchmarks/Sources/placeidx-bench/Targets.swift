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
}

/// One request of a keystroke sequence: the first `length` characters of a target's text.
struct BenchRequest: Sendable {
  var target: Int
  var length: Int
  var query: String
  var origin: Coordinate?
}

enum TargetSampler {
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
        targets.append(Target(category: category, rank: rank, text: text, origin: origin))
      }
    }
    return targets
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
  /// first; the result always folds differently from the name.
  static func typo(_ name: String, _ rng: inout SeededRandom) -> String {
    let chars = Array(name)
    let folded = TextNormalizer.fold(name)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let positions = chars.indices.filter { $0 > 0 && chars[$0].isLetter }
    for _ in 0..<20 where !positions.isEmpty {
      var out = chars
      let pos = positions[rng.below(positions.count)]
      func letter(like c: Character) -> Character {
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
