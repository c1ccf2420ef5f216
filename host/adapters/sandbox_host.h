#pragma once
// The host side of the sandbox: whether bubblewrap works here, the facts core/sandbox.h needs,
// and the argv a sandboxed pane runs. See docs/sandbox.md.
#include <functional>
#include <string>
#include <vector>

#include "core/sandbox.h"
#include "core/types.h"

namespace hqt::sandbox {

// Linux with bwrap on PATH. The one answer doctor, the CLI and the TUI all use.
bool is_available();
// The absolute path of bwrap on PATH, "" when it is missing.
std::string bwrap_path();

struct Probe {
  bool ok = false;
  std::string detail;  // bwrap's error when it failed
  std::string fix;     // how to make it work
};
// Runs `true` in a real sandbox built exactly as for a session (namespaces, mounts, seccomp).
// `meanwhile` runs once on this thread while bwrap does (or, when bwrap cannot be started, before
// this returns); an exception from it is rethrown once bwrap has been waited for.
Probe probe(const std::function<void()>& meanwhile = {});

// What to do with a harness's create-if-missing binds that are missing on the host: create them
// (a session is about to start) or only show them as they will be (`hqt session show`).
enum class MissingBinds { create, describe };

// The argv a sandboxed pane runs: `<hqt> sandbox-exec --seccomp FILE [--env NAME]... -- bwrap
// ... -- <command>`. sandbox-exec clears the environment down to the allowlist plus the
// harness's declared names and execs bwrap with the seccomp filter as an fd, so nothing
// unsandboxed is left in the pane. Creates the harness's missing create-if-missing binds
// under $HOME first (a ".json" file as "{}", other files empty, directories empty), unless
// `missing` says describe. Throws Error when bwrap is not available: it never returns an
// unsandboxed command.
std::vector<std::string> pane_argv(const HarnessInfo& harness,
                                   const std::vector<std::string>& command,
                                   const std::string& project_dir, const SandboxPolicy& policy,
                                   MissingBinds missing = MissingBinds::create);
// The same with another hqt program in the pane than the running one.
std::vector<std::string> pane_argv(const HarnessInfo& harness,
                                   const std::vector<std::string>& command,
                                   const std::string& project_dir, const SandboxPolicy& policy,
                                   const std::string& hqt_program,
                                   MissingBinds missing = MissingBinds::create);

// The pieces pane_argv is made of.
// Expands `~`, creates missing create-if-missing binds under $HOME (or, to describe, takes the
// path they will have) and finds the real path of each (an empty source when it is missing).
std::vector<MountBind> resolve_binds(const std::vector<Bind>& binds,
                                     MissingBinds missing = MissingBinds::create);
// Looks at the host: system dirs, /etc secrets, resolv.conf, $HOME, bwrap's version and where
// `command[0]`, $SHELL and their interpreters really live (relative paths are taken from
// project_dir).
Facts gather_facts(const std::vector<std::string>& command, const std::string& project_dir);
// The bwrap argv alone (no sandbox-exec, no seccomp fd).
std::vector<std::string> bwrap_argv(const HarnessInfo& harness,
                                    const std::vector<std::string>& command,
                                    const std::string& project_dir, const SandboxPolicy& policy,
                                    MissingBinds missing = MissingBinds::create);

}  // namespace hqt::sandbox
