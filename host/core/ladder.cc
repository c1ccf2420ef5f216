#include "core/ladder.h"

namespace hqt {

std::vector<Rung> plan_ladder(bool pane_alive, bool can_resume) {
  if (pane_alive) return {Rung::attach};
  if (can_resume) return {Rung::resume, Rung::fresh};
  return {Rung::fresh};
}

std::string fresh_session_id(const std::string& stored, const std::string& generated) {
  return stored.empty() ? generated : stored;
}

}  // namespace hqt
