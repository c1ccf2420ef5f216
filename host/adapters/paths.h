#pragma once
// Where hqt keeps things (XDG base directories) and where it finds its plugins.
#include <string>
#include <vector>

namespace hqt::paths {

// $NAME, treating an empty value as unset.
std::string env(const char* name);
std::string home();
// Expands a leading "~/" (or a lone "~") to home().
std::string expand_home(const std::string& path);

// --config FILE, else $HQT_CONFIG, else $XDG_CONFIG_HOME/hqt/config.yaml.
std::string config_file(const std::string& override_path = "");
std::string data_dir();   // $XDG_DATA_HOME/hqt
std::string state_dir();  // $XDG_STATE_HOME/hqt
std::string db_file();    // data_dir()/hqt.db

// The plugin dir next to the running program (../lib/hqt/plugins), in the build tree as in an
// install prefix; then ~/.local/lib/hqt/plugins.
std::vector<std::string> default_plugin_dirs();

// The absolute path of an executable found on $PATH, or "".
std::string which(const std::string& name);

}  // namespace hqt::paths
