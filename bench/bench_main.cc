// Google Benchmark's main, with the fleets torn down before static destruction.
#include <benchmark/benchmark.h>

#include "bench_env.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  hqt::bench::teardown();
  benchmark::Shutdown();
  return 0;
}
