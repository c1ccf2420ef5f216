#pragma once
// What the in-tree plugins share: owning a harness table until deinit, reading requests, writing
// through sinks, and reading a screen. Linked statically into each plugin with hidden visibility,
// so every plugin has its own copy and nothing here crosses the C ABI.
#include <hqt/plugin.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// True when `s` (a pointer to a struct that starts with `struct_size`) was filled by code that
// knew about `field`.
#define HQT_PLUGIN_HAS_FIELD(s, field) \
  ((s) != nullptr &&                   \
   offsetof(std::remove_pointer_t<decltype(s)>, field) + sizeof((s)->field) <= (s)->struct_size)

namespace hqt::plugin {

// Runs `body` (returning bool) and turns any exception into false: no exception may leave an
// ABI function.
template <class Body>
bool guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return false;
  }
}

// Writes `text` to `sink` (a NULL sink is ignored).
void write(hqt_sink* sink, const std::string& text);
// Writes each string to `sink`, in order.
void write_all(hqt_sink* sink, const std::vector<std::string>& strings);

// hqt_argv_request as plain C++ values. Fields a shorter (older) host struct lacks read as empty.
struct ArgvRequest {
  std::string project_dir;
  std::string session_id;
  std::string model;
  bool sandboxed = false;
};
ArgvRequest read_request(const hqt_argv_request& request);

// hqt_capture_request as plain C++ values.
struct CaptureRequest {
  std::string project_dir;
  double started_at = 0;
  std::vector<std::string> taken_ids;
  std::vector<std::string> open_files;  // empty from a host older than ABI 1.1
};
CaptureRequest read_request(const hqt_capture_request& request);

// `base`, then `model_flag model` when a model was chosen, then `skip_flags` when sandboxed.
std::vector<std::string> with_options(std::vector<std::string> base, const ArgvRequest& request,
                                      const std::string& model_flag,
                                      const std::vector<std::string>& skip_flags);

// A random (version 4) UUID in its lowercase text form.
std::string random_uuid();
// The value of environment variable `name`, "" when unset.
std::string env_value(const char* name);

// A harness and everything its C view points at, owned by the plugin until deinit. Set the C++
// fields and the function pointers in `c`, then call publish(); change nothing afterwards.
class OwnedHarness {
 public:
  struct BindSpec {
    std::string path;
    uint32_t flags = 0;  // HQT_BIND_*
  };

  std::string name;
  std::string display_name;
  std::string executable;
  bool captures_session_id = false;
  std::vector<std::string> skip_permission_flags;
  std::vector<BindSpec> binds;
  std::vector<std::string> sandbox_env;
  std::vector<std::string> command;  // for command harnesses: the configured argv

  hqt_harness c{};  // the view handed to the host; c.data points back at this object

  OwnedHarness() = default;
  OwnedHarness(const OwnedHarness&) = delete;
  OwnedHarness& operator=(const OwnedHarness&) = delete;

  // Points `c` at the owned strings and arrays.
  void publish();

  // The OwnedHarness behind a harness this plugin published.
  static const OwnedHarness& of(const hqt_harness* self) {
    return *static_cast<const OwnedHarness*>(self->data);
  }

 private:
  std::vector<const char*> c_skip_flags_;  // NULL-terminated
  std::vector<hqt_bind> c_binds_;
  std::vector<const char*> c_env_;  // NULL-terminated
};

// The harnesses this plugin serves: filled by init, emptied by deinit.
std::vector<std::unique_ptr<OwnedHarness>>& harnesses();
// Publishes `harness` and makes it the one harness this plugin serves.
void serve_only(std::unique_ptr<OwnedHarness> harness);
// Returns the "hqt.harnesses/1" table over harnesses(), or NULL for any other id.
const void* get_interface(const char* id);
// Forgets every harness: the plugin's deinit.
void deinit();

// The screen, reduced to what decides a status: its last `count` non-blank lines, oldest first,
// with trailing whitespace removed. Older lines are scrollback and must not decide.
std::vector<std::string_view> last_lines(std::string_view text, size_t count = 15);
// True when any line contains any of `needles`.
bool any_contains(const std::vector<std::string_view>& lines,
                  std::initializer_list<std::string_view> needles);
// True when any line, leading blanks skipped, starts with `prefix`.
bool any_starts_with(const std::vector<std::string_view>& lines, std::string_view prefix);
// True when any line offers a yes/no answer: "(y/n)", "[Y/n]", "(yes/no)" in any case.
bool asks_yes_no(const std::vector<std::string_view>& lines);

}  // namespace hqt::plugin
