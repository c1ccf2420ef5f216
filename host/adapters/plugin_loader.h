#pragma once
// Loads plugins (Boost.DLL) through the C ABI of sdk/include/hqt/plugin.h and serves their
// harnesses.
#include <memory>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/harness.h"

namespace hqt {

// What happened to one plugin file.
struct PluginReport {
  std::string path;
  std::string name;     // the plugin's name ("" when it could not be read)
  std::string version;  // the plugin's own version text
  std::string abi;      // "1.0.0" ("" when it could not be read)
  bool loaded = false;
  std::string reason;  // why it was rejected, or a note about harnesses it could not add
  std::vector<std::string> harnesses;
};

class PluginHost : public HarnessRegistry {
 public:
  // Scans each directory (missing ones are skipped) for *.so files and loads them in order.
  // A bad plugin is rejected with a reason in reports(); the others still load. Never throws for a
  // bad plugin. `commands` are the config's harnesses, offered to plugins (the generic plugin).
  PluginHost(const std::vector<std::string>& dirs, const std::vector<CommandHarness>& commands);
  ~PluginHost() override;
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  const std::vector<PluginReport>& reports() const;
  const Harness* find(std::string_view name) const override;
  std::vector<const Harness*> all() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hqt
