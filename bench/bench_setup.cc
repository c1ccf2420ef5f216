// Sets up what bench/run measures whole hqt processes against, fast:
//   hqt_bench_setup up ROOT SOCKET ROWS LIVE
//     a private user under ROOT (which must exist), ROWS session rows of the sleeper harness in
//     project "bench", the first LIVE of them running `sleep` on tmux server SOCKET; prints the
//     user's environment as `export NAME=VALUE` lines
//   hqt_bench_setup bwrap-argv ROOT SOCKET HARNESS|-
//     (after `up`) the bwrap command line a sandboxed session of HARNESS would run, with
//     `true` as the command, "--seccomp 3" for the filter and the filter's path on a line of
//     its own; "-" gives the command line of the sandbox probe of `hqt doctor`
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "adapters/config_loader.h"
#include "adapters/plugin_loader.h"
#include "adapters/process.h"
#include "adapters/sandbox_host.h"
#include "adapters/sandbox_seccomp.h"
#include "adapters/sqlite_store.h"
#include "bench_env.h"

using namespace hqt;

namespace {

int usage() {
  std::cerr << "usage: hqt_bench_setup up ROOT SOCKET ROWS LIVE\n"
               "       hqt_bench_setup bwrap-argv ROOT SOCKET HARNESS|-\n";
  return 2;
}

int up(const std::string& root, const std::string& socket, int rows, int live) {
  auto user = bench::make_user(root, socket);
  bench::enter(user);
  auto store = open_sqlite_store(user.db_file);
  auto names = bench::add_rows(*store, user, rows);
  names.resize(std::min<size_t>(names.size(), static_cast<size_t>(live)));
  bench::start_sessions(user, names);
  for (const auto& [name, value] : user.env)
    std::cout << "export " << name << "=" << shell_join({value}) << "\n";
  std::cout << "export HQT_BENCH_PROJECT_DIR=" << shell_join({user.project_dir}) << "\n";
  return 0;
}

int bwrap_argv(const std::string& root, const std::string& socket, const std::string& name) {
  auto user = bench::make_user(root, socket);
  bench::enter(user);
  HarnessInfo info;
  std::string dir = user.project_dir;
  std::unique_ptr<PluginHost> plugins;
  if (name != "-") {
    plugins = std::make_unique<PluginHost>(std::vector<std::string>{HQT_PLUGIN_DIR},
                                           load_config(user.config_file).harnesses);
    const Harness* harness = plugins->find(name);
    if (!harness) {
      std::cerr << "hqt_bench_setup: no harness named '" << name << "'\n";
      return 1;
    }
    info = harness->info();
  } else {
    dir = root + "/probe";
    std::filesystem::create_directories(dir);
  }
  auto argv = sandbox::bwrap_argv(info, {"true"}, dir, SandboxPolicy{});
  argv.insert(argv.begin() + 1, {"--seccomp", "3"});
  std::cout << shell_join(argv) << "\n"
            << sandbox::ensure_seccomp_filter(sandbox::seccomp_filter_path()) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 5 && args[0] == "up")
      return up(args[1], args[2], std::stoi(args[3]), std::stoi(args[4]));
    if (args.size() == 4 && args[0] == "bwrap-argv") return bwrap_argv(args[1], args[2], args[3]);
  } catch (const std::exception& e) {
    std::cerr << "hqt_bench_setup: " << e.what() << "\n";
    return 1;
  }
  return usage();
}
