#pragma once
// The bubblewrap policy: which parts of the host a sandboxed session sees, as a bwrap argv.
// Pure: everything it needs to know about the host comes in as Facts, gathered by the adapter
// (adapters/sandbox_host.h). See docs/sandbox.md for the policy in prose.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace hqt::sandbox {

// The system directories shown read-only inside, in mount order. On a merged-/usr system most
// of them are symlinks into /usr and are recreated as such.
const std::vector<std::string>& system_dirs();

struct SystemDir {
  std::string path;            // one of system_dirs()
  std::string symlink_target;  // the link's text ("usr/bin") when `path` is a symlink, else ""
};

// An executable the harness needs to start: the harness itself or an interpreter from a `#!`.
struct Tool {
  std::string path;  // where it is looked up: the PATH hit or the `#!` path
  std::string real;  // `path` with every symlink resolved
  std::string root;  // what to show read-only so it runs: `real`, its package, its prefix
};

// A host path shown at the same place inside.
struct MountBind {
  std::string path;    // absolute path inside (the harness's declared path, `~` expanded)
  std::string source;  // the real host path it shows; "" when missing on the host (skipped)
  bool writable = false;
};

// What the adapter found out about the host.
struct Facts {
  std::string bwrap = "bwrap";                // the program to run
  std::string home;                           // absolute, not "/"; becomes an empty tmpfs inside
  std::vector<SystemDir> system;              // the system_dirs() present on the host
  std::vector<std::string> etc_secret_files;  // files under /etc that not everyone may read
  std::vector<std::string> etc_secret_dirs;   // directories under /etc that not everyone may read
  // Where /etc/resolv.conf points when it is a symlink leading out of /etc (systemd-resolved:
  // "/run/systemd/resolve/stub-resolv.conf"), and that file's real path; else "".
  std::string resolv_conf_link;
  std::string resolv_conf_real;
  std::vector<Tool> tools;
  std::string gitconfig;        // real path of ~/.gitconfig, "" when there is none
  bool disable_userns = false;  // bwrap understands --disable-userns (0.8.0 and later)
};

// The bwrap argv that runs `command` in `cwd` under `policy`: Facts::bwrap, options, "--",
// then `command`. Binds with an empty source are skipped, and so is any bind that would show
// $HOME (or one of its parents) as a whole. Throws Error when `cwd` is not absolute or would
// show the whole home directory, or when Facts::home is unusable.
std::vector<std::string> wrap(const std::vector<std::string>& command, const std::string& cwd,
                              const SandboxPolicy& policy, const std::vector<MountBind>& binds,
                              const Facts& facts);

// The environment variables that get into the sandbox: PATH, HOME, TERM, COLORTERM, LANG,
// LC_*, USER, LOGNAME, SHELL, TZ and the names the harness declares; never TMUX or TMUX_PANE.
bool env_allowed(std::string_view name, const std::vector<std::string>& declared);
// Keeps the allowed "NAME=VALUE" entries of `environment`, in order.
std::vector<std::string> filter_env(const std::vector<std::string>& environment,
                                    const std::vector<std::string>& declared);

// A script's `#!` line. `interpreter` is the path the kernel runs; when that is env(1)
// ("#!/usr/bin/env node"), `program` is the name env looks up on PATH, else "".
struct Shebang {
  std::string interpreter;
  std::string program;
};
// Parses the start of a file; an empty interpreter when it is not a `#!` script.
Shebang parse_shebang(std::string_view head);

// What to show read-only so that the executable at `real` (symlinks resolved) runs:
// - inside a package (the nearest parent for which `is_package_dir` holds, e.g. it has a
//   package.json): the outermost node_modules holding it, else the package itself;
// - else, in a ".../bin" directory: that install prefix, unless the prefix is $HOME, one of its
//   parents or ~/.local (which holds other programs' data);
// - else `real` alone.
// Directories at or above `home` are never considered.
std::string tool_root(const std::string& real, const std::string& home,
                      const std::function<bool(const std::string& dir)>& is_package_dir);

// Kernel settings that decide whether unprivileged user namespaces work; -1 when unknown.
struct UsernsSettings {
  int apparmor_restrict_unprivileged_userns = -1;  // kernel.apparmor_restrict_unprivileged_userns
  int unprivileged_userns_clone = -1;              // kernel.unprivileged_userns_clone (Debian)
  long max_user_namespaces = -1;                   // user.max_user_namespaces
};
// How to fix a bwrap that failed to start with `error`.
std::string probe_fix(std::string_view error, const UsernsSettings& settings);

}  // namespace hqt::sandbox
