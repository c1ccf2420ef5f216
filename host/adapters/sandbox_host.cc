#include "adapters/sandbox_host.h"

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

#include "adapters/paths.h"
#include "adapters/process.h"
#include "adapters/sandbox_seccomp.h"
#include "core/error.h"

extern char** environ;

namespace hqt::sandbox {

namespace fs = std::filesystem;

namespace {

bool is_under(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         (dir == "/" || path[dir.size()] == '/'));
}

std::string canonical(const std::string& path) {
  std::error_code ec;
  auto real = fs::canonical(path, ec);
  return ec ? std::string() : real.string();
}

std::string normal(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string home_dir() { return normal(paths::home()); }

// bwrap 0.8.0 brought --disable-userns. Asked once per bwrap binary.
bool knows_disable_userns(const std::string& bwrap) {
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(bwrap);
  if (it != known.end()) return it->second;
  bool result = false;
  try {
    std::string text = run_program({bwrap, "--version"}).out;
    int major = 0, minor = 0;
    if (std::sscanf(text.c_str(), "bubblewrap %d.%d", &major, &minor) == 2)
      result = major > 0 || minor >= 8;
  } catch (const std::exception&) {
  }
  known[bwrap] = result;
  return result;
}

// What an entry of a directory is to the sandbox: a directory or file not everyone may read
// (hidden), a directory to look into, or nothing to do (readable files, symlinks: what a link
// points at is judged where it is, if it is shown at all). Looked at relative to the directory's
// descriptor, so no path is resolved twice and the working directory never changes (other
// threads run).
enum class Entry { other, secret_dir, secret_file, dir };

Entry look_at(DIR* dir, const dirent* entry) {
  const std::string_view name = entry->d_name;
  if (name == "." || name == ".." || entry->d_type == DT_LNK) return Entry::other;
  struct stat st {};
  if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) return Entry::other;
  if (S_ISDIR(st.st_mode))
    return (st.st_mode & S_IROTH) == 0 || (st.st_mode & S_IXOTH) == 0 ? Entry::secret_dir
                                                                      : Entry::dir;
  if (S_ISREG(st.st_mode) && (st.st_mode & S_IROTH) == 0) return Entry::secret_file;
  return Entry::other;
}

int open_dir_at(int dir_fd, const char* name) {
  return ::openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// Everything under `path` (open as `dir_fd`, which this takes over) that not everyone may read,
// appended to `found` in the walk's order.
void find_secrets_under(int dir_fd, const std::string& path, Facts& found) {
  DIR* dir = ::fdopendir(dir_fd);
  if (!dir) {
    ::close(dir_fd);
    return;
  }
  while (const dirent* entry = ::readdir(dir)) {
    const std::string child = path + "/" + entry->d_name;
    switch (look_at(dir, entry)) {
      case Entry::secret_dir:  // hidden whole: nothing inside to look at
        found.etc_secret_dirs.push_back(child);
        break;
      case Entry::secret_file:
        found.etc_secret_files.push_back(child);
        break;
      case Entry::dir:
        if (int fd = open_dir_at(::dirfd(dir), entry->d_name); fd >= 0)
          find_secrets_under(fd, child, found);
        break;
      case Entry::other:
        break;
    }
  }
  ::closedir(dir);
}

// /etc holds about 1300 entries, each needing a stat: its top-level entries are looked at here,
// and the directories among them shared out between this thread and one more, each taking the
// next one left. Each top-level entry keeps its own findings, so they come out in the walk's
// order whichever thread found them.
void find_etc_secrets(Facts& facts) {
  DIR* etc = ::opendir("/etc");
  if (!etc) return;
  struct Top {
    std::string name;
    Entry kind;
    Facts found;
  };
  std::vector<Top> tops;
  while (const dirent* entry = ::readdir(etc)) {
    Entry kind = look_at(etc, entry);
    if (kind == Entry::other) continue;
    Top top{entry->d_name, kind, {}};
    const std::string path = "/etc/" + top.name;
    if (kind == Entry::secret_dir) top.found.etc_secret_dirs.push_back(path);
    if (kind == Entry::secret_file) top.found.etc_secret_files.push_back(path);
    tops.push_back(std::move(top));
  }
  std::atomic<size_t> next{0};
  auto walk = [&] {
    for (size_t i; (i = next++) < tops.size();) {
      if (tops[i].kind != Entry::dir) continue;
      if (int fd = open_dir_at(::dirfd(etc), tops[i].name.c_str()); fd >= 0)
        find_secrets_under(fd, "/etc/" + tops[i].name, tops[i].found);
    }
  };
  std::future<void> helper;
  try {
    helper = std::async(std::launch::async, walk);
  } catch (const std::system_error&) {
    // No second thread: this one walks them all.
  }
  walk();
  if (helper.valid()) helper.get();
  ::closedir(etc);
  for (const auto& top : tops) {
    facts.etc_secret_dirs.insert(facts.etc_secret_dirs.end(), top.found.etc_secret_dirs.begin(),
                                 top.found.etc_secret_dirs.end());
    facts.etc_secret_files.insert(facts.etc_secret_files.end(), top.found.etc_secret_files.begin(),
                                  top.found.etc_secret_files.end());
  }
}

// Follows /etc/resolv.conf's symlinks to the first path outside /etc (systemd-resolved keeps
// the file in /run, which the sandbox does not show).
void find_resolv_conf(Facts& facts) {
  std::string path = "/etc/resolv.conf";
  for (int hop = 0; hop < 16; ++hop) {
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) break;
    auto target = fs::read_symlink(path, ec);
    if (ec) break;
    path = normal(target.is_absolute() ? target.string()
                                       : (fs::path(path).parent_path() / target).string());
    if (!is_under(path, "/etc")) {
      facts.resolv_conf_link = path;
      facts.resolv_conf_real = canonical(path);
      return;
    }
  }
}

bool has_package_json(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / "package.json", ec);
}

std::string read_head(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(256, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

// The harness executable and the interpreters its `#!` lines name, where they really are.
void find_tools(Facts& facts, const std::string& program, const std::string& project_dir) {
  std::string path;
  if (program.find('/') == std::string::npos)
    path = paths::which(program);
  else
    path = normal(program[0] == '/' ? program : project_dir + "/" + program);
  for (int depth = 0; depth < 4 && !path.empty(); ++depth) {
    std::string real = canonical(path);
    std::error_code ec;
    if (real.empty() || !fs::is_regular_file(real, ec)) return;
    facts.tools.push_back({path, real, tool_root(real, facts.home, has_package_json)});
    Shebang shebang = parse_shebang(read_head(real));
    if (shebang.interpreter.empty() || shebang.interpreter[0] != '/') return;
    if (shebang.program.empty()) {
      path = shebang.interpreter;
      continue;
    }
    // "#!/usr/bin/env node": env itself, then node as PATH finds it.
    std::string env_real = canonical(shebang.interpreter);
    if (!env_real.empty())
      facts.tools.push_back(
          {shebang.interpreter, env_real, tool_root(env_real, facts.home, has_package_json)});
    path = shebang.program.find('/') == std::string::npos ? paths::which(shebang.program)
                                                          : shebang.program;
  }
}

std::string self_program() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the hqt program (/proc/self/exe): " + ec.message());
  return exe.string();
}

void check_available() {
  if (!is_available())
    throw Error("bubblewrap (bwrap) is not available; cannot start a sandboxed session");
}

long read_sysctl(const char* path) {
  std::ifstream in(path);
  long value = -1;
  if (!(in >> value)) return -1;
  return value;
}

// Runs argv with stdin and stdout on /dev/null and `keep_fd` inherited; returns the exit code
// (-1 when it could not start) and stderr. Calls `meanwhile` once the program has started.
int run_with_fd(const std::vector<std::string>& argv, std::string* err,
                const std::function<void()>& meanwhile) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    *err = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    *err = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return -1;
  }
  meanwhile();  // does not throw
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(pipefd[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) err->append(buffer, static_cast<size_t>(n));
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

bool is_available() {
#ifdef __linux__
  return !bwrap_path().empty();
#else
  return false;
#endif
}

std::string bwrap_path() { return paths::which("bwrap"); }

std::vector<MountBind> resolve_binds(const std::vector<Bind>& binds, MissingBinds missing) {
  const std::string home = home_dir();
  const std::string real_home = canonical(home);
  std::vector<MountBind> out;
  for (const auto& bind : binds) {
    std::string path = paths::expand_home(bind.path);
    if (path.empty() || path[0] != '/') continue;
    path = normal(path);
    std::error_code ec;
    bool present = fs::exists(fs::symlink_status(path, ec));
    // Only under $HOME: a plugin must not make hqt create files elsewhere on the host.
    const bool creatable = bind.create && !present && is_under(path, home) && path != home;
    if (creatable && missing == MissingBinds::describe) {
      // Where it will be: the real path of what exists of it, the rest as written.
      out.push_back({path, fs::weakly_canonical(path, ec).string(), bind.writable});
      continue;
    }
    if (creatable) {
      if (bind.is_file) {
        fs::create_directories(fs::path(path).parent_path(), ec);
        int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
          throw Error("cannot create the sandbox bind '" + path + "': " + std::strerror(errno));
        std::string content = fs::path(path).extension() == ".json" ? "{}" : "";
        bool written =
            ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
        ::close(fd);
        if (!written) throw Error("cannot write the sandbox bind '" + path + "'");
      } else {
        fs::create_directories(path, ec);
        if (ec) throw Error("cannot create the sandbox bind '" + path + "': " + ec.message());
        ::chmod(path.c_str(), 0700);
      }
    }
    std::string source = canonical(path);
    // A bind that is (a link to) the home directory or a parent of it would show all of it.
    if (!source.empty() && !real_home.empty() && is_under(real_home, source)) continue;
    out.push_back({path, source, bind.writable});
  }
  return out;
}

Facts gather_facts(const std::vector<std::string>& command, const std::string& project_dir) {
  Facts facts;
  facts.bwrap = bwrap_path();
  if (facts.bwrap.empty()) facts.bwrap = "bwrap";
  // `bwrap --version` runs while the files are looked at.
  auto disable_userns =
      std::async(std::launch::async, [bwrap = facts.bwrap] { return knows_disable_userns(bwrap); });
  facts.home = home_dir();
  for (const auto& dir : system_dirs()) {
    std::error_code ec;
    auto status = fs::symlink_status(dir, ec);
    if (ec || !fs::exists(status)) continue;
    if (fs::is_symlink(status))
      facts.system.push_back({dir, fs::read_symlink(dir, ec).string()});
    else if (fs::is_directory(status))
      facts.system.push_back({dir, ""});
  }
  find_etc_secrets(facts);
  find_resolv_conf(facts);
  std::error_code ec;
  if (fs::exists(facts.home + "/.gitconfig", ec))
    facts.gitconfig = canonical(facts.home + "/.gitconfig");
  if (!command.empty()) find_tools(facts, command[0], project_dir);
  // Harnesses run their tools through $SHELL (Claude Code's Bash tool): show it too when it
  // lives outside the system dirs.
  std::string shell = paths::env("SHELL");
  if (!shell.empty() && shell[0] == '/') find_tools(facts, shell, project_dir);
  facts.disable_userns = disable_userns.get();
  return facts;
}

std::vector<std::string> bwrap_argv(const HarnessInfo& harness,
                                    const std::vector<std::string>& command,
                                    const std::string& project_dir, const SandboxPolicy& policy,
                                    MissingBinds missing) {
  check_available();
  std::string project = canonical(project_dir);
  if (project.empty()) throw Error("no project directory '" + project_dir + "'");
  auto binds = resolve_binds(harness.binds, missing);
  return wrap(command, project, policy, binds, gather_facts(command, project));
}

std::vector<std::string> pane_argv(const HarnessInfo& harness,
                                   const std::vector<std::string>& command,
                                   const std::string& project_dir, const SandboxPolicy& policy,
                                   MissingBinds missing) {
  check_available();
  return pane_argv(harness, command, project_dir, policy, self_program(), missing);
}

std::vector<std::string> pane_argv(const HarnessInfo& harness,
                                   const std::vector<std::string>& command,
                                   const std::string& project_dir, const SandboxPolicy& policy,
                                   const std::string& hqt_program, MissingBinds missing) {
  auto bwrap = bwrap_argv(harness, command, project_dir, policy, missing);
  std::vector<std::string> argv{hqt_program, "sandbox-exec", "--seccomp",
                                ensure_seccomp_filter(seccomp_filter_path())};
  for (const auto& name : harness.sandbox_env) argv.insert(argv.end(), {"--env", name});
  argv.push_back("--");
  argv.insert(argv.end(), bwrap.begin(), bwrap.end());
  return argv;
}

namespace {

Probe probe_with(const std::function<void()>& meanwhile) {
  Probe result;
  if (!is_available()) {
#ifdef __linux__
    result.detail = "bwrap is not on PATH";
    result.fix = "install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap)";
#else
    result.detail = "bubblewrap needs Linux";
    result.fix = "sandboxed sessions need Linux";
#endif
    return result;
  }
  char dir_template[] = "/tmp/hqt-probe-XXXXXX";
  if (!::mkdtemp(dir_template)) {
    result.detail = std::string("cannot create a directory in /tmp: ") + std::strerror(errno);
    result.fix = "make /tmp writable";
    return result;
  }
  std::string dir = dir_template;
  std::string error;
  int fd = -1;
  try {
    auto args = bwrap_argv(HarnessInfo{}, {"true"}, dir, SandboxPolicy{});
    std::string filter = ensure_seccomp_filter(seccomp_filter_path());
    fd = ::open(filter.c_str(), O_RDONLY);  // inherited by bwrap
    if (fd < 0) throw Error("cannot open the seccomp filter '" + filter + "'");
    args.insert(args.begin() + 1, {"--seccomp", std::to_string(fd)});
    int code = run_with_fd(args, &error, meanwhile);
    result.ok = code == 0;
    if (!result.ok && error.empty()) error = "bwrap exited with " + std::to_string(code);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (fd >= 0) ::close(fd);
  ::rmdir(dir.c_str());
  if (result.ok) return result;
  while (!error.empty() && (error.back() == '\n' || error.back() == ' ')) error.pop_back();
  result.detail = error;
  UsernsSettings settings;
  settings.apparmor_restrict_unprivileged_userns =
      static_cast<int>(read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"));
  settings.unprivileged_userns_clone =
      static_cast<int>(read_sysctl("/proc/sys/kernel/unprivileged_userns_clone"));
  settings.max_user_namespaces = read_sysctl("/proc/sys/user/max_user_namespaces");
  result.fix = probe_fix(error, settings);
  return result;
}

}  // namespace

Probe probe(const std::function<void()>& meanwhile) {
  bool ran = false;
  std::exception_ptr failed;
  auto once = [&] {
    if (ran) return;
    ran = true;
    try {
      if (meanwhile) meanwhile();
    } catch (...) {
      failed = std::current_exception();
    }
  };
  Probe result = probe_with(once);
  once();  // bwrap never started
  if (failed) std::rethrow_exception(failed);
  return result;
}

}  // namespace hqt::sandbox
