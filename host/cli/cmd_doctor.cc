#include "cli/commands.h"
#include "core/error.h"

namespace hqt::cli {
int doctor(Context&, const Argv&) { throw Error("doctor: not built yet"); }
}  // namespace hqt::cli
