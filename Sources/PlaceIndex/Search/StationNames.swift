import PlaceCore

/// How stops and stations are named when results are compared: the words of a name outside
/// parentheses, without those that say "station" ("Metro Helsingin yliopisto" is the
/// station "Helsingin yliopisto").
enum StationNames {
  /// The name a stop or station named `name` is compared by: its ``baseName(_:)`` without
  /// the words that say "station" or "stop" (``Ranking/stationWords``), unless that leaves
  /// none.
  static func stationName(_ name: String) -> String {
    let words = baseName(name).split(separator: " ")
    let kept = words.filter { !Ranking.stationWords.contains(String($0)) }
    return (kept.isEmpty ? words : kept).joined(separator: " ")
  }

  /// The folded words of `name` outside parentheses ("Delancey Street - Essex Street
  /// (J,M,F)" is "delancey street essex street", "Bayfront (CCL/DTL) Exit B" is "bayfront
  /// exit b": the lines served say nothing of which entrance it is), for stops and stations
  /// named after a place and for the nodes of one station.
  static func baseName(_ name: String) -> String {
    var kept = ""
    var depth = 0
    for c in name {
      if c == "(" {
        depth += 1
        kept.append(" ")
      } else if c == ")" {
        depth = max(0, depth - 1)
      } else if depth == 0 {
        kept.append(c)
      }
    }
    return words(ofFolded: TextNormalizer.fold(kept))
  }

  /// The words of a folded text, joined by single spaces: runs of letters, digits and the
  /// marks on them, read scalar by scalar (a comparison of names per found place; splitting
  /// by Characters' properties cost a fifth of a request with many stops).
  static func words(ofFolded text: String) -> String {
    var out = String.UnicodeScalarView()
    var gap = false
    for u in text.unicodeScalars {
      let inWord: Bool
      if u.isASCII {
        let v = u.value | 0x20
        inWord = (v >= 0x61 && v <= 0x7A) || (u.value >= 0x30 && u.value <= 0x39)
      } else {
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
          .nonspacingMark, .spacingMark, .enclosingMark:
          inWord = true
        default: inWord = u.properties.numericType != nil
        }
      }
      if inWord {
        if gap && !out.isEmpty { out.append(" ") }
        gap = false
        out.append(u)
      } else {
        gap = true
      }
    }
    return String(out)
  }
}
