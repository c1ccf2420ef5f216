// The status refresh against a live private tmux server with N sessions running `sleep`, next
// to what tmux itself costs for the same panes. The machine is shared and noisy, so each sample
// times hqt and the tmux baseline back to back and the ratio is taken per sample; the report
// keeps the medians (real_time is hqt's time, the counters the baselines and the ratios).
//   StatusRefresh       SessionService::list on a fresh service: list the panes, capture every
//                       one, parse (what `hqt session list` does); against one batched
//                       `tmux capture-pane -p -t P1 ; capture-pane -p -t P2 ; ...` (capture_ms)
//   StatusRefreshIdle   list on a service that has read every pane before, nothing changed
//                       (what the TUI does every second); against one `tmux list-panes -a`
//   CapturePerPane      one `tmux capture-pane` process per session; against StatusRefresh
//   Store*, Adapter*    the pieces, for finding where time goes
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <thread>

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
    created = std::chrono::steady_clock::now();
  }
  ~Fleet() { bench::kill_server(user.socket); }

  std::unique_ptr<SessionService> service() {
    return std::make_unique<SessionService>(
        *store, *tmux, *plugins,
        [](const HarnessInfo&, const std::vector<std::string>& command, const std::string&,
           const SandboxPolicy&, bool) { return command; });
  }

  bench::TempRoot root;
  bench::BenchUser user;
  std::unique_ptr<Store> store;
  std::unique_ptr<Tmux> tmux;
  std::unique_ptr<PluginHost> plugins;
  std::vector<std::string> names;
  std::chrono::steady_clock::time_point created;
};

Fleet& fleet(int n) {
  static std::map<int, std::unique_ptr<Fleet>> fleets;
  if (fleets.empty()) bench::on_teardown([] { fleets.clear(); });
  auto& slot = fleets[n];
  if (!slot) slot = std::make_unique<Fleet>(n);
  return *slot;
}

std::string target(const std::string& session) { return "=" + session + ":"; }

// What tmux costs for the same panes.
std::vector<std::string> batched_capture_argv(const Fleet& f) {
  std::vector<std::string> argv{"tmux", "-L", f.user.socket};
  for (const auto& name : f.names) {
    if (argv.size() > 3) argv.push_back(";");
    argv.insert(argv.end(), {"capture-pane", "-p", "-t", target(name)});
  }
  return argv;
}

std::vector<std::string> list_panes_argv(const Fleet& f) {
  return {"tmux",
          "-L",
          f.user.socket,
          "list-panes",
          "-a",
          "-F",
          "#{session_name}\t#{pane_dead}\t#{window_activity}\t#{pane_pid}"};
}

template <typename Fn>
double seconds(Fn&& fn) {
  auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

size_t live_count(const std::vector<SessionStatus>& statuses) {
  size_t live = 0;
  for (const auto& s : statuses) live += s.status != Status::stopped;
  return live;
}

void BM_StatusRefresh(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  auto capture = batched_capture_argv(f);
  double refresh = 0, tmux = 0;
  size_t live = 0;
  for (auto _ : state) {
    double t = seconds([&] { live = live_count(f.service()->list()); });
    double c = seconds([&] { bench::spawn_read(capture); });
    state.SetIterationTime(t);
    refresh += t;
    tmux += c;
  }
  if (live != f.names.size()) state.SkipWithError("not every session read as live");
  state.counters["capture_ms"] = tmux * 1e3 / static_cast<double>(state.iterations());
  state.counters["vs_capture"] = refresh / tmux;
  state.counters["us_per_session"] =
      refresh * 1e6 / static_cast<double>(state.iterations() * state.range(0));
}

void BM_StatusRefreshIdle(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  // tmux keeps activity in whole seconds: panes that started in the second of a capture are
  // read again. Let the fleet's start be two seconds old.
  std::this_thread::sleep_until(f.created + std::chrono::seconds(2));
  auto service = f.service();
  service->list();
  auto list = list_panes_argv(f);
  double refresh = 0, tmux = 0;
  for (auto _ : state) {
    double t = seconds([&] { benchmark::DoNotOptimize(service->list().size()); });
    double c = seconds([&] { bench::spawn_read(list); });
    state.SetIterationTime(t);
    refresh += t;
    tmux += c;
  }
  state.counters["list_ms"] = tmux * 1e3 / static_cast<double>(state.iterations());
  state.counters["vs_list"] = refresh / tmux;
}

void BM_CapturePerPane(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  double per_pane = 0, refresh = 0;
  for (auto _ : state) {
    double t = seconds([&] {
      for (const auto& name : f.names)
        bench::spawn_read({"tmux", "-L", f.user.socket, "capture-pane", "-p", "-t", target(name)});
    });
    double r = seconds([&] { f.service()->list(); });
    state.SetIterationTime(t);
    per_pane += t;
    refresh += r;
  }
  state.counters["refresh_ms"] = refresh * 1e3 / static_cast<double>(state.iterations());
  state.counters["vs_refresh"] = per_pane / refresh;
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
  f.tmux->list_panes();  // the pane heights
  for (auto _ : state) benchmark::DoNotOptimize(f.tmux->capture(f.names).size());
}

void BM_AdapterListAndCapture(benchmark::State& state) {
  Fleet& f = fleet(static_cast<int>(state.range(0)));
  std::map<std::string, std::string> texts;
  for (auto _ : state)
    f.tmux->list_and_capture([&](const std::vector<PaneInfo>&) { return f.names; }, texts);
  if (texts.size() != f.names.size()) state.SkipWithError("not every pane was captured");
}

// One sample per repetition; the report keeps the aggregates of the repetitions.
void samples(benchmark::internal::Benchmark* b, int repetitions) {
  b->ArgName("sessions")
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->ReportAggregatesOnly();
}

void fleets(benchmark::internal::Benchmark* b) {
  samples(b, 15);
  b->UseRealTime()->Arg(10)->Arg(100)->Arg(500);
}

void paired(benchmark::internal::Benchmark* b) {
  samples(b, 21);
  b->UseManualTime()->Arg(10)->Arg(100)->Arg(500);
}

BENCHMARK(BM_StatusRefresh)->Apply(paired);
BENCHMARK(BM_StatusRefreshIdle)->Apply(paired);
// A process per pane costs about a hundred times more per session: fewer samples of the big
// fleets.
BENCHMARK(BM_CapturePerPane)->Apply([](benchmark::internal::Benchmark* b) {
  samples(b, 7);
  b->UseManualTime()->Arg(10)->Arg(100);
});
BENCHMARK(BM_CapturePerPane)->Apply([](benchmark::internal::Benchmark* b) {
  samples(b, 3);
  b->UseManualTime()->Arg(500);
});
BENCHMARK(BM_StoreSessions)->Apply(fleets);
BENCHMARK(BM_AdapterListPanes)->Apply(fleets);
BENCHMARK(BM_AdapterCapture)->Apply(fleets);
BENCHMARK(BM_AdapterListAndCapture)->Apply(fleets);

}  // namespace
}  // namespace hqt
