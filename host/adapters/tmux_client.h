#pragma once
#include <memory>
#include <string>

#include "core/tmux.h"

namespace hqt {

// The private tmux server on socket `socket_name` (tmux -L), driven through Poco::Process.
std::unique_ptr<Tmux> make_tmux(const std::string& socket_name);

}  // namespace hqt
