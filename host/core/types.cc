#include "core/types.h"

namespace hqt {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::working:
      return "working";
    case Status::waiting:
      return "waiting";
    case Status::idle:
      return "idle";
    case Status::stopped:
      return "stopped";
  }
  return "stopped";
}

std::string_view to_string(FsMode mode) { return mode == FsMode::ro ? "ro" : "rw"; }

}  // namespace hqt
