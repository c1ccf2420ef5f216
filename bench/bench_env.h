#pragma once
// What the benchmarks run against: a private user (HOME and the XDG dirs under one directory, a
// config declaring the `sleeper` harness, a tmux socket of its own) and a fleet of live sessions
// set up in bulk: rows through the Store API in one process, tmux sessions through one tmux
// invocation with many `new-session` commands.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/store.h"

namespace hqt::bench {

// The generic harness every benchmark session runs.
constexpr char kHarness[] = "sleeper";
constexpr char kProject[] = "bench";

struct BenchUser {
  std::string root;  // everything lives under it
  std::string home;
  std::string config_file;
  std::string db_file;
  std::string project_dir;
  std::string socket;                      // tmux -L
  std::map<std::string, std::string> env;  // HOME, XDG_*, HQT_TMUX_SOCKET
};

// Creates the directories and the config under `root` (which must exist).
BenchUser make_user(const std::string& root, const std::string& socket);
// Puts the user's environment into this process (for in-process services).
void enter(const BenchUser& user);

// Inserts `rows` sessions of the sleeper harness into project "bench" (added when missing) and
// returns their tmux session names, in id order.
std::vector<std::string> add_rows(Store& store, const BenchUser& user, int rows);

// Starts `names` running `sleep 100000` on the user's tmux server, with the options hqt sets,
// in as few tmux invocations as the argument size allows.
void start_sessions(const BenchUser& user, const std::vector<std::string>& names);
void kill_server(const std::string& socket);

// A temp directory with everything under it removed at destruction.
class TempRoot {
 public:
  TempRoot();
  ~TempRoot();
  TempRoot(const TempRoot&) = delete;
  TempRoot& operator=(const TempRoot&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Work to do after the last benchmark, before static destruction (servers to kill, plugins to
// unload): bench_main.cc runs it, last registered first.
void on_teardown(std::function<void()> work);
void teardown();

// Runs argv (argv[0] on PATH) with posix_spawn and returns its stdout; the cheapest way to run
// a program, used for the tmux baselines. Throws std::runtime_error when it exits non-zero.
std::string spawn_read(const std::vector<std::string>& argv);

}  // namespace hqt::bench
