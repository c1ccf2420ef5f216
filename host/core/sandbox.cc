#include "core/sandbox.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"

namespace hqt::sandbox {

namespace {

// Lexical only: no path here is looked up on disk.
std::string normal(const std::string& path) {
  std::string out = std::filesystem::path(path).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

bool is_absolute(const std::string& path) { return !path.empty() && path[0] == '/'; }

// `path` is `dir` or lies below it.
bool is_under(const std::string& path, const std::string& dir) {
  if (dir == "/") return is_absolute(path);
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         path[dir.size()] == '/');
}

// Showing `path` would show the whole home directory: it is $HOME or one of its parents.
bool shows_home(const std::string& path, const std::string& home) { return is_under(home, path); }

enum class Kind { ro_bind, bind, symlink };

// One mount after the base layer. They are applied parents first, so a later, deeper mount
// is never hidden by a shallower one.
struct Mount {
  std::string dest;
  std::string source;  // the link text for a symlink
  Kind kind;
  int rank;  // for the same `dest`, the higher rank wins
};

}  // namespace

const std::vector<std::string>& system_dirs() {
  static const std::vector<std::string> dirs{"/usr",   "/bin",   "/sbin",   "/lib",
                                             "/lib32", "/lib64", "/libx32", "/etc"};
  return dirs;
}

std::vector<std::string> wrap(const std::vector<std::string>& command, const std::string& cwd_in,
                              const SandboxPolicy& policy, const std::vector<MountBind>& binds,
                              const Facts& facts) {
  const std::string home = is_absolute(facts.home) ? normal(facts.home) : "";
  if (home.empty() || home == "/")
    throw Error("cannot sandbox with the home directory '" + facts.home +
                "': it must be an absolute path other than '/'");
  if (!is_absolute(cwd_in))
    throw Error("cannot sandbox in '" + cwd_in + "': the project directory must be absolute");
  const std::string cwd = normal(cwd_in);
  if (shows_home(cwd, home))
    throw Error("refusing to sandbox the project directory '" + cwd +
                "': it would show the whole home directory '" + home + "'");

  std::vector<std::string> args{facts.bwrap, "--unshare-all"};
  if (policy.net) args.push_back("--share-net");
  // Without a user namespace of its own, bwrap run by root keeps every capability inside.
  args.push_back("--unshare-user");
  if (facts.disable_userns) args.push_back("--disable-userns");
  args.insert(args.end(), {"--cap-drop", "ALL", "--die-with-parent"});

  // What is already visible read-only through the base layer.
  std::vector<std::string> visible;
  bool have_etc = false;
  for (const auto& dir : facts.system) {
    if (!dir.symlink_target.empty()) {
      args.insert(args.end(), {"--symlink", dir.symlink_target, dir.path});
      std::string target =
          dir.symlink_target[0] == '/'
              ? dir.symlink_target
              : std::filesystem::path(dir.path).parent_path().string() + "/" + dir.symlink_target;
      visible.push_back(dir.path);
      visible.push_back(normal(target));
    } else {
      args.insert(args.end(), {"--ro-bind", dir.path, dir.path});
      visible.push_back(dir.path);
      if (dir.path == "/etc") have_etc = true;
    }
  }
  if (have_etc) {
    // Secrets in /etc (shadow, private keys) are unreadable to ordinary users but readable to
    // root, whose uid the sandbox keeps: cover them.
    for (const auto& file : facts.etc_secret_files)
      if (is_under(file, "/etc")) args.insert(args.end(), {"--ro-bind", "/dev/null", file});
    for (const auto& dir : facts.etc_secret_dirs)
      if (is_under(dir, "/etc") && dir != "/etc") args.insert(args.end(), {"--tmpfs", dir});
  }
  // bwrap leaves /proc/sys writable when the directory itself reports EACCES, which lets root
  // (unmapped uid 0) change host sysctls such as kernel.core_pattern: cover it read-only.
  args.insert(args.end(), {"--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev",
                           "/dev", "--tmpfs", "/tmp", "--tmpfs", home});

  std::vector<Mount> mounts;
  auto add_bind = [&](const std::string& dest_in, const std::string& source_in, bool writable,
                      int rank) {
    if (!is_absolute(dest_in) || !is_absolute(source_in)) return;
    std::string dest = normal(dest_in), source = normal(source_in);
    if (shows_home(dest, home) || shows_home(source, home)) return;
    mounts.push_back({dest, source, writable ? Kind::bind : Kind::ro_bind, rank});
  };
  for (const auto& bind : binds)
    add_bind(bind.path, bind.source, bind.writable, bind.writable ? 2 : 1);
  if (!facts.gitconfig.empty()) add_bind(home + "/.gitconfig", facts.gitconfig, false, 1);
  if (policy.net && is_absolute(facts.resolv_conf_link) && !facts.resolv_conf_real.empty() &&
      !is_under(normal(facts.resolv_conf_link), "/etc"))
    add_bind(facts.resolv_conf_link, facts.resolv_conf_real, false, 1);
  add_bind(cwd, cwd, policy.fs == FsMode::rw, 3);

  auto shown = [&](const std::string& path) {
    return std::any_of(visible.begin(), visible.end(),
                       [&](const std::string& v) { return is_under(path, v); }) ||
           std::any_of(mounts.begin(), mounts.end(),
                       [&](const Mount& m) { return is_under(path, m.dest); });
  };
  for (const auto& tool : facts.tools) {
    if (!is_absolute(tool.real)) continue;
    std::string root = is_absolute(tool.root) && !shows_home(normal(tool.root), home)
                           ? normal(tool.root)
                           : normal(tool.real);
    if (!shown(root)) add_bind(root, root, false, 1);
  }

  // A tool found through a symlink outside what is shown (~/.local/bin/claude) gets that
  // symlink back, pointing straight at the real file, so PATH lookups and argv[0] work.
  for (const auto& tool : facts.tools) {
    if (!is_absolute(tool.path) || !is_absolute(tool.real)) continue;
    std::string path = normal(tool.path), real = normal(tool.real);
    if (path == real || shows_home(path, home)) continue;
    if (shown(path)) continue;
    mounts.push_back({path, real, Kind::symlink, 0});
  }

  std::stable_sort(mounts.begin(), mounts.end(), [](const Mount& a, const Mount& b) {
    if (a.dest != b.dest) return a.dest < b.dest;  // a parent sorts before its children
    return a.rank > b.rank;
  });
  for (size_t i = 0; i < mounts.size(); ++i) {
    const Mount& m = mounts[i];
    if (i > 0 && mounts[i - 1].dest == m.dest) continue;
    const char* option = m.kind == Kind::bind      ? "--bind"
                         : m.kind == Kind::ro_bind ? "--ro-bind"
                                                   : "--symlink";
    args.insert(args.end(), {option, m.source, m.dest});
  }

  // Claude Code accepts its skip-permissions flag as root only when told it is sandboxed.
  // Secrets never go through --setenv: argv is readable in /proc/*/cmdline.
  args.insert(args.end(), {"--setenv", "IS_SANDBOX", "1", "--unsetenv", "TMUX", "--unsetenv",
                           "TMUX_PANE", "--chdir", cwd, "--"});
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

bool env_allowed(std::string_view name, const std::vector<std::string>& declared) {
  if (name.empty() || name == "TMUX" || name == "TMUX_PANE") return false;
  static const std::string_view fixed[] = {"PATH", "HOME",    "TERM",  "COLORTERM", "LANG",
                                           "USER", "LOGNAME", "SHELL", "TZ"};
  if (std::find(std::begin(fixed), std::end(fixed), name) != std::end(fixed)) return true;
  if (name.substr(0, 3) == "LC_") return true;
  return std::find(declared.begin(), declared.end(), name) != declared.end();
}

std::vector<std::string> filter_env(const std::vector<std::string>& environment,
                                    const std::vector<std::string>& declared) {
  std::vector<std::string> out;
  for (const auto& entry : environment) {
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    if (env_allowed(std::string_view(entry).substr(0, eq), declared)) out.push_back(entry);
  }
  return out;
}

Shebang parse_shebang(std::string_view head) {
  Shebang result;
  if (head.substr(0, 2) != "#!") return result;
  head.remove_prefix(2);
  head = head.substr(0, head.find('\n'));
  std::vector<std::string> words;
  size_t i = 0;
  while (i < head.size()) {
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r')) ++i;
    size_t start = i;
    while (i < head.size() && head[i] != ' ' && head[i] != '\t' && head[i] != '\r') ++i;
    if (i > start) words.emplace_back(head.substr(start, i - start));
  }
  if (words.empty()) return result;
  result.interpreter = words[0];
  if (std::filesystem::path(words[0]).filename() != "env") return result;
  // env [-i] [-S] [-u NAME] [NAME=VALUE]... PROGRAM [ARG]...
  for (size_t w = 1; w < words.size(); ++w) {
    const std::string& word = words[w];
    if (word == "-u" || word == "--unset" || word == "-C" || word == "--chdir") {
      ++w;
      continue;
    }
    if (word[0] == '-' || word.find('=') != std::string::npos) continue;
    result.program = word;
    break;
  }
  return result;
}

std::string tool_root(const std::string& real_in, const std::string& home_in,
                      const std::function<bool(const std::string& dir)>& is_package_dir) {
  const std::string real = normal(real_in), home = normal(home_in);
  auto allowed = [&](const std::string& dir) { return dir != "/" && !shows_home(dir, home); };
  std::filesystem::path p(real);
  for (auto dir = p.parent_path(); dir.has_relative_path() && allowed(dir.string());
       dir = dir.parent_path()) {
    if (!is_package_dir(dir.string())) continue;
    // Hoisted dependencies sit next to the package: show the outermost node_modules.
    std::string outermost;
    for (auto up = dir.parent_path(); up.has_relative_path() && allowed(up.string());
         up = up.parent_path())
      if (up.filename() == "node_modules") outermost = up.string();
    return outermost.empty() ? dir.string() : outermost;
  }
  auto bin = p.parent_path();
  if (bin.filename() == "bin") {
    std::string prefix = bin.parent_path().string();
    if (allowed(prefix) && prefix != home + "/.local") return prefix;
  }
  return real;
}

std::string probe_fix(std::string_view error, const UsernsSettings& settings) {
  if (settings.apparmor_restrict_unprivileged_userns == 1)
    return "AppArmor blocks unprivileged user namespaces (Ubuntu 23.10 and later): run `sudo "
           "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (and put it in "
           "/etc/sysctl.d/ to keep it), or give bwrap an AppArmor profile that allows `userns,`";
  if (settings.unprivileged_userns_clone == 0)
    return "unprivileged user namespaces are disabled: run `sudo sysctl -w "
           "kernel.unprivileged_userns_clone=1` (and put it in /etc/sysctl.d/ to keep it)";
  if (settings.max_user_namespaces == 0)
    return "user namespaces are disabled: run `sudo sysctl -w user.max_user_namespaces=15000` "
           "(and put it in /etc/sysctl.d/ to keep it)";
  if (error.find("Unknown option") != std::string_view::npos ||
      error.find("Unknown action") != std::string_view::npos)
    return "this bubblewrap is too old for hqt: install bubblewrap 0.4 or later";
  return "bubblewrap could not create its namespaces: check that unprivileged user namespaces "
         "work (`unshare --user --map-root-user true`) and that no security module blocks bwrap";
}

}  // namespace hqt::sandbox
