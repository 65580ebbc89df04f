#include <sqlite3.h>

/// Turns SQLite's memory statistics off (they take a process-wide mutex on every allocation
/// SQLite makes). Only before SQLite is first used in the process: later it answers
/// SQLITE_MISUSE and changes nothing. sqlite3_config is variadic, which Swift cannot call.
static inline int offline_search_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
