// The types of the shared module that the reader's public API uses (an origin or a region's
// center, the index's type vocabulary and the error parsing one throws, a place's address
// components), re-exported so that an app that imports PlaceIndex alone can name them.

@_exported import struct PlaceCore.AddressComponent
@_exported import enum PlaceCore.AddressComponentKind
@_exported import struct PlaceCore.Coordinate
@_exported import struct PlaceCore.PlaceTypeVocabulary
@_exported import struct PlaceCore.TableError
