import PlaceCore
import PlaceIndexFormat

/// A place's admin areas, secondary text and address components.
extension PlaceAssembler {
  /// The admin areas element `e` lies in, trimmed to those above its own level: an admin area
  /// or settlement lies only in the levels above it.
  func adminContext(of e: ExtractedElement, tags t: [String: String], primaryType: String?)
    -> AdminContext
  {
    var admin = resolver.resolve(
      latitudeE7: e.latitudeE7, longitudeE7: e.longitudeE7, tags: t,
      relation: e.kind == .relation ? e.id : nil)
    switch primaryType {
    case "country", "administrative_area_level_1":
      admin = AdminContext(
        countryCode: admin.countryCode, countryName: admin.countryName,
        countrySource: admin.countrySource)
    case "administrative_area_level_2":
      admin = AdminContext(
        countryCode: admin.countryCode, countryName: admin.countryName, region: admin.region,
        regionShort: admin.regionShort, countrySource: admin.countrySource)
    case "locality", "administrative_area_level_3", "postal_town":
      admin.locality = nil
      admin.sublocality = nil
      admin.postcode = t["addr:postcode"]
    case "sublocality", "sublocality_level_1", "neighborhood":
      admin.sublocality = nil
    default: break
    }
    return admin
  }

  /// Secondary text: street line (for a named place), locality line, country.
  func secondaryText(
    name: String?, streetLine: String?, types: [String], admin: AdminContext,
    country: CountryTable.Country
  ) -> [String] {
    let isSettlement =
      ["locality", "sublocality", "neighborhood", "country"].contains(types[0])
      || types[0].hasPrefix("administrative_area")
    var secondary: [String] = []
    if name != nil, let streetLine { secondary.append(streetLine) }
    let ownName = name.map(TextNormalizer.fold)
    let localityValues: [String: String] = [
      "postcode": admin.postcode ?? "", "locality": admin.locality ?? "",
      "region": admin.regionShort ?? admin.region ?? "",
    ]
    var localityLine = CountryTable.render(country.localityLine, localityValues)
    if isSettlement {
      // A town's own name is not its secondary text; its region and country are. A
      // district's are its city and country ("Kamppi": "Helsinki, Finland").
      let district =
        ["sublocality", "neighborhood"].contains(types[0]) || types[0].hasPrefix("sublocality_")
      let above = district ? (admin.locality ?? admin.region) : admin.region
      localityLine = [above].compactMap { $0 }.filter { TextNormalizer.fold($0) != ownName }
        .joined(separator: ", ")
    }
    if !localityLine.isEmpty { secondary.append(localityLine) }
    if let cn = admin.countryName, !cn.isEmpty, types[0] != "country" { secondary.append(cn) }
    return secondary
  }

  /// Address components, most specific first.
  func addressComponents(
    housenumber: String?, street: String?, tags t: [String: String], admin: AdminContext
  ) -> [AddressComponent] {
    var components: [AddressComponent] = []
    func add(_ kind: AddressComponentKind, _ long: String?, _ short: String? = nil) {
      guard let long, !long.isEmpty else { return }
      components.append(AddressComponent(kind: kind, longText: long, shortText: short ?? long))
    }
    add(.streetNumber, housenumber)
    add(.route, street)
    add(.subpremise, t["addr:unit"] ?? t["addr:flats"])
    add(.sublocality, admin.sublocality)
    add(.locality, admin.locality)
    add(.adminArea2, admin.adminArea2)
    add(.adminArea1, admin.region, admin.regionShort)
    add(.country, admin.countryName, admin.countryCode)
    add(.postalCode, admin.postcode)
    return components
  }
}
