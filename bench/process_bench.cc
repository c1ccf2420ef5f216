// Starting programs: what one tmux or bwrap invocation costs before it does anything, through
// each way hqt has of starting one. Poco::Process::launch forks and then closes every descriptor
// up to the limit one by one in the child (ulimit -n; 20000 here); run_program (posix_spawn
// with closefrom) does not.
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include "adapters/process.h"
#include "adapters/sandbox_host.h"
#include "bench_env.h"

namespace hqt {
namespace {

void BM_RunProgramTrue(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(run_program({"true"}).code);
}

void BM_PocoLaunchTrue(benchmark::State& state) {
  for (auto _ : state) {
    Poco::Pipe out;
    auto handle = Poco::Process::launch("true", {}, nullptr, &out, &out);
    Poco::PipeInputStream stream(out);
    std::string text;
    Poco::StreamCopier::copyToString(stream, text);
    benchmark::DoNotOptimize(handle.wait());
  }
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  state.counters["fd_limit"] = static_cast<double>(limit.rlim_cur);
}

void BM_SpawnReadTrue(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(bench::spawn_read({"true"}).size());
}

void process(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly();
}
BENCHMARK(BM_SpawnReadTrue)->Apply(process);
BENCHMARK(BM_RunProgramTrue)->Apply(process);
BENCHMARK(BM_PocoLaunchTrue)->Apply(process);

// The host side of a sandboxed start, in a private HOME. Facts are gathered anew for every
// session; bwrap's version is asked once per process (the first call pays a Poco launch).
struct SandboxUser {
  SandboxUser() : user(bench::make_user(root.path(), "hqt-bench-sandbox")) { bench::enter(user); }
  bench::TempRoot root;
  bench::BenchUser user;
};

SandboxUser& sandbox_user() {
  static SandboxUser user;
  return user;
}

void BM_SandboxGatherFacts(benchmark::State& state) {
  auto& s = sandbox_user();
  for (auto _ : state)
    benchmark::DoNotOptimize(sandbox::gather_facts({"sleep"}, s.user.project_dir).tools.size());
}

void BM_SandboxPaneArgv(benchmark::State& state) {
  auto& s = sandbox_user();
  HarnessInfo info;
  info.name = "sleeper";
  info.executable = "sleep";
  for (auto _ : state)
    benchmark::DoNotOptimize(
        sandbox::pane_argv(info, {"sleep", "100000"}, s.user.project_dir, SandboxPolicy{}).size());
}

void BM_SandboxProbe(benchmark::State& state) {
  sandbox_user();
  bool ok = true;
  for (auto _ : state) ok &= sandbox::probe().ok;
  if (!ok) state.SkipWithError("bwrap cannot create its namespaces here");
}

void sandbox_host(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly();
}
BENCHMARK(BM_SandboxGatherFacts)->Apply(sandbox_host);
BENCHMARK(BM_SandboxPaneArgv)->Apply(sandbox_host);
BENCHMARK(BM_SandboxProbe)->Apply(sandbox_host);

}  // namespace
}  // namespace hqt
