#include "app/context.h"

#include <filesystem>
#include <future>

#include "adapters/config_loader.h"
#include "adapters/paths.h"
#include "adapters/sandbox_host.h"
#include "adapters/sqlite_store.h"
#include "adapters/tmux_client.h"
#include "core/error.h"

namespace hqt {

Context::Context(std::string config_override) : config_override_(std::move(config_override)) {}
Context::~Context() = default;

std::string Context::config_path() const { return paths::config_file(config_override_); }
std::string Context::db_path() const { return paths::db_file(); }

const Config& Context::config() {
  if (!config_) {
    std::string path = config_path();
    // The default file may be absent; a file named with --config or HQT_CONFIG must exist.
    bool named = !config_override_.empty() || !paths::env("HQT_CONFIG").empty();
    if (named && !std::filesystem::exists(path))
      throw UsageError("config file " + path + " does not exist");
    config_ = std::make_unique<Config>(load_config(path));
  }
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
    // The plugins load while the store opens: a command that needs sessions needs both.
    config();
    auto loading = std::async(std::launch::async, [this] { plugins(); });
    store();
    loading.get();
    sessions_ = std::make_unique<SessionService>(
        store(), tmux(), plugins(),
        [](const HarnessInfo& harness, const std::vector<std::string>& command,
           const std::string& project_dir, const SandboxPolicy& policy, bool prepare) {
          return sandbox::pane_argv(
              harness, command, project_dir, policy,
              prepare ? sandbox::MissingBinds::create : sandbox::MissingBinds::describe);
        });
  }
  return *sessions_;
}

Tmux& Context::tmux() {
  if (!tmux_) tmux_ = make_tmux(tmux_socket());
  return *tmux_;
}

}  // namespace hqt
