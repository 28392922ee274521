#ifndef PLACEINDEX_CZLIB_SHIM_H
#define PLACEINDEX_CZLIB_SHIM_H
#include <zlib.h>
#endif
