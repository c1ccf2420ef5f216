// hqt: manage AI coding-agent sessions in tmux, optionally sandboxed with bubblewrap.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/error.h"

namespace {

using hqt::cli::Argv;
using CommandFn = int (*)(hqt::Context&, const Argv&);

struct Command {
  const char* group;  // "" for a top-level command
  const char* name;
  CommandFn run;
  const char* summary;  // nullptr: internal, not listed in --help
};

const Command kCommands[] = {
    {"", "doctor", hqt::cli::doctor, "check tmux, bubblewrap, harnesses, plugins, paths"},
    {"plugins", "list", hqt::cli::plugins_list, "list plugin files and their harnesses"},
    {"project", "add", hqt::cli::project_add, "register a project directory"},
    {"project", "list", hqt::cli::project_list, "list projects"},
    {"project", "rm", hqt::cli::project_rm, "remove a project"},
    {"session", "new", hqt::cli::session_new, "start a session of a harness in a project"},
    {"session", "list", hqt::cli::session_list, "list sessions with their status"},
    {"session", "show", hqt::cli::session_show, "show a session and the command it runs"},
    {"session", "attach", hqt::cli::session_attach, "attach the terminal to a session"},
    {"session", "stop", hqt::cli::session_stop, "stop a session (keeps its conversation)"},
    {"session", "resume", hqt::cli::session_resume, "bring a stopped session back"},
    {"session", "rm", hqt::cli::session_rm, "stop and delete a session"},
    {"session", "rename", hqt::cli::session_rename, "change a session's nickname"},
    {"", "sandbox-exec", hqt::cli::sandbox_exec, nullptr},
};

void print_help(std::ostream& out) {
  out << "usage: hqt [--config FILE] [COMMAND]\n\n"
         "Without a command, hqt starts its terminal UI.\n\ncommands:\n";
  for (const auto& c : kCommands) {
    if (!c.summary) continue;
    std::string left = std::string(c.group) + (c.group[0] ? " " : "") + c.name;
    left.resize(18, ' ');
    out << "  " << left << c.summary << "\n";
  }
  out << "  version           print the version\n\n"
         "Add --help to a command for its options; --json to a listing for JSON.\n";
}

int run(Argv args) {
  std::string config_override;
  while (!args.empty() && args[0].rfind("--config", 0) == 0) {
    if (args[0] == "--config") {
      if (args.size() < 2) throw hqt::UsageError("--config needs a FILE");
      config_override = args[1];
      args.erase(args.begin(), args.begin() + 2);
    } else if (args[0].rfind("--config=", 0) == 0) {
      config_override = args[0].substr(9);
      args.erase(args.begin());
    } else {
      break;
    }
  }
  hqt::Context ctx(config_override);
  if (!config_override.empty()) ctx.config();  // a file named on the command line must be good
  if (args.empty()) return hqt::cli::tui(ctx, args);
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    print_help(std::cout);
    return 0;
  }
  if (first == "version" || first == "--version") {
    std::cout << "hqt " << HQT_VERSION << "\n";
    return 0;
  }
  for (const auto& c : kCommands) {
    if (c.group[0] == 0 && first == c.name) return c.run(ctx, Argv(args.begin() + 1, args.end()));
  }
  bool known_group = false;
  for (const auto& c : kCommands) {
    if (first != c.group) continue;
    known_group = true;
    if (args.size() >= 2 && args[1] == c.name)
      return c.run(ctx, Argv(args.begin() + 2, args.end()));
  }
  if (known_group) {
    std::string names;
    for (const auto& c : kCommands)
      if (first == c.group) names += std::string(names.empty() ? "" : ", ") + c.name;
    std::string what = args.size() >= 2 ? "unknown command '" + first + " " + args[1] + "'"
                                        : "'" + first + "' needs a command";
    throw hqt::UsageError(what + " (one of: " + names + ")");
  }
  throw hqt::UsageError("unknown command '" + first + "' (see hqt --help)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(Argv(argv + 1, argv + argc));
  } catch (const hqt::UsageError& e) {
    std::cerr << "hqt: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hqt: " << e.what() << "\n";
    return 1;
  }
}
