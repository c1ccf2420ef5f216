#pragma once
// One function per CLI command. Each returns the exit code (0 ok, 1 failure, 2 bad usage) and
// may throw UsageError / Error, which main() turns into a message and exit code 2 / 1.
#include <string>
#include <vector>

#include "app/context.h"

namespace hqt::cli {

using Argv = std::vector<std::string>;

int doctor(Context& ctx, const Argv& args);
int plugins_list(Context& ctx, const Argv& args);
int project_add(Context& ctx, const Argv& args);
int project_list(Context& ctx, const Argv& args);
int project_rm(Context& ctx, const Argv& args);
int session_new(Context& ctx, const Argv& args);
int session_list(Context& ctx, const Argv& args);
int session_show(Context& ctx, const Argv& args);
int session_attach(Context& ctx, const Argv& args);
int session_stop(Context& ctx, const Argv& args);
int session_resume(Context& ctx, const Argv& args);
int session_rm(Context& ctx, const Argv& args);
int session_rename(Context& ctx, const Argv& args);
int tui(Context& ctx, const Argv& args);
// Internal: the first process of a sandboxed pane; prepares and execs bwrap (see sandbox_host.h).
int sandbox_exec(Context& ctx, const Argv& args);

}  // namespace hqt::cli
