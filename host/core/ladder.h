#pragma once
// The attach/resume ladder: which rungs to try, in order, to bring a session to a live pane.
#include <string>
#include <vector>

namespace hqt {

enum class Rung {
  attach,  // the pane is alive: use it as it is
  resume,  // respawn with the harness's resume argv, then check it stays up
  fresh,   // respawn with the spawn argv (a new conversation)
};

std::vector<Rung> plan_ladder(bool pane_alive, bool can_resume);

// The conversation id to start a fresh rung with: the stored one is never dropped, so a harness
// that takes its id from hqt (claude --session-id) keeps it; otherwise the newly generated one.
std::string fresh_session_id(const std::string& stored, const std::string& generated);

}  // namespace hqt
