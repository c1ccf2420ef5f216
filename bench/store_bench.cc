// The store with a thousand sessions: opening it (what every hqt command pays) and reading the
// rows of `hqt session list` through the SQLite adapter.
#include <benchmark/benchmark.h>

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

void store(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly();
}
BENCHMARK(BM_StoreOpen)->Apply(store);
BENCHMARK(BM_StoreRead1000)->Apply(store);

}  // namespace
}  // namespace hqt
