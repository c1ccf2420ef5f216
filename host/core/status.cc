#include "core/status.h"

namespace hqt {

Status decide_status(bool pane_alive, PaneStatus parsed, int64_t last_activity, int64_t now) {
  if (!pane_alive) return Status::stopped;
  switch (parsed) {
    case PaneStatus::working:
      return Status::working;
    case PaneStatus::waiting:
      return Status::waiting;
    case PaneStatus::idle:
      return Status::idle;
    case PaneStatus::unknown:
      break;
  }
  return now - last_activity <= kActivityWindowSeconds ? Status::working : Status::idle;
}

}  // namespace hqt
