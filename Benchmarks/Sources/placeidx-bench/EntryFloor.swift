/// The fewest characters any autocomplete needs, on average, before a target enters its top 5
/// when it sees nothing but the typed text.
///
/// Each typed prefix gets one answer, and an answer has 5 places, so at most 5 of the places
/// whose text starts with a prefix can be in the top 5 there. A place "enters" at the first
/// prefix where it is in the top 5. Over a category's whole pool (the places its targets are
/// drawn from), the least possible mean entry length is a minimum-cost assignment of places to
/// prefixes of their own text with 5 places per prefix, which this type solves exactly.
///
/// It is a floor, never a forecast:
/// - places of other categories, which compete for the same 5 slots, are left out;
/// - places whose typed text is the same are counted once (any of them found counts);
/// - an origin tells places apart that the text cannot, so the floor holds only for requests
///   without one.
///
/// Solution: the assignments form the bases of a transversal matroid on the slots (5 per prefix),
/// so taking slots shortest prefix first, as many as stay assignable, is optimal. Slots in the
/// subtree of prefix `u` can go to distinct places iff no subtree holds more slots than places
/// (Hall's condition on a laminar family), which the greedy checks along each prefix's ancestors.
struct EntryFloor {
  /// The least mean number of characters typed before a place enters the top 5, over every
  /// order (a different one at each prefix allowed).
  let anyOrder: Double
  /// The least mean number of characters before a place enters the top 5 for a system whose
  /// order of places does not change as the text grows (the top 5 of a prefix is the 5 best
  /// places that match it).
  ///
  /// Under such an order, the places of a prefix's subtree that have entered by that prefix
  /// are exactly its 5 best, whatever the order: so the sum of entry lengths is the same for
  /// every order, but for where a place ends at a prefix more than 5 texts pass through (in its
  /// top 5 or not). A place that never enters counts at its full length, and of those two cases
  /// the count takes the cheaper.
  let stableOrder: Double

  /// Both floors over the distinct non-empty texts of `texts`; nil when there are none.
  init?(_ texts: [String], slots: Int = 5) {
    let unique = Array(Set(texts.filter { !$0.isEmpty }))
    guard !unique.isEmpty else { return nil }
    let trie = PrefixTrie(unique.map { Array($0) })
    let n = Double(unique.count)

    // Any order: slots shortest prefix first, as many as stay assignable. Breadth-first order
    // is shortest prefix first.
    var used = [Int](repeating: 0, count: trie.nodes.count)
    var cost = 0
    var placed = 0
    for v in trie.breadthFirst where v != 0 {
      var room = slots
      var u = v
      while u != 0 {
        room = min(room, trie.nodes[u].places - used[u])
        u = trie.nodes[u].parent
      }
      guard room > 0 else { continue }
      u = v
      while u != 0 {
        used[u] += room
        u = trie.nodes[u].parent
      }
      cost += room * trie.nodes[v].depth
      placed += room
    }
    precondition(placed == unique.count, "every place has its own full text as a last resort")
    anyOrder = Double(cost) / n

    // Stable order: the sum over lengths d >= 0 of the places not yet entered after d
    // characters.
    var stable = unique.count
    for node in trie.nodes.dropFirst() {
      let continuing = node.places - (node.ends ? 1 : 0)
      stable += max(0, continuing - slots)
    }
    stableOrder = Double(stable) / n
  }
}

/// The prefixes of a set of texts, each with the number of texts below it.
private struct PrefixTrie {
  struct Node {
    var parent: Int
    var depth: Int
    /// Texts that start with this prefix.
    var places: Int
    /// Whether a text ends here.
    var ends = false
    var children: [Character: Int] = [:]
  }

  /// Node 0 is the empty prefix.
  var nodes = [Node(parent: 0, depth: 0, places: 0)]

  init(_ texts: [[Character]]) {
    for text in texts {
      var v = 0
      nodes[0].places += 1
      for c in text {
        if let next = nodes[v].children[c] {
          v = next
        } else {
          nodes.append(Node(parent: v, depth: nodes[v].depth + 1, places: 0))
          nodes[v].children[c] = nodes.count - 1
          v = nodes.count - 1
        }
        nodes[v].places += 1
      }
      nodes[v].ends = true
    }
  }

  /// Every node, parents before children and shorter prefixes before longer ones.
  var breadthFirst: [Int] {
    var order = [0]
    var i = 0
    while i < order.count {
      order.append(contentsOf: nodes[order[i]].children.values.sorted())
      i += 1
    }
    return order
  }
}
