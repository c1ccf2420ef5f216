#include "adapters/paths.h"

#include <Poco/File.h>
#include <Poco/Path.h>
#include <Poco/StringTokenizer.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace hqt::paths {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

std::string home() {
  std::string h = env("HOME");
  if (h.empty()) h = Poco::Path::home();
  while (h.size() > 1 && h.back() == '/') h.pop_back();
  return h;
}

std::string expand_home(const std::string& path) {
  if (path == "~") return home();
  if (path.rfind("~/", 0) == 0) return home() + path.substr(1);
  return path;
}

static std::string xdg(const char* name, const char* fallback) {
  std::string dir = env(name);
  return dir.empty() ? home() + "/" + fallback : dir;
}

std::string config_file(const std::string& override_path) {
  if (!override_path.empty()) return override_path;
  std::string from_env = env("HQT_CONFIG");
  if (!from_env.empty()) return from_env;
  return xdg("XDG_CONFIG_HOME", ".config") + "/hqt/config.yaml";
}

std::string data_dir() { return xdg("XDG_DATA_HOME", ".local/share") + "/hqt"; }
std::string state_dir() { return xdg("XDG_STATE_HOME", ".local/state") + "/hqt"; }
std::string db_file() { return data_dir() + "/hqt.db"; }

std::vector<std::string> default_plugin_dirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto dir = (exe.parent_path().parent_path() / HQT_PLUGIN_SUBDIR).lexically_normal();
    dirs.push_back(dir.string());
  }
  dirs.push_back(home() + "/.local/lib/hqt/plugins");
  return dirs;
}

std::string which(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
  Poco::StringTokenizer dirs(env("PATH"), ":", Poco::StringTokenizer::TOK_IGNORE_EMPTY);
  for (const auto& dir : dirs) {
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate))
      return candidate;
  }
  return "";
}

}  // namespace hqt::paths
