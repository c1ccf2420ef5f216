#include "adapters/sqlite_db.h"

#include <sqlite3.h>

namespace hqt::sqlite {
namespace {

// The primary result code (SQLITE_CORRUPT for SQLITE_CORRUPT_VTAB, ...) and SQLite's message.
[[noreturn]] void fail(sqlite3* db, int code) {
  throw Failure(code & 0xff, db ? sqlite3_errmsg(db) : sqlite3_errstr(code));
}

void check(sqlite3* db, int code) {
  if (code != SQLITE_OK) fail(db, code);
}

}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  check(db_,
        sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement_, nullptr));
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement::Statement(Statement&& other) noexcept : db_(other.db_), statement_(other.statement_) {
  other.statement_ = nullptr;
}

Statement& Statement::bind(int index, int64_t value) {
  check(db_, sqlite3_bind_int64(statement_, index, value));
  return *this;
}

Statement& Statement::bind(int index, const std::string& value) {
  check(db_, sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()),
                               SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind(int index, const std::optional<std::string>& value) {
  if (value) return bind(index, *value);
  check(db_, sqlite3_bind_null(statement_, index));
  return *this;
}

bool Statement::step() {
  int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  fail(db_, code);
}

int Statement::run() {
  while (step()) {
  }
  return sqlite3_changes(db_);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

std::string Statement::text(int column) const {
  auto bytes = sqlite3_column_text(statement_, column);
  if (!bytes) return {};
  return std::string(reinterpret_cast<const char*>(bytes),
                     static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
}

Db::Db(const std::string& path) {
  int code =
      sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (code != SQLITE_OK) {
    Failure failure(code & 0xff, db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code));
    sqlite3_close(db_);
    throw failure;
  }
}

Db::~Db() { sqlite3_close_v2(db_); }

void Db::exec(const std::string& sql) {
  check(db_, sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr));
}

int64_t Db::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

void Db::checkpoint() {
  check(db_, sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr));
}

void Db::keep_wal_on_close() {
  sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
}

}  // namespace hqt::sqlite
