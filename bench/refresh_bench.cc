// The status refresh against a live private tmux server with N sessions running `sleep`, next
// to what tmux itself costs for the same panes, in the same run:
//   StatusRefresh       SessionService::list on a fresh service: list-panes, one batched
//                       capture of every pane, parse (what `hqt session list` does)
//   StatusRefreshIdle   list on a service that has read every pane before: nothing changed,
//                       so only list-panes (what the TUI does every second)
//   TmuxCaptureBatched  one `tmux capture-pane -p -t P1 ; capture-pane -p -t P2 ; ...`
//   TmuxCapturePerPane  one `tmux capture-pane -p -t P` process per session
//   TmuxListPanes       one `tmux list-panes -a -F ...`
// Times are wall-clock: most of the work happens in tmux processes.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "adapters/config_loader.h"
#include "adapters/plugin_loader.h"
#include "adapters/sqlite_store.h"
#include "adapters/tmux_client.h"
#include "app/session_service.h"
#include "bench_env.h"

namespace hqt {
namespace {

// A private user with `n` session rows, all live. Made on first use, torn down at exit.
struct Fleet {
  explicit Fleet(int n) {
    user = bench::make_user(root.path(),
                            "hqt-bench-" + std::to_string(::getpid()) + "-" + std::to_string(n));
    bench::enter(user);
    store = open_sqlite_store(user.db_file);
    names = bench::add_rows(*store, user, n);
    bench::start_sessions(user, names);
    tmux = make_tmux(user.socket);
    plugins = std::make_unique<PluginHost>(std::vector<std::string>{HQT_PLUGIN_DIR},
                                           load_config(user.config_file).harnesses);
  }
  ~Fleet() { bench::kill_server(user.socket); }

  std::unique_ptr<SessionService> service() {
    return std::make_unique<SessionService>(
        *store, *tmux, *plugins,
        [](const HarnessInfo&, const std::vector<std::string>& command, const std::string&,
           const SandboxPolicy&) { return command; });
  }

  bench::TempRoot root;
  bench::BenchUser user;
  std::unique_ptr<Store> store;
  std::unique_ptr<Tmux> tmux;
  std::unique_ptr<PluginHost> plugins;
  std::vector<std::string> names;
};

Fleet& fleet(int n) {
  static std::map<int, std::unique_ptr<Fleet>> fleets;
  if (fleets.empty()) bench::on_teardown([] { fleets.clear(); });
  auto& slot = fleets[n];
  if (!slot) slot = std::make_unique<Fleet>(n);
  return *slot;
}

std::string target(const std::string& session) { return "=" + session + ":"; }

void BM_StatusRefresh(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  size_t live = 0;
  for (auto _ : state) {
    auto service = f.service();
    auto statuses = service->list();
    live = 0;
    for (const auto& s : statuses) live += s.status != Status::stopped;
  }
  if (live != f.names.size()) state.SkipWithError("not every session read as live");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_StatusRefreshIdle(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  auto service = f.service();
  service->list();
  for (auto _ : state) benchmark::DoNotOptimize(service->list().size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_TmuxCaptureBatched(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  std::vector<std::string> argv{"tmux", "-L", f.user.socket};
  for (const auto& name : f.names) {
    if (argv.size() > 3) argv.push_back(";");
    argv.insert(argv.end(), {"capture-pane", "-p", "-t", target(name)});
  }
  for (auto _ : state) benchmark::DoNotOptimize(bench::spawn_read(argv).size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_TmuxCapturePerPane(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  for (auto _ : state)
    for (const auto& name : f.names)
      benchmark::DoNotOptimize(
          bench::spawn_read({"tmux", "-L", f.user.socket, "capture-pane", "-p", "-t", target(name)})
              .size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_TmuxListPanes(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  std::vector<std::string> argv{"tmux",
                                "-L",
                                f.user.socket,
                                "list-panes",
                                "-a",
                                "-F",
                                "#{session_name}\t#{pane_dead}\t#{window_activity}\t#{pane_pid}"};
  for (auto _ : state) benchmark::DoNotOptimize(bench::spawn_read(argv).size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The pieces of a refresh, through hqt's adapters.
void BM_StoreSessions(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.store->sessions().size());
}

void BM_AdapterListPanes(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.tmux->list_panes().size());
}

void BM_AdapterCapture(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.tmux->capture(f.names).size());
}

// One sample per repetition; the report keeps the median of the repetitions.
void samples(benchmark::internal::Benchmark* b, int repetitions) {
  b->ArgName("sessions")
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->ReportAggregatesOnly();
}

void fleets(benchmark::internal::Benchmark* b) {
  samples(b, 15);
  b->Arg(10)->Arg(100)->Arg(500);
}

BENCHMARK(BM_StatusRefresh)->Apply(fleets);
BENCHMARK(BM_StatusRefreshIdle)->Apply(fleets);
BENCHMARK(BM_TmuxCaptureBatched)->Apply(fleets);
BENCHMARK(BM_StoreSessions)->Apply(fleets);
BENCHMARK(BM_AdapterListPanes)->Apply(fleets);
BENCHMARK(BM_AdapterCapture)->Apply(fleets);
BENCHMARK(BM_TmuxListPanes)->Apply(fleets);
// A process per pane costs about 1000x more per session: fewer samples of the big fleet.
BENCHMARK(BM_TmuxCapturePerPane)->Apply([](benchmark::internal::Benchmark* b) {
  samples(b, 7);
  b->Arg(10)->Arg(100);
});
BENCHMARK(BM_TmuxCapturePerPane)->Apply([](benchmark::internal::Benchmark* b) {
  samples(b, 3);
  b->Arg(500);
});

}  // namespace
}  // namespace hqt
