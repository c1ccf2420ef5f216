#include "bench_env.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace hqt::bench {

namespace fs = std::filesystem;

BenchUser make_user(const std::string& root, const std::string& socket) {
  BenchUser user;
  user.root = root;
  user.home = root + "/home";
  user.config_file = user.home + "/.config/hqt/config.yaml";
  user.db_file = user.home + "/.local/share/hqt/hqt.db";
  user.project_dir = root + "/project";
  user.socket = socket;
  for (const char* dir : {"/.config/hqt", "/.local/share/hqt", "/.local/state/hqt"})
    fs::create_directories(user.home + dir);
  fs::create_directories(user.project_dir);
  std::ofstream(user.config_file) << "harnesses:\n  - name: " << kHarness
                                  << "\n    command: [sleep, \"100000\"]\n";
  user.env = {{"HOME", user.home},
              {"XDG_CONFIG_HOME", user.home + "/.config"},
              {"XDG_DATA_HOME", user.home + "/.local/share"},
              {"XDG_STATE_HOME", user.home + "/.local/state"},
              {"HQT_TMUX_SOCKET", socket}};
  return user;
}

void enter(const BenchUser& user) {
  for (const auto& [name, value] : user.env) ::setenv(name.c_str(), value.c_str(), 1);
  ::unsetenv("HQT_CONFIG");
  ::unsetenv("TMUX");
  ::unsetenv("TMUX_PANE");
}

std::vector<std::string> add_rows(Store& store, const BenchUser& user, int rows) {
  auto project = store.find_project(kProject);
  if (!project) project = store.add_project(kProject, fs::canonical(user.project_dir).string());
  std::vector<std::string> names;
  for (int i = 0; i < rows; ++i) {
    Session draft;
    draft.project_id = project->id;
    draft.harness = kHarness;
    draft.nickname = std::string(kHarness) + "-" + std::to_string(i + 1);
    names.push_back(store.add_session(draft).tmux_session);
  }
  return names;
}

void start_sessions(const BenchUser& user, const std::vector<std::string>& names) {
  // The server takes the command line that started it as its process title: a short one.
  spawn_read({"tmux", "-L", user.socket, "-f", "/dev/null", "start-server", ";", "set-option", "-g",
              "exit-empty", "off", ";", "set-option", "-g", "remain-on-exit", "on"});
  // The tmux client refuses a command sequence longer than 16 KiB: 100 sessions per invocation.
  constexpr size_t kPerCall = 100;
  for (size_t first = 0; first < names.size(); first += kPerCall) {
    std::vector<std::string> argv{"tmux", "-L", user.socket};
    for (size_t i = first; i < std::min(names.size(), first + kPerCall); ++i) {
      if (i > first) argv.push_back(";");
      argv.insert(argv.end(), {"new-session", "-d", "-s", names[i], "-x", "200", "-y", "50", "-c",
                               user.project_dir, "--", "sleep", "100000"});
    }
    spawn_read(argv);
  }
}

void kill_server(const std::string& socket) {
  try {
    spawn_read({"tmux", "-L", socket, "kill-server"});
  } catch (const std::exception&) {
  }
  // tmux leaves its socket file behind.
  const char* tmpdir = std::getenv("TMUX_TMPDIR");
  std::error_code ec;
  std::filesystem::remove(std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/tmux-" +
                              std::to_string(::getuid()) + "/" + socket,
                          ec);
}

namespace {
std::vector<std::function<void()>>& teardown_work() {
  static std::vector<std::function<void()>> work;
  return work;
}
}  // namespace

void on_teardown(std::function<void()> work) { teardown_work().push_back(std::move(work)); }

void teardown() {
  auto& work = teardown_work();
  while (!work.empty()) {
    auto next = std::move(work.back());
    work.pop_back();
    next();
  }
}

TempRoot::TempRoot() {
  std::string base = fs::temp_directory_path().string() + "/hqt-bench-XXXXXX";
  if (!::mkdtemp(base.data())) throw std::runtime_error("mkdtemp: " + std::string(strerror(errno)));
  path_ = base;
}

TempRoot::~TempRoot() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string spawn_read(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw std::runtime_error("cannot run " + argv[0] + ": " + strerror(rc));
  }
  std::string out;
  char buffer[65536];
  ssize_t n;
  while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) out.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(argv[0] + " " + (argv.size() > 3 ? argv[3] : "") + " failed");
  return out;
}

}  // namespace hqt::bench
