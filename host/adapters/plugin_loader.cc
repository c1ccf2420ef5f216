#include "adapters/plugin_loader.h"

#include <dlfcn.h>
#include <hqt/plugin.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "adapters/plugin_harness.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;

// The plugin files of `dir`, sorted; none when it is missing or unreadable.
std::vector<std::string> plugin_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= 3 || name.compare(name.size() - 3, 3, ".so") != 0) continue;
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  std::string prefix = dir;
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  for (auto& file : files) file = prefix + file;
  return files;
}

bool starts_with_elf_magic(const std::string& path) {
  char magic[4] = {};
  std::ifstream in(path, std::ios::binary);
  in.read(magic, sizeof magic);
  return in.gcount() == 4 && std::memcmp(magic,
                                         "\x7f"
                                         "ELF",
                                         4) == 0;
}

// dlerror() text without the path it usually starts with (the reason names the path already).
std::string dl_error_without(const std::string& path) {
  const char* raw = ::dlerror();
  std::string text = raw ? raw : "unknown error";
  if (text.rfind(path + ": ", 0) == 0) text.erase(0, path.size() + 2);
  return text;
}

std::string version_text(const hqt_version& v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

// The config's command harnesses in the shape of "hqt.host.commands/1". Borrows the strings of
// `commands`, which must outlive it.
class HostCommands {
 public:
  explicit HostCommands(const std::vector<CommandHarness>& commands) {
    storage_.resize(commands.size());
    decls_.resize(commands.size());
    for (size_t i = 0; i < commands.size(); ++i) {
      const CommandHarness& c = commands[i];
      Storage& s = storage_[i];
      s.command = c_strings(c.command);
      s.skip_permission_flags = c_strings(c.skip_permission_flags);
      s.env = c_strings(c.env);
      for (const Bind& b : c.binds) {
        uint32_t flags = (b.is_file ? HQT_BIND_FILE : 0u) | (b.writable ? HQT_BIND_WRITABLE : 0u) |
                         (b.create ? HQT_BIND_CREATE : 0u);
        s.binds.push_back(hqt_bind{b.path.c_str(), flags});
      }
      hqt_command_decl& d = decls_[i];
      d.struct_size = sizeof d;
      d.name = c.name.c_str();
      d.display_name = c.display_name.c_str();
      d.command = s.command.data();
      d.skip_permission_flags = s.skip_permission_flags.data();
      d.binds = s.binds.empty() ? nullptr : s.binds.data();
      d.bind_count = s.binds.size();
      d.env = s.env.data();
    }
    interface_.count = decls_.size();
    interface_.decls = decls_.empty() ? nullptr : decls_.data();
    host_.struct_size = sizeof host_;
    host_.abi = HQT_ABI_VERSION;
    host_.get_interface = &HostCommands::get_interface;
    host_.ctx = this;
  }
  HostCommands(const HostCommands&) = delete;
  HostCommands& operator=(const HostCommands&) = delete;

  const hqt_host* host() const { return &host_; }

 private:
  struct Storage {
    std::vector<const char*> command, skip_permission_flags, env;  // NULL-terminated
    std::vector<hqt_bind> binds;
  };

  static std::vector<const char*> c_strings(const std::vector<std::string>& strings) {
    std::vector<const char*> out;
    for (const auto& s : strings) out.push_back(s.c_str());
    out.push_back(nullptr);
    return out;
  }

  static const void* get_interface(const hqt_host* host, const char* id) {
    if (!host || !id || std::strcmp(id, HQT_HOST_COMMANDS_V1) != 0) return nullptr;
    return &static_cast<const HostCommands*>(host->ctx)->interface_;
  }

  std::vector<Storage> storage_;
  std::vector<hqt_command_decl> decls_;
  hqt_host_commands_v1 interface_{};
  hqt_host host_{};
};

struct LoadedPlugin {
  std::string path;
  boost::dll::shared_library library;
  const hqt_plugin_entry* entry = nullptr;
};

}  // namespace

struct PluginHost::Impl {
  std::vector<PluginReport> reports;
  std::vector<std::unique_ptr<LoadedPlugin>> plugins;     // load order
  std::vector<std::unique_ptr<PluginHarness>> harnesses;  // load order
  std::map<std::string, const PluginHarness*, std::less<>> by_name;
  std::map<std::string, std::string, std::less<>> provider;  // harness name -> plugin path
  std::set<std::string> real_paths;                          // files already seen

  ~Impl() {
    // Harnesses point into plugin memory: drop them before any plugin goes.
    by_name.clear();
    harnesses.clear();
    while (!plugins.empty()) {
      plugins.back()->entry->deinit();
      plugins.pop_back();  // unloads
    }
  }

  void load(const std::string& path, const HostCommands& host);
  std::string load_harnesses(LoadedPlugin& plugin, PluginReport& report);
};

void PluginHost::Impl::load(const std::string& path, const HostCommands& host) {
  std::error_code real_ec;
  std::string real = fs::canonical(path, real_ec).string();
  if (real_ec) real = path;
  if (!real_paths.insert(real).second) return;

  PluginReport& report = reports.emplace_back();
  report.path = path;
  auto plugin = std::make_unique<LoadedPlugin>();
  plugin->path = path;

  boost::dll::fs::error_code ec;
  ::dlerror();
  plugin->library.load(path, ec,
                       boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  if (ec || !plugin->library.is_loaded()) {
    std::string cause = dl_error_without(path);
    report.reason = (starts_with_elf_magic(path) ? "cannot load: " : "not a shared library: ") +
                    path + ": " + cause;
    return;
  }
  if (!plugin->library.has(HQT_PLUGIN_ENTRY_SYMBOL)) {
    report.reason = "not an hqt plugin (no " HQT_PLUGIN_ENTRY_SYMBOL "): " + path;
    return;
  }
  const hqt_plugin_entry& entry =
      plugin->library.get<const hqt_plugin_entry>(HQT_PLUGIN_ENTRY_SYMBOL);
  plugin->entry = &entry;
  report.abi = version_text(entry.abi);
  if (entry.abi.major != HQT_ABI_VERSION_MAJOR || entry.abi.minor > HQT_ABI_VERSION_MINOR) {
    report.reason = "incompatible ABI " + std::to_string(entry.abi.major) + "." +
                    std::to_string(entry.abi.minor) + ", host speaks " +
                    std::to_string(HQT_ABI_VERSION_MAJOR) + "." +
                    std::to_string(HQT_ABI_VERSION_MINOR) + ": " + path;
    return;
  }
  report.name = entry.name ? entry.name : "";
  report.version = entry.version ? entry.version : "";
  const char* null_function = !entry.init            ? "init"
                              : !entry.deinit        ? "deinit"
                              : !entry.get_interface ? "get_interface"
                                                     : nullptr;
  if (null_function) {
    report.reason = std::string("invalid plugin: ") + null_function + " is null: " + path;
    return;
  }

  SinkBuffer error;
  if (!entry.init(host.host(), error.sink())) {
    std::string why = error.joined();
    report.reason =
        "init failed: " + (why.empty() ? std::string("no reason given") : why) + ": " + path;
    return;  // unloaded without deinit
  }
  std::string problem;
  try {
    problem = load_harnesses(*plugin, report);
  } catch (const std::exception& e) {
    problem = std::string("cannot load: ") + e.what();
  }
  if (!problem.empty()) {
    report.reason = problem + ": " + path;
    report.harnesses.clear();
    entry.deinit();
    return;
  }
  report.loaded = true;
  plugins.push_back(std::move(plugin));
}

// Adds the plugin's harnesses, or returns what makes the plugin unusable (then adds none).
std::string PluginHost::Impl::load_harnesses(LoadedPlugin& plugin, PluginReport& report) {
  auto* list = static_cast<const hqt_harnesses_v1*>(plugin.entry->get_interface(HQT_HARNESSES_V1));
  if (!list) return "no " HQT_HARNESSES_V1 " interface";
  if (!list->count) return "invalid plugin: " HQT_HARNESSES_V1 " count is null";
  if (!list->get) return "invalid plugin: " HQT_HARNESSES_V1 " get is null";
  std::vector<std::unique_ptr<PluginHarness>> mine;
  const size_t count = list->count();
  for (size_t i = 0; i < count; ++i) {
    std::string err;
    auto harness = PluginHarness::make(list->get(i), i, &err);
    if (!harness) return "invalid plugin: " + err;
    mine.push_back(std::move(harness));
  }
  std::vector<std::string> notes;
  for (auto& harness : mine) {
    const std::string& name = harness->info().name;
    auto taken = provider.find(name);
    if (taken != provider.end()) {
      notes.push_back("harness '" + name + "' already provided by " + taken->second);
      continue;
    }
    provider.emplace(name, plugin.path);
    by_name.emplace(name, harness.get());
    report.harnesses.push_back(name);
    harnesses.push_back(std::move(harness));
  }
  for (const auto& note : notes) report.reason += (report.reason.empty() ? "" : "; ") + note;
  return "";
}

PluginHost::PluginHost(const std::vector<std::string>& dirs,
                       const std::vector<CommandHarness>& commands)
    : impl_(std::make_unique<Impl>()) {
  HostCommands host(commands);  // offered during init only
  for (const auto& dir : dirs) {
    for (const auto& path : plugin_files(dir)) {
      try {
        impl_->load(path, host);
      } catch (const std::exception& e) {
        auto& reports = impl_->reports;
        if (reports.empty() || reports.back().path != path) reports.emplace_back().path = path;
        reports.back().loaded = false;
        reports.back().reason = std::string("cannot load: ") + e.what() + ": " + path;
      }
    }
  }
}

PluginHost::~PluginHost() = default;

const std::vector<PluginReport>& PluginHost::reports() const { return impl_->reports; }

const Harness* PluginHost::find(std::string_view name) const {
  auto it = impl_->by_name.find(name);
  return it == impl_->by_name.end() ? nullptr : it->second;
}

std::vector<const Harness*> PluginHost::all() const {
  std::vector<const Harness*> out;
  for (const auto& h : impl_->harnesses) out.push_back(h.get());
  return out;
}

}  // namespace hqt
