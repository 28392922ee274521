/// Region codes as the hosted API takes them (`regionCode`, `includedRegionCodes`): the
/// officially assigned ISO 3166-1 alpha-2 codes, and the country-code top-level domains that
/// differ from them ("uk" for GB). Case does not matter; anything else ("zz", "qq", "eu", "x1")
/// is not a region code.
public enum RegionCodes {
  /// The 249 officially assigned ISO 3166-1 alpha-2 codes (the ISO 3166 Maintenance Agency's
  /// list, as tzdata's `iso3166.tab` and Debian's iso-codes have it), by first letter.
  public static let assigned: Set<String> = Set(
    [
      "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ",
      "BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ",
      "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ",
      "DE DJ DK DM DO DZ",
      "EC EE EG EH ER ES ET",
      "FI FJ FK FM FO FR",
      "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY",
      "HK HM HN HR HT HU",
      "ID IE IL IM IN IO IQ IR IS IT",
      "JE JM JO JP",
      "KE KG KH KI KM KN KP KR KW KY KZ",
      "LA LB LC LI LK LR LS LT LU LV LY",
      "MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ",
      "NA NC NE NF NG NI NL NO NP NR NU NZ",
      "OM",
      "PA PE PF PG PH PK PL PM PN PR PS PT PW PY",
      "QA",
      "RE RO RS RU RW",
      "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ",
      "TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ",
      "UA UG UM US UY UZ",
      "VA VC VE VG VI VN VU",
      "WF WS",
      "YE YT",
      "ZA ZM ZW",
    ].joined(separator: " ").split(separator: " ").map(String.init))

  /// Country-code top-level domains that are not their country's ISO 3166-1 code, with the
  /// code they stand for.
  public static let countryDomainExceptions: [String: String] = ["UK": "GB"]

  /// The upper-cased ISO 3166-1 code that `code` names ("uk" gives "GB", "fi" gives "FI"), or
  /// nil when it is neither an assigned code nor a ccTLD exception.
  public static func canonical(_ code: String) -> String? {
    guard code.utf8.count == 2, code.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let upper = code.uppercased()
    if assigned.contains(upper) { return upper }
    return countryDomainExceptions[upper]
  }
}
