#ifndef PLACEINDEX_CBZIP2_SHIM_H
#define PLACEINDEX_CBZIP2_SHIM_H
#include <stdio.h>
#include <bzlib.h>
#endif
