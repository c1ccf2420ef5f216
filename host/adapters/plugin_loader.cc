#include "adapters/plugin_loader.h"

namespace hqt {
struct PluginHost::Impl {
  std::vector<PluginReport> reports;
};
PluginHost::PluginHost(const std::vector<std::string>&, const std::vector<CommandHarness>&)
    : impl_(std::make_unique<Impl>()) {}
PluginHost::~PluginHost() = default;
const std::vector<PluginReport>& PluginHost::reports() const { return impl_->reports; }
const Harness* PluginHost::find(std::string_view) const { return nullptr; }
std::vector<const Harness*> PluginHost::all() const { return {}; }
}  // namespace hqt
