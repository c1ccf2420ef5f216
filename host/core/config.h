#pragma once
// The user's configuration, as loaded from YAML by the config adapter.
#include <string>
#include <vector>

#include "core/types.h"

namespace hqt {

// A harness declared in the config file (served by the generic plugin).
struct CommandHarness {
  std::string name;
  std::string display_name;
  std::vector<std::string> command;
  std::vector<std::string> skip_permission_flags;
  std::vector<Bind> binds;
  std::vector<std::string> env;
};

struct Config {
  std::string path;  // the file it came from ("" when none existed)
  std::vector<std::string> plugin_dirs;
  std::string tmux_socket = "hqt";
  std::vector<CommandHarness> harnesses;
};

}  // namespace hqt
