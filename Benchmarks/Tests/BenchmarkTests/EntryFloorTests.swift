import Testing

@testable import placeidx_bench

/// The chars-to-top-5 floors against brute force on small seeded sets of texts.
@Suite struct EntryFloorTests {
  /// Sets of 1 to `maxCount` distinct texts of 1 to 5 letters over `alphabet`, from `seed`.
  static func textSets(seed: UInt64, sets: Int, maxCount: Int, alphabet: String) -> [[String]] {
    var rng = SeededRandom(seed: seed)
    let letters = Array(alphabet)
    return (0..<sets).map { _ in
      var texts = Set<String>()
      for _ in 0..<(1 + rng.below(maxCount)) {
        texts.insert(String((0...rng.below(5)).map { _ in letters[rng.below(letters.count)] }))
      }
      return texts.sorted()
    }
  }

  /// The least sum of entry lengths over every way to give each text one of its prefixes, at
  /// most `slots` texts per prefix.
  static func bruteForceCost(_ texts: [String], slots: Int = 5) -> Int {
    var best = Int.max
    var perPrefix: [Substring: Int] = [:]
    func go(_ i: Int, _ cost: Int) {
      if cost >= best { return }
      if i == texts.count {
        best = cost
        return
      }
      let t = texts[i]
      for length in 1...t.count {
        let p = t.prefix(length)
        if perPrefix[p, default: 0] < slots {
          perPrefix[p, default: 0] += 1
          go(i + 1, cost + length)
          perPrefix[p, default: 0] -= 1
        }
      }
    }
    go(0, 0)
    return best
  }

  /// Mean entry length when the top 5 of each prefix are its 5 first texts in `order`, a text
  /// that never enters counted at its full length; and how many never enter.
  static func stableOrderMean(_ texts: [String], order: [String]) -> (Double, Int) {
    let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    var sum = 0
    var never = 0
    for t in texts {
      var entry = t.count
      var entered = false
      for length in 1...t.count {
        let p = t.prefix(length)
        let top = texts.filter { $0.hasPrefix(p) }.sorted { position[$0]! < position[$1]! }
          .prefix(5)
        if top.contains(t) {
          entry = length
          entered = true
          break
        }
      }
      if !entered { never += 1 }
      sum += entry
    }
    return (Double(sum) / Double(texts.count), never)
  }

  @Test func sixTextsBehindOneLetterNeedOneMoreForTheSixth() throws {
    let texts = ["aa", "ab", "ac", "ad", "ae", "af"]
    let floor = try #require(EntryFloor(texts))
    #expect(floor.anyOrder == 7.0 / 6.0)
    #expect(floor.stableOrder == 7.0 / 6.0)
    #expect(EntryFloor([]) == nil)
    #expect(EntryFloor(["", ""]) == nil)
  }

  @Test func anyOrderFloorIsTheBruteForceOptimum() throws {
    let sets = Self.textSets(seed: 7, sets: 300, maxCount: 9, alphabet: "ab")
    #expect(sets.contains { $0.count >= 7 })
    for texts in sets {
      let floor = try #require(EntryFloor(texts)).anyOrder
      let best = Double(Self.bruteForceCost(texts)) / Double(texts.count)
      #expect(abs(floor - best) < 1e-9, "\(texts)")
    }
  }

  @Test func noStableOrderBeatsEitherFloor() throws {
    var rng = SeededRandom(seed: 11)
    let sets = Self.textSets(seed: 13, sets: 200, maxCount: 40, alphabet: "ab")
    var attained = 0
    var aboveAnyOrder = 0
    for texts in sets {
      let floor = try #require(EntryFloor(texts))
      let (stable, any) = (floor.stableOrder, floor.anyOrder)
      for _ in 0..<4 {
        let order = rng.sample(texts, texts.count)
        let (mean, never) = Self.stableOrderMean(texts, order: order)
        #expect(mean >= stable - 1e-9, "\(texts) in order \(order)")
        // The any-order floor has every text enter; compare orders that do the same.
        if never == 0 {
          #expect(mean >= any - 1e-9, "\(texts) in order \(order)")
          if mean > any + 1e-9 { aboveAnyOrder += 1 }
        }
        if abs(mean - stable) < 1e-9 { attained += 1 }
      }
    }
    // Neither comparison is vacuous: orders meet the stable floor, and stay above the other.
    #expect(attained > 100)
    #expect(aboveAnyOrder > 30)
  }
}

/// The floor table's "mix" row for the systems: their chars without origin, weighted by each
/// category's targets, a category without a figure left out of that system's mix.
@Suite struct SystemsMixTests {
  @Test func weighsEachSystemsCategoriesByTheirTargets() {
    func row(_ ours: Double?, _ peer: Double?, _ tantivy: Double?) -> FloorRow {
      FloorRow(
        category: "poi", pool: 10, floorChars: 1, stableFloorChars: 1, pairedTargets: 3,
        oursChars: ours, peerChars: peer, tantivyChars: tantivy)
    }
    var mix = Report.SystemsMix()
    mix.add(row(2, 4, nil), weight: 30)
    mix.add(row(4, 8, 3), weight: 10)
    // Ours (2×30 + 4×10) / 40, SQLite (4×30 + 8×10) / 40, Tantivy 3 alone.
    #expect(mix.text(tantivy: true) == "2.50 / 5.00 / 3.00")
    #expect(mix.text(tantivy: false) == "2.50 / 5.00")
    // A category of no targets weighs nothing.
    mix.add(row(100, 100, 100), weight: 0)
    #expect(mix.text(tantivy: true) == "2.50 / 5.00 / 3.00")
    #expect(Report.SystemsMix().text(tantivy: true) == "– / – / –")
  }
}
