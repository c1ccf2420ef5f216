#include "adapters/tmux_client.h"

#include "core/error.h"

namespace hqt {
std::unique_ptr<Tmux> make_tmux(const std::string& socket_name) {
  throw Error("tmux adapter not built yet: " + socket_name);
}
}  // namespace hqt
