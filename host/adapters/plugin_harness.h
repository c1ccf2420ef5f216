#pragma once
// One harness of a loaded plugin, served as an hqt::Harness on top of the C ABI.
#include <hqt/plugin.h>

#include <memory>
#include <string>
#include <vector>

#include "core/harness.h"

namespace hqt {

// Whether the plugin's struct, which it says is `struct_size` bytes long, covers `field`. Fields
// beyond it are absent: an older plugin never wrote them.
template <typename Struct, typename Field>
bool covers(const Struct& s, const Field& field) {
  auto offset = reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&s);
  return s.struct_size >= static_cast<size_t>(offset) + sizeof(Field);
}

class PluginHarness final : public Harness {
 public:
  // Checks `harness` (at `index` in its plugin) and copies what it declares. Returns nullptr and
  // sets `*err` to what is wrong ("harness 'x' build_spawn_argv is null") when it is unusable.
  // `harness` must stay valid for the life of the result (until the plugin's deinit).
  static std::unique_ptr<PluginHarness> make(const hqt_harness* harness, size_t index,
                                             std::string* err);

  const HarnessInfo& info() const override { return info_; }
  std::string generate_session_id() const override;
  std::vector<std::string> spawn_argv(const ArgvRequest& request) const override;
  std::vector<std::string> resume_argv(const ArgvRequest& request) const override;
  PaneStatus parse_status(std::string_view pane_text) const override;
  std::string capture_session_id(const CaptureRequest& request) const override;

 private:
  PluginHarness() = default;

  const hqt_harness* harness_ = nullptr;
  HarnessInfo info_;
  // Resolved once, honouring struct_size: null when absent.
  decltype(hqt_harness::generate_session_id) generate_session_id_ = nullptr;
  decltype(hqt_harness::build_spawn_argv) build_spawn_argv_ = nullptr;
  decltype(hqt_harness::build_resume_argv) build_resume_argv_ = nullptr;
  decltype(hqt_harness::parse_status) parse_status_ = nullptr;
  decltype(hqt_harness::capture_session_id) capture_session_id_ = nullptr;
};

// Collects what a plugin writes through an hqt_sink: one string per write.
class SinkBuffer {
 public:
  SinkBuffer();
  SinkBuffer(const SinkBuffer&) = delete;
  SinkBuffer& operator=(const SinkBuffer&) = delete;
  hqt_sink* sink() { return &sink_; }
  const std::vector<std::string>& strings() const { return strings_; }
  std::string joined() const;  // every write, concatenated

 private:
  static void write(void* ctx, const char* text);
  hqt_sink sink_;
  std::vector<std::string> strings_;
};

}  // namespace hqt
