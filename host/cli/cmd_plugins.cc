#include "cli/commands.h"
#include "core/error.h"

namespace hqt::cli {
int plugins_list(Context&, const Argv&) { throw Error("plugins list: not built yet"); }
}  // namespace hqt::cli
