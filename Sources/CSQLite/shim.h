#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: bound text and blobs are copied.
static inline int lb_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, count == 0 ? "" : bytes, count, SQLITE_TRANSIENT);
}
