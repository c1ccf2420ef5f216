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

// Loads every plugin file it finds and serves the harnesses they provide.
//
// A plugin is rejected (with a reason naming the file and the cause) when the file does not load,
// has no `hqt_plugin_entry`, speaks another ABI major or a newer minor, leaves a required function
// null, has a harness without a valid name, fails its init (then it is unloaded without deinit)
// or has no "hqt.harnesses/1" interface. A harness whose name an earlier plugin already provides
// is skipped and noted in the plugin's reason; its other harnesses still load. A file reached
// twice (same real path) is loaded once. Loaded plugins are deinit'ed and unloaded at destruction,
// last loaded first; every Harness handed out becomes invalid then.
//
// The served harnesses throw Error when the plugin reports a failure: "<harness>: plugin failed
// to build the spawn command" (also for an empty spawn argv), "... to generate a session id",
// "... to capture the session id". resume_argv gives an empty vector when the plugin cannot
// resume; a missing parse_status gives PaneStatus::unknown, a missing capture_session_id "".
class PluginHost : public HarnessRegistry {
 public:
  // Scans each directory (missing ones are skipped) for *.so files, sorted by name, and loads them
  // in order. A bad plugin is rejected with a reason in reports(); the others still load. Never
  // throws for a bad plugin. `commands` are the config's harnesses, offered to plugins during
  // their init as the host interface "hqt.host.commands/1" (the generic plugin).
  PluginHost(const std::vector<std::string>& dirs, const std::vector<CommandHarness>& commands);
  ~PluginHost() override;
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  // One report per plugin file, in load order.
  const std::vector<PluginReport>& reports() const;
  const Harness* find(std::string_view name) const override;
  // In load order.
  std::vector<const Harness*> all() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hqt
