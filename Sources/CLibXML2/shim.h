#ifndef PLACEINDEX_CLIBXML2_SHIM_H
#define PLACEINDEX_CLIBXML2_SHIM_H
// Debian builds libxml2 with ICU, and its encoding.h then includes <unicode/ucnv.h>, whose
// UErrorCode clashes with the copy of ICU inside Foundation when both modules meet in one
// Swift module (as they do in release builds with cross-module optimization). PlaceIndex uses
// no libxml2 encoding handlers, so the ICU part of the headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
