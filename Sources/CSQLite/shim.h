#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast Swift cannot import: bound text is copied by SQLite before the call returns. */
static inline void (*fw_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
