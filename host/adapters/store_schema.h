#pragma once
// The SQLite schema of the store, its migrations (numbered by PRAGMA user_version) and the
// checks that run before hqt writes to a database file. See docs/store.md.
#include <string>
#include <vector>

#include "adapters/sqlite_db.h"

namespace hqt::store {

// Version 1: projects, harnesses, sessions. Version 2: sessions.sandbox_json.
constexpr int kLatestVersion = 2;

// The statements that bring a database at version `from` to `from + 1`.
const std::vector<std::string>& migration(int from);

// Checks the file at `path` before SQLite opens it: not a directory, readable, and (unless empty
// or missing, which become a fresh database) carrying SQLite's magic header. Throws Error naming
// the file and the problem.
void check_file(const std::string& path);

// On a connection that has written nothing yet: the database is intact (quick check), either
// empty or at a version this program knows, and not some other program's database. Throws Error
// naming the file and the problem; nothing is written.
void check_database(sqlite::Db& db, const std::string& path);

// On an open read-write connection: makes a consistent copy of an older database beside it
// (`<path>.bak-v<N>`), then runs the missing migrations in one write transaction. A fresh
// database gets every migration at once and no copy. Safe when several processes open the same
// database at once: the one that takes the write lock first migrates, the others find it done.
// Returns the path of the copy made, or "".
std::string migrate(sqlite::Db& db, const std::string& path);

// A busy timeout: a writer waits for another one instead of failing.
void set_busy_timeout(sqlite::Db& db);
// After the checks and migrations: WAL journal (readers and writers in several processes at once)
// synced at checkpoints only (synchronous = NORMAL), foreign keys.
void configure(sqlite::Db& db);

// BEGIN IMMEDIATE: takes the write lock at the start, so a transaction that reads and then writes
// waits for other writers (busy timeout) instead of failing on its first write. Rolls back unless
// committed.
class WriteTransaction {
 public:
  explicit WriteTransaction(sqlite::Db& db);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit();

 private:
  sqlite::Db& db_;
  bool open_ = true;
};

}  // namespace hqt::store
