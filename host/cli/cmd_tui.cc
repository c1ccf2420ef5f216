#include "cli/commands.h"
#include "core/error.h"

namespace hqt::cli {
int tui(Context&, const Argv&) { throw Error("the terminal UI is not built yet"); }
}  // namespace hqt::cli
