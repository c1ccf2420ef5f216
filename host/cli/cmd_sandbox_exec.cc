// hqt sandbox-exec --seccomp FILE [--env NAME]... -- BWRAP [ARG]...
// The first process of a sandboxed pane (see adapters/sandbox_host.h). It cuts the environment
// down to the allowlist, opens the seccomp filter for bwrap and becomes bwrap, so nothing
// unsandboxed is left in the pane: when the sandboxed program ends, the pane ends.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "adapters/paths.h"
#include "adapters/sandbox_seccomp.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/sandbox.h"

extern char** environ;

namespace hqt::cli {

int sandbox_exec(Context&, const Argv& args) {
  std::string filter;
  std::vector<std::string> declared;
  size_t i = 0;
  for (; i < args.size() && args[i] != "--"; ++i) {
    bool has_value = i + 1 < args.size() && args[i + 1] != "--";
    if (args[i] == "--seccomp" && has_value)
      filter = args[++i];
    else if (args[i] == "--env" && has_value)
      declared.push_back(args[++i]);
    else
      throw UsageError("sandbox-exec: unexpected argument '" + args[i] + "'");
  }
  if (i + 1 >= args.size()) throw UsageError("sandbox-exec needs the bwrap command after '--'");
  if (filter.empty()) throw UsageError("sandbox-exec needs --seccomp FILE");
  std::vector<std::string> argv(args.begin() + static_cast<long>(i) + 1, args.end());
  if (argv[0].find('/') == std::string::npos) {
    std::string found = paths::which(argv[0]);
    if (found.empty()) throw Error("cannot start the sandbox: '" + argv[0] + "' is not on PATH");
    argv[0] = found;
  }

  // Never start without the filter: regenerate it when it is gone.
  sandbox::ensure_seccomp_filter(filter);
  int fd = ::open(filter.c_str(), O_RDONLY);  // no O_CLOEXEC: bwrap reads it
  if (fd < 0)
    throw Error("cannot open the seccomp filter '" + filter + "': " + std::strerror(errno));
  argv.insert(argv.begin() + 1, {"--seccomp", std::to_string(fd)});

  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e) environment.emplace_back(*e);
  environment = sandbox::filter_env(environment, declared);

  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  for (auto& e : environment) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  ::execve(cargv[0], cargv.data(), cenv.data());
  int err = errno;
  ::close(fd);
  throw Error("cannot start the sandbox '" + argv[0] + "': " + std::strerror(err));
}

}  // namespace hqt::cli
