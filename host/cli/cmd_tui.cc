#include <unistd.h>

#include <iostream>

#include "cli/commands.h"
#include "core/error.h"
#include "tui/app.h"
#include "tui/terminal.h"

namespace hqt::cli {

int tui(Context& ctx, const Argv& args) {
  if (!args.empty()) throw UsageError("the terminal UI takes no arguments");
  if (!::isatty(STDOUT_FILENO) || !::isatty(STDIN_FILENO)) {
    std::cerr << "hqt: not a terminal: the terminal UI needs one (see hqt --help for the "
                 "commands)\n";
    return 2;
  }
  auto terminal = tui::open_ncurses_terminal();
  tui::App(ctx, *terminal).run();
  return 0;
}

}  // namespace hqt::cli
