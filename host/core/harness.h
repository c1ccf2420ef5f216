#pragma once
// A harness as the host uses it. The plugin loader implements it on top of the C ABI; tests may
// implement it directly.
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace hqt {

struct ArgvRequest {
  std::string project_dir;
  std::string session_id;  // "" when none is known
  std::string model;       // "" when none was chosen
  bool sandboxed = false;
};

struct CaptureRequest {
  std::string project_dir;
  double started_at = 0;                // unix seconds, just before the spawn
  std::vector<std::string> taken_ids;   // ids other sessions already own
  std::vector<std::string> open_files;  // what the session's processes hold open
};

class Harness {
 public:
  virtual ~Harness() = default;
  virtual const HarnessInfo& info() const = 0;
  // The id to start with, or "" when the harness assigns its own. Throws Error.
  virtual std::string generate_session_id() const = 0;
  // Throws Error when the plugin fails.
  virtual std::vector<std::string> spawn_argv(const ArgvRequest& request) const = 0;
  // Empty when the harness cannot resume this session. Throws Error when the plugin fails.
  virtual std::vector<std::string> resume_argv(const ArgvRequest& request) const = 0;
  virtual PaneStatus parse_status(std::string_view pane_text) const = 0;
  // "" when not (yet) found.
  virtual std::string capture_session_id(const CaptureRequest& request) const = 0;
};

// All loaded harnesses by name. Owned by the plugin loader.
class HarnessRegistry {
 public:
  virtual ~HarnessRegistry() = default;
  virtual const Harness* find(std::string_view name) const = 0;
  virtual std::vector<const Harness*> all() const = 0;
};

}  // namespace hqt
