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

// libxml2 prints some errors (encoding conversion, "xmlParseChunk: encoder error") through its
// variadic generic error function, straight to stderr. Swift cannot define a variadic C
// callback, so this one, which drops the text, lives here; the structured error handler still
// receives those errors and the reader turns them into its own message.
static void placeindex_xml_drop_generic_error(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}

/// Silences libxml2's generic error output on the calling thread.
static inline void placeindex_xml_silence_generic_errors(void) {
  xmlSetGenericErrorFunc(NULL, placeindex_xml_drop_generic_error);
}
#endif
