#include "cli/commands.h"
#include "core/error.h"

namespace hqt::cli {
int project_add(Context&, const Argv&) { throw Error("project add: not built yet"); }
int project_list(Context&, const Argv&) { throw Error("project list: not built yet"); }
int project_rm(Context&, const Argv&) { throw Error("project rm: not built yet"); }
}  // namespace hqt::cli
