#include "cli/commands.h"
#include "core/error.h"

namespace hqt::cli {
int sandbox_exec(Context&, const Argv&) { throw Error("sandbox-exec: not built yet"); }
}  // namespace hqt::cli
