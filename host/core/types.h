#pragma once
// Domain types shared by the core and the adapters. Plain data, no I/O.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hqt {

enum class Status { working, waiting, idle, stopped };
std::string_view to_string(Status status);

// What a harness's screen parser says; `unknown` falls back to pane activity.
enum class PaneStatus { unknown, working, waiting, idle };

enum class FsMode { rw, ro };
std::string_view to_string(FsMode mode);

// Per-session sandbox settings. Defaults are the reference spec's: read-write, network on.
struct SandboxPolicy {
  FsMode fs = FsMode::rw;
  bool net = true;
  bool operator==(const SandboxPolicy&) const = default;
};

// A host path exposed inside the sandbox at the same place. `path` may start with "~/".
struct Bind {
  std::string path;
  bool is_file = false;
  bool writable = false;
  bool create = false;  // create on the host when missing
  bool operator==(const Bind&) const = default;
};

// What a plugin declares about one harness.
struct HarnessInfo {
  std::string name;
  std::string display_name;
  std::string executable;
  bool captures_session_id = false;
  std::vector<std::string> skip_permission_flags;
  std::vector<Bind> binds;
  std::vector<std::string> sandbox_env;
};

struct Project {
  int64_t id = 0;
  std::string name;
  std::string path;        // canonical, absolute
  int64_t created_at = 0;  // unix seconds
};

struct Session {
  int64_t id = 0;
  int64_t project_id = 0;
  std::string project;  // project name (joined for display)
  std::string harness;
  std::string nickname;
  std::string model;
  std::optional<SandboxPolicy> sandbox;  // nullopt = not sandboxed
  std::string tmux_session;              // "hqt-<id>"
  std::string harness_session_id;        // "" until known
  int64_t created_at = 0;                // unix seconds
};

}  // namespace hqt
