#include "adapters/config_loader.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <regex>
#include <set>

#include "core/error.h"

namespace hqt {
namespace {

// Reads one config file; every error names file, line and key.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& key,
                         const std::string& what) const {
    std::string where = file_;
    if (node.Mark().line >= 0) where += ":" + std::to_string(node.Mark().line + 1);
    throw UsageError(where + ": " + (key.empty() ? "" : "key '" + key + "': ") + what);
  }

  void only_keys(const YAML::Node& map, const std::string& key,
                 const std::set<std::string>& allowed) const {
    if (!map.IsMap()) fail(map, key, "expected a mapping");
    for (const auto& item : map) {
      std::string name = item.first.Scalar();
      if (!allowed.count(name)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(item.first, key.empty() ? name : key + "." + name,
             "unknown key (known: " + list + ")");
      }
    }
  }

  std::string string(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key, "expected a string");
    return node.Scalar();
  }

  bool boolean(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key, "expected true or false");
    try {
      return node.as<bool>();
    } catch (const YAML::Exception&) {
      fail(node, key, "expected true or false, got '" + node.Scalar() + "'");
    }
  }

  std::vector<std::string> strings(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence()) fail(node, key, "expected a list of strings");
    std::vector<std::string> out;
    for (size_t i = 0; i < node.size(); ++i)
      out.push_back(string(node[i], key + "[" + std::to_string(i) + "]"));
    return out;
  }

  Bind bind(const YAML::Node& node, const std::string& key) const {
    Bind b;
    if (node.IsScalar()) {
      b.path = node.Scalar();
    } else {
      only_keys(node, key, {"path", "writable", "file", "create"});
      if (!node["path"]) fail(node, key, "a bind needs a 'path'");
      b.path = string(node["path"], key + ".path");
      if (node["writable"]) b.writable = boolean(node["writable"], key + ".writable");
      if (node["file"]) b.is_file = boolean(node["file"], key + ".file");
      if (node["create"]) b.create = boolean(node["create"], key + ".create");
    }
    if (b.path.empty() || (b.path[0] != '/' && b.path.rfind("~/", 0) != 0))
      fail(node, key, "path '" + b.path + "' must be absolute or start with ~/");
    return b;
  }

  CommandHarness harness(const YAML::Node& node, const std::string& key) const {
    only_keys(node, key,
              {"name", "command", "display_name", "skip_permission_flags", "binds", "env"});
    CommandHarness h;
    if (!node["name"]) fail(node, key, "a harness needs a 'name'");
    h.name = string(node["name"], key + ".name");
    static const std::regex kName("[a-z0-9][a-z0-9_-]*");
    if (!std::regex_match(h.name, kName))
      fail(node["name"], key + ".name",
           "'" + h.name + "' is not a valid name (lowercase letters, digits, - and _)");
    if (!node["command"]) fail(node, key, "a harness needs a 'command'");
    h.command = strings(node["command"], key + ".command");
    if (h.command.empty() || h.command[0].empty())
      fail(node["command"], key + ".command", "the command is empty");
    if (node["display_name"]) h.display_name = string(node["display_name"], key + ".display_name");
    if (node["skip_permission_flags"])
      h.skip_permission_flags =
          strings(node["skip_permission_flags"], key + ".skip_permission_flags");
    if (node["binds"]) {
      const auto& binds = node["binds"];
      if (!binds.IsSequence()) fail(binds, key + ".binds", "expected a list");
      for (size_t i = 0; i < binds.size(); ++i)
        h.binds.push_back(bind(binds[i], key + ".binds[" + std::to_string(i) + "]"));
    }
    if (node["env"]) h.env = strings(node["env"], key + ".env");
    return h;
  }

  Config read(const YAML::Node& root) const {
    Config config;
    config.path = file_;
    if (root.IsNull()) return config;  // an empty file
    only_keys(root, "", {"plugin_dirs", "tmux", "harnesses"});
    if (root["plugin_dirs"]) config.plugin_dirs = strings(root["plugin_dirs"], "plugin_dirs");
    if (root["tmux"]) {
      only_keys(root["tmux"], "tmux", {"socket"});
      if (root["tmux"]["socket"]) {
        config.tmux_socket = string(root["tmux"]["socket"], "tmux.socket");
        if (config.tmux_socket.empty() || config.tmux_socket.find('/') != std::string::npos)
          fail(root["tmux"]["socket"], "tmux.socket",
               "'" + config.tmux_socket + "' is not a socket name");
      }
    }
    if (root["harnesses"]) {
      const auto& list = root["harnesses"];
      if (!list.IsSequence()) fail(list, "harnesses", "expected a list");
      std::set<std::string> seen;
      for (size_t i = 0; i < list.size(); ++i) {
        std::string key = "harnesses[" + std::to_string(i) + "]";
        auto h = harness(list[i], key);
        if (!seen.insert(h.name).second)
          fail(list[i]["name"], key + ".name", "harness '" + h.name + "' is declared twice");
        config.harnesses.push_back(std::move(h));
      }
    }
    return config;
  }

 private:
  std::string file_;
};

}  // namespace

Config load_config(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Config{};
  if (std::filesystem::is_directory(path, ec)) throw UsageError(path + ": is a directory");
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw UsageError(path + ": cannot be read");
  } catch (const YAML::ParserException& e) {
    throw UsageError(path + ":" + std::to_string(e.mark.line + 1) +
                     ": YAML syntax error: " + e.msg);
  }
  return Reader(path).read(root);
}

}  // namespace hqt
