#include "app/context.h"

#include "adapters/config_loader.h"
#include "adapters/paths.h"
#include "adapters/sqlite_store.h"
#include "adapters/tmux_client.h"
#include "core/error.h"

namespace hqt {

Context::Context(std::string config_override) : config_override_(std::move(config_override)) {}
Context::~Context() = default;

std::string Context::config_path() const { return paths::config_file(config_override_); }
std::string Context::db_path() const { return paths::db_file(); }

const Config& Context::config() {
  if (!config_) config_ = std::make_unique<Config>(load_config(config_path()));
  return *config_;
}

std::string Context::tmux_socket() {
  std::string socket = paths::env("HQT_TMUX_SOCKET");
  return socket.empty() ? config().tmux_socket : socket;
}

std::vector<std::string> Context::plugin_dirs() {
  auto dirs = paths::default_plugin_dirs();
  for (const auto& dir : config().plugin_dirs) dirs.push_back(paths::expand_home(dir));
  return dirs;
}

Store& Context::store() {
  if (!store_) store_ = open_sqlite_store(db_path());
  return *store_;
}

PluginHost& Context::plugins() {
  if (!plugins_) plugins_ = std::make_unique<PluginHost>(plugin_dirs(), config().harnesses);
  return *plugins_;
}

SessionService& Context::sessions() {
  if (!sessions_) {
    auto wrap = [](const HarnessInfo&, const std::vector<std::string>&, const std::string&,
                   const SandboxPolicy&) -> std::vector<std::string> {
      throw Error("bubblewrap (bwrap) is not available; cannot start a sandboxed session");
    };
    sessions_ = std::make_unique<SessionService>(store(), tmux(), plugins(), wrap);
  }
  return *sessions_;
}

Tmux& Context::tmux() {
  if (!tmux_) tmux_ = make_tmux(tmux_socket());
  return *tmux_;
}

}  // namespace hqt
