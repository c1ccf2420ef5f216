#pragma once
// The attach/resume ladder: which rungs to try, in order, to bring a session to a live pane.
#include <vector>

namespace hqt {

enum class Rung {
  attach,  // the pane is alive: use it as it is
  resume,  // respawn with the harness's resume argv, then check it stays up
  fresh,   // respawn with the spawn argv (a new conversation)
};

std::vector<Rung> plan_ladder(bool pane_alive, bool can_resume);

}  // namespace hqt
