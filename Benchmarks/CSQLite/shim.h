#ifndef PLACEINDEX_CSQLITE_SHIM_H
#define PLACEINDEX_CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: turns off SQLite's memory statistics,
/// whose global mutex serializes every allocation of every connection (SQLite's advice for
/// multi-threaded use). Call before any other SQLite function; returns SQLITE_OK or an error.
static inline int csqlite_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
