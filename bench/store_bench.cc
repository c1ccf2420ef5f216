// The store with a thousand sessions: opening it (what every hqt command pays) and reading the
// rows of `hqt session list`, through the SQLite adapter (Poco Data) and, for comparison, the
// same query through SQLite's own API on the same connection.
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/SQLite/Utility.h>
#include <Poco/Data/Session.h>
#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include "adapters/sqlite_store.h"
#include "bench_env.h"

namespace hqt {
namespace {

struct StoreFile {
  StoreFile() : user(bench::make_user(root.path(), "hqt-bench-store")) {
    auto store = open_sqlite_store(user.db_file);
    bench::add_rows(*store, user, 1000);
  }
  bench::TempRoot root;
  bench::BenchUser user;
};

StoreFile& store_file() {
  static StoreFile file;
  return file;
}

void BM_StoreOpen(benchmark::State& state) {
  auto& file = store_file();
  for (auto _ : state) benchmark::DoNotOptimize(open_sqlite_store(file.user.db_file).get());
}

void BM_StoreRead1000(benchmark::State& state) {
  auto store = open_sqlite_store(store_file().user.db_file);
  for (auto _ : state) benchmark::DoNotOptimize(store->sessions().size());
}

// The adapter's query, read with sqlite3_step into the same Session values.
void BM_SqliteApiRead1000(benchmark::State& state) {
  Poco::Data::SQLite::Connector::registerConnector();
  Poco::Data::Session db("SQLite", store_file().user.db_file);
  sqlite3* handle = Poco::Data::SQLite::Utility::dbHandle(db);
  const char* query =
      "SELECT s.id, s.project_id, p.name, h.name, s.nickname, s.model, s.sandbox_json,"
      " s.tmux_session, s.harness_session_id, s.created_at FROM sessions s"
      " JOIN projects p ON p.id = s.project_id JOIN harnesses h ON h.id = s.harness_id"
      " ORDER BY s.id";
  auto text = [](sqlite3_stmt* st, int column) {
    auto p = sqlite3_column_text(st, column);
    return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
  };
  for (auto _ : state) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(handle, query, -1, &st, nullptr);
    std::vector<Session> rows;
    while (sqlite3_step(st) == SQLITE_ROW) {
      Session s;
      s.id = sqlite3_column_int64(st, 0);
      s.project_id = sqlite3_column_int64(st, 1);
      s.project = text(st, 2);
      s.harness = text(st, 3);
      s.nickname = text(st, 4);
      s.model = text(st, 5);
      s.tmux_session = text(st, 7);
      s.harness_session_id = text(st, 8);
      s.created_at = sqlite3_column_int64(st, 9);
      rows.push_back(std::move(s));
    }
    sqlite3_finalize(st);
    if (rows.size() != 1000) state.SkipWithError("expected 1000 rows");
    benchmark::DoNotOptimize(rows.data());
  }
}

void store(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly();
}
BENCHMARK(BM_StoreOpen)->Apply(store);
BENCHMARK(BM_StoreRead1000)->Apply(store);
BENCHMARK(BM_SqliteApiRead1000)->Apply(store);

}  // namespace
}  // namespace hqt
