// The "kiro" harness: Kiro CLI.
//
// UNVERIFIED: Kiro CLI cannot be installed on the machine this was written on, so none of these
// values was checked against a real `kiro-cli`. They follow kiro.dev's CLI documentation:
//  - `kiro-cli chat` starts a conversation; `kiro-cli chat --resume` continues the most recent one
//    of the current directory (there is no id to pass, so none is generated or captured);
//  - `--model <model>` picks the model; `--trust-all-tools` skips every tool permission prompt;
//  - state lives in ~/.kiro and the login in ~/.local/share/kiro-cli;
//  - KIRO_API_KEY authenticates without a login.
// No screen parser: without real screens to read, the host's activity fallback decides.
#include <hqt/plugin.h>

#include "plugin_support.h"

namespace {

using hqt::plugin::ArgvRequest;
using hqt::plugin::OwnedHarness;

bool generate_session_id(const hqt_harness*, hqt_sink*) { return true; }  // no id to choose

bool build_spawn_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    hqt::plugin::write_all(argv, hqt::plugin::with_options({h.executable, "chat"}, r, "--model",
                                                           h.skip_permission_flags));
    return true;
  });
}

bool build_resume_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    hqt::plugin::write_all(argv, hqt::plugin::with_options({h.executable, "chat", "--resume"}, r,
                                                           "--model", h.skip_permission_flags));
    return true;
  });
}

bool init(const hqt_host*, hqt_sink*) {
  return hqt::plugin::guarded([] {
    auto h = std::make_unique<OwnedHarness>();
    h->name = "kiro";
    h->display_name = "Kiro CLI";
    h->executable = "kiro-cli";
    h->skip_permission_flags = {"--trust-all-tools"};
    const uint32_t rw_create = HQT_BIND_WRITABLE | HQT_BIND_CREATE;
    h->binds = {{"~/.kiro", rw_create}, {"~/.local/share/kiro-cli", rw_create}};
    h->sandbox_env = {"KIRO_API_KEY", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"};
    h->c.generate_session_id = generate_session_id;
    h->c.build_spawn_argv = build_spawn_argv;
    h->c.build_resume_argv = build_resume_argv;
    h->c.parse_status = nullptr;
    h->c.capture_session_id = nullptr;
    hqt::plugin::serve_only(std::move(h));
    return true;
  });
}

}  // namespace

HQT_DEFINE_PLUGIN_ENTRY(kiro_entry) = {
    HQT_ABI_VERSION, "kiro", "0.1.0", init, hqt::plugin::deinit, hqt::plugin::get_interface};
