#include "cli/commands.h"
#include "core/error.h"

namespace hqt::cli {
int session_new(Context&, const Argv&) { throw Error("session new: not built yet"); }
int session_list(Context&, const Argv&) { throw Error("session list: not built yet"); }
int session_show(Context&, const Argv&) { throw Error("session show: not built yet"); }
int session_attach(Context&, const Argv&) { throw Error("session attach: not built yet"); }
int session_stop(Context&, const Argv&) { throw Error("session stop: not built yet"); }
int session_resume(Context&, const Argv&) { throw Error("session resume: not built yet"); }
int session_rm(Context&, const Argv&) { throw Error("session rm: not built yet"); }
int session_rename(Context&, const Argv&) { throw Error("session rename: not built yet"); }
}  // namespace hqt::cli
