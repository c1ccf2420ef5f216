// The "claude" harness: Claude Code.
//
// Checked against Claude Code 2.1.197 (`claude --help`, its screens in tmux, and the strings in
// its binary):
//  - `--session-id <uuid>` starts a conversation under an id we choose (it must be a valid UUID),
//    `--resume <uuid>` continues one, `--model <model>` picks the model.
//  - `--dangerously-skip-permissions` skips every permission prompt. As root Claude Code refuses
//    it unless IS_SANDBOX=1 is set, which is the sandbox's business, not this plugin's.
//  - State lives in ~/.claude/ and ~/.claude.json (login, onboarding, trusted folders). When
//    CLAUDE_CONFIG_DIR is set, both live in that directory instead (.claude.json included) and
//    nothing is written under the home directory.
//  - Busy: the footer reads "esc to interrupt" (also while it retries a failed connection).
//    Questions: permission prompts ("Do you want to proceed?", "Do you want to make this edit
//    to …"), the folder trust prompt ("Yes, I trust this folder") and the API key prompt, all
//    with an "Esc to cancel" footer; choice menus say "Enter to select". At its prompt the input
//    line starts with "❯".
#include <hqt/plugin.h>

#include "plugin_support.h"

namespace {

using hqt::plugin::ArgvRequest;
using hqt::plugin::OwnedHarness;

const char* const kSkipFlag = "--dangerously-skip-permissions";

bool generate_session_id(const hqt_harness*, hqt_sink* id) {
  return hqt::plugin::guarded([&] {
    hqt::plugin::write(id, hqt::plugin::random_uuid());
    return true;
  });
}

bool build_spawn_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    std::vector<std::string> base{h.executable};
    if (!r.session_id.empty()) base.insert(base.end(), {"--session-id", r.session_id});
    hqt::plugin::write_all(argv,
                           hqt::plugin::with_options(base, r, "--model", h.skip_permission_flags));
    return true;
  });
}

bool build_resume_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    if (r.session_id.empty()) return false;  // without an id --resume opens a picker
    hqt::plugin::write_all(argv, hqt::plugin::with_options({h.executable, "--resume", r.session_id},
                                                           r, "--model", h.skip_permission_flags));
    return true;
  });
}

hqt_status parse_status(const hqt_harness*, const char* text, size_t length) {
  try {
    if (!text) return HQT_STATUS_UNKNOWN;
    auto lines = hqt::plugin::last_lines({text, length});
    if (hqt::plugin::any_contains(lines, {"esc to interrupt"})) return HQT_STATUS_WORKING;
    if (hqt::plugin::any_contains(lines, {"Do you want to ", "Esc to cancel", "Enter to select",
                                          "Enter to confirm", "Yes, I trust this folder"}) ||
        hqt::plugin::asks_yes_no(lines))
      return HQT_STATUS_WAITING;
    if (hqt::plugin::any_starts_with(lines, "\u276f")) return HQT_STATUS_IDLE;  // ❯
    return HQT_STATUS_UNKNOWN;
  } catch (...) {
    return HQT_STATUS_UNKNOWN;
  }
}

bool init(const hqt_host*, hqt_sink*) {
  return hqt::plugin::guarded([] {
    auto h = std::make_unique<OwnedHarness>();
    h->name = "claude";
    h->display_name = "Claude Code";
    h->executable = "claude";
    h->skip_permission_flags = {kSkipFlag};
    const uint32_t rw_create = HQT_BIND_WRITABLE | HQT_BIND_CREATE;
    std::string config_dir = hqt::plugin::env_value("CLAUDE_CONFIG_DIR");
    if (!config_dir.empty()) {
      h->binds = {{config_dir, rw_create}};  // holds .claude.json too
    } else {
      h->binds = {{"~/.claude", rw_create}, {"~/.claude.json", HQT_BIND_FILE | rw_create}};
    }
    h->sandbox_env = {
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_CUSTOM_HEADERS",
        "ANTHROPIC_MODEL",
        "ANTHROPIC_SMALL_FAST_MODEL",
        "ANTHROPIC_DEFAULT_OPUS_MODEL",
        "ANTHROPIC_DEFAULT_SONNET_MODEL",
        "ANTHROPIC_DEFAULT_HAIKU_MODEL",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "CLAUDE_CODE_USE_BEDROCK",
        "CLAUDE_CODE_USE_VERTEX",
        "CLAUDE_CODE_USE_FOUNDRY",
        "ANTHROPIC_BEDROCK_BASE_URL",
        "ANTHROPIC_VERTEX_BASE_URL",
        "ANTHROPIC_VERTEX_PROJECT_ID",
        "CLOUD_ML_REGION",
        "ANTHROPIC_FOUNDRY_API_KEY",
        "ANTHROPIC_FOUNDRY_RESOURCE",
        "AWS_REGION",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_BEARER_TOKEN_BEDROCK",
        "CLAUDE_CONFIG_DIR",
        "DISABLE_AUTOUPDATER",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "NO_PROXY",
    };
    h->c.generate_session_id = generate_session_id;
    h->c.build_spawn_argv = build_spawn_argv;
    h->c.build_resume_argv = build_resume_argv;
    h->c.parse_status = parse_status;
    h->c.capture_session_id = nullptr;
    hqt::plugin::serve_only(std::move(h));
    return true;
  });
}

}  // namespace

HQT_DEFINE_PLUGIN_ENTRY(claude_entry) = {
    HQT_ABI_VERSION, "claude", "0.1.0", init, hqt::plugin::deinit, hqt::plugin::get_interface};
