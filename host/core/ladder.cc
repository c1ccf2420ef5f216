#include "core/ladder.h"

namespace hqt {

std::vector<Rung> plan_ladder(bool pane_alive, bool can_resume) {
  if (pane_alive) return {Rung::attach};
  if (can_resume) return {Rung::resume, Rung::fresh};
  return {Rung::fresh};
}

}  // namespace hqt
