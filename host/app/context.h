#pragma once
// Everything a command needs, opened lazily: the config, the store, the plugins, tmux.
#include <memory>
#include <string>

#include "adapters/plugin_loader.h"
#include "app/session_service.h"
#include "core/config.h"
#include "core/store.h"
#include "core/tmux.h"

namespace hqt {

class Context {
 public:
  explicit Context(std::string config_override = "");
  ~Context();

  const Config& config();  // throws UsageError for a bad config file
  std::string config_path() const;
  std::string db_path() const;
  std::string tmux_socket();  // HQT_TMUX_SOCKET, else the config's tmux.socket, else "hqt"
  std::vector<std::string> plugin_dirs();  // defaults, then the config's plugin_dirs
  Store& store();
  PluginHost& plugins();
  Tmux& tmux();
  SessionService& sessions();

 private:
  std::string config_override_;
  std::unique_ptr<Config> config_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<PluginHost> plugins_;
  std::unique_ptr<Tmux> tmux_;
  std::unique_ptr<SessionService> sessions_;
};

}  // namespace hqt
