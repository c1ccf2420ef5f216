#pragma once
// A thin owner of SQLite's C API: one connection, prepared statements, errors as exceptions.
// The store talks to SQLite through it directly (see docs/store.md, "Why the C API").
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace hqt::sqlite {

// What SQLite said, with its primary result code (SQLITE_CORRUPT, SQLITE_READONLY, ...).
class Failure : public std::runtime_error {
 public:
  Failure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  // Parameters are numbered from 1, as in SQLite.
  Statement& bind(int index, int64_t value);
  Statement& bind(int index, const std::string& value);
  Statement& bind(int index, const std::optional<std::string>& value);  // nullopt binds NULL

  // Runs to the next row: true while there is one, false when done.
  bool step();
  // Runs a statement that returns no rows (or ignores them); returns the rows it changed.
  int run();

  // Columns of the current row, numbered from 0.
  bool is_null(int column) const;
  int64_t integer(int column) const;
  std::string text(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

class Db {
 public:
  // Opens `path` read-write, creating the file when missing.
  explicit Db(const std::string& path);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  Statement prepare(std::string_view sql) { return Statement(db_, sql); }
  // Runs statements that return no rows.
  void exec(const std::string& sql);
  // The first column of the first row, as a number (0 when there is no row); `values` are bound
  // to the parameters in order. The statement is finished when this returns.
  template <typename... Values>
  int64_t integer(std::string_view sql, const Values&... values) {
    Statement statement = prepare(sql);
    int index = 0;
    (statement.bind(++index, values), ...);
    return statement.step() ? statement.integer(0) : 0;
  }
  int64_t last_insert_id() const;
  // Copies the WAL's frames into the database file as far as no reader needs them.
  void checkpoint();
  // Closing the last connection normally moves the WAL's frames into the database file; after
  // this it leaves both files as they are.
  void keep_wal_on_close();

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace hqt::sqlite
