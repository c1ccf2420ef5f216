#include "adapters/store_schema.h"

#include <Poco/Exception.h>
#include <Poco/File.h>
#include <Poco/String.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "core/error.h"

namespace hqt::store {
namespace {

// Each entry brings the database from version i to i + 1. Published entries never change: a
// database in the field went through them. A new schema change is a new entry.
const std::vector<std::vector<std::string>> kMigrations = {
    // 0 -> 1: the baseline.
    {
        "CREATE TABLE projects ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " name TEXT NOT NULL UNIQUE,"
        " path TEXT NOT NULL UNIQUE,"
        " created_at INTEGER NOT NULL)",
        "CREATE TABLE harnesses ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " name TEXT NOT NULL UNIQUE)",
        "CREATE TABLE sessions ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " project_id INTEGER NOT NULL REFERENCES projects(id),"
        " harness_id INTEGER NOT NULL REFERENCES harnesses(id),"
        " nickname TEXT NOT NULL DEFAULT '',"
        " model TEXT NOT NULL DEFAULT '',"
        " tmux_session TEXT NOT NULL DEFAULT '',"
        " harness_session_id TEXT NOT NULL DEFAULT '',"
        " created_at INTEGER NOT NULL)",
        "CREATE INDEX sessions_by_project ON sessions(project_id)",
    },
    // 1 -> 2: the sandbox policy; NULL = not sandboxed.
    {
        "ALTER TABLE sessions ADD COLUMN sandbox_json TEXT",
    },
};
static_assert(kLatestVersion == 2, "add the migration to kMigrations");

constexpr int kBusyTimeoutMs = 5000;
// How often migrate() takes its copy again when another process keeps writing meanwhile.
constexpr int kMigrationAttempts = 10;

bool has_sqlite_magic(const std::string& path) {
  static const char kMagic[] = "SQLite format 3";  // 16 bytes with its NUL
  char head[sizeof kMagic] = {};
  std::ifstream in(path, std::ios::binary);
  in.read(head, sizeof head);
  return in.gcount() == sizeof head && std::equal(head, head + sizeof head, kMagic);
}

[[noreturn]] void refuse_not_sqlite(const std::string& path) {
  throw Error(path +
              ": not an SQLite database; hqt leaves it as it is (move it away to start afresh)");
}

[[noreturn]] void refuse_corrupted(const std::string& path, const std::string& detail) {
  throw Error(path + ": database is corrupted (" + detail +
              "); hqt leaves it as it is (restore a copy or move it away)");
}

int user_version(sqlite::Db& db) { return static_cast<int>(db.integer("PRAGMA user_version")); }

int64_t data_version(sqlite::Db& db) { return db.integer("PRAGMA data_version"); }

// Refuses what this program must not touch: a newer schema, or another program's database.
void refuse_unknown_version(sqlite::Db& db, const std::string& path, int version) {
  if (version > kLatestVersion)
    throw Error(path + ": database version " + std::to_string(version) +
                " is newer than this hqt (" + std::to_string(kLatestVersion) + "); upgrade hqt");
  if (version < 0)
    throw Error(path + ": not an hqt database (schema version " + std::to_string(version) + ")");
  if (version == 0) {
    if (db.integer("SELECT COUNT(*) FROM sqlite_master") > 0)
      throw Error(path + ": not an hqt database (it has tables but no hqt schema version)");
  }
}

// "<path>.bak-v1", else "<path>.bak-v1.2", ... : a copy is never overwritten.
std::string free_backup_name(const std::string& path, int version) {
  std::string base = path + ".bak-v" + std::to_string(version);
  std::string name = base;
  for (int n = 2; Poco::File(name).exists(); ++n) name = base + "." + std::to_string(n);
  return name;
}

void remove_quietly(const std::string& path) {
  if (path.empty()) return;
  try {
    Poco::File(path).remove();
  } catch (const Poco::Exception&) {
  }
}

}  // namespace

const std::vector<std::string>& migration(int from) { return kMigrations.at(from); }

void check_file(const std::string& path) {
  Poco::File file(path);
  if (!file.exists()) return;
  if (file.isDirectory()) throw Error(path + ": is a directory, not a database");
  if (!file.canRead()) throw Error(path + ": cannot read the database (permission denied)");
  if (file.getSize() == 0) return;  // what SQLite makes of an empty file: a new database
  if (!has_sqlite_magic(path)) refuse_not_sqlite(path);
}

void check_database(sqlite::Db& db, const std::string& path) {
  try {
    std::vector<std::string> problems;
    auto check = db.prepare("PRAGMA quick_check");
    while (check.step()) problems.push_back(check.text(0));
    if (problems.size() != 1 || problems[0] != "ok")
      refuse_corrupted(path, problems.empty() ? "quick_check says nothing" : problems[0]);
    refuse_unknown_version(db, path, user_version(db));
  } catch (const sqlite::Failure& e) {
    if (e.code() == SQLITE_CORRUPT || e.code() == SQLITE_NOTADB) refuse_corrupted(path, e.what());
    throw Error(path + ": cannot read the database (" + e.what() + ")");
  }
}

std::string migrate(sqlite::Db& db, const std::string& path) {
  for (int attempt = 1;; ++attempt) {
    const int64_t seen = data_version(db);
    const int version = user_version(db);
    refuse_unknown_version(db, path, version);
    // user_version only grows, so a database at the latest version needs no lock to know it.
    if (version == kLatestVersion) return "";

    // The copy is taken before the write lock (SQLite cannot VACUUM inside a transaction); the
    // data_version check below proves nobody committed between the copy and the lock.
    std::string snapshot;
    if (version >= 1) {
      snapshot = path + ".bak-v" + std::to_string(version) + ".tmp" + std::to_string(::getpid());
      remove_quietly(snapshot);
      try {
        db.prepare("VACUUM INTO ?").bind(1, snapshot).run();
      } catch (const sqlite::Failure& e) {
        remove_quietly(snapshot);
        throw Error(path + ": cannot copy the database to " + snapshot + " before migrating (" +
                    e.what() + "); nothing was changed");
      }
    }

    WriteTransaction transaction(db);
    const int locked_version = user_version(db);
    if (locked_version == kLatestVersion) {  // another process migrated it meanwhile
      transaction.commit();
      remove_quietly(snapshot);
      return "";
    }
    if (locked_version != version || data_version(db) != seen) {
      remove_quietly(snapshot);
      if (attempt == kMigrationAttempts)
        throw Error(path + ": the database kept changing while hqt tried to migrate it");
      continue;  // the transaction rolls back
    }

    std::string backup;
    if (!snapshot.empty()) {
      backup = free_backup_name(path, version);
      Poco::File(snapshot).renameTo(backup);
    }
    try {
      for (int from = version; from < kLatestVersion; ++from)
        for (const auto& statement : migration(from)) db.exec(statement);
      db.exec("PRAGMA user_version = " + std::to_string(kLatestVersion));
      transaction.commit();
    } catch (const sqlite::Failure& e) {
      throw Error(path + ": migrating the database from version " + std::to_string(version) +
                  " to " + std::to_string(kLatestVersion) + " failed (" + e.what() +
                  "); it is unchanged" + (backup.empty() ? "" : ", and copied to " + backup));
    }
    return backup;
  }
}

void set_busy_timeout(sqlite::Db& db) {
  db.exec("PRAGMA busy_timeout = " + std::to_string(kBusyTimeoutMs));
}

void configure(sqlite::Db& db) {
  bool wal = false;
  {
    auto mode = db.prepare("PRAGMA journal_mode");
    wal = mode.step() && Poco::toLower(mode.text(0)) == "wal";
  }  // finished before the journal mode can change
  if (!wal) db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
}

WriteTransaction::WriteTransaction(sqlite::Db& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

WriteTransaction::~WriteTransaction() {
  if (!open_) return;
  try {
    db_.exec("ROLLBACK");
  } catch (const sqlite::Failure&) {
  }
}

void WriteTransaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

}  // namespace hqt::store
