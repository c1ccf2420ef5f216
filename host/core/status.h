#pragma once
// How a session's status is decided from what tmux and the harness's screen parser say.
#include <cstdint>

#include "core/types.h"

namespace hqt {

// Output within this many seconds counts as "working" when the parser cannot tell.
constexpr int64_t kActivityWindowSeconds = 3;

// `pane_alive`: the session's tmux pane exists and its process has not exited.
// `parsed`: the plugin's reading of the screen. `last_activity`, `now`: unix seconds.
Status decide_status(bool pane_alive, PaneStatus parsed, int64_t last_activity, int64_t now);

}  // namespace hqt
