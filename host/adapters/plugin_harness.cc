#include "adapters/plugin_harness.h"

#include <regex>

#include "core/error.h"

namespace hqt {

SinkBuffer::SinkBuffer() : sink_{this, &SinkBuffer::write} {}

// Called from plugin code: must not throw through it.
void SinkBuffer::write(void* ctx, const char* text) {
  if (!ctx || !text) return;
  try {
    static_cast<SinkBuffer*>(ctx)->strings_.emplace_back(text);
  } catch (...) {
  }
}

std::string SinkBuffer::joined() const {
  std::string text;
  for (const auto& s : strings_) text += s;
  return text;
}

namespace {

std::vector<std::string> strings_of(const char* const* list) {
  std::vector<std::string> out;
  for (; list && *list; ++list) out.emplace_back(*list);
  return out;
}

std::string text_of(const char* text) { return text ? text : ""; }

const std::regex kName("[a-z0-9_-]+");

// The request in the C ABI's shape; borrows the strings of `request`.
hqt_argv_request c_request(const ArgvRequest& request) {
  hqt_argv_request r{};
  r.struct_size = sizeof r;
  r.project_dir = request.project_dir.c_str();
  r.session_id = request.session_id.c_str();
  r.model = request.model.c_str();
  r.sandboxed = request.sandboxed;
  return r;
}

}  // namespace

std::unique_ptr<PluginHarness> PluginHarness::make(const hqt_harness* h, size_t index,
                                                   std::string* err) {
  if (!h) {
    *err = "harness #" + std::to_string(index) + " is null";
    return nullptr;
  }
  const hqt_harness& s = *h;
  const char* name = covers(s, s.name) ? s.name : nullptr;
  if (!name) {
    *err = "harness #" + std::to_string(index) + " name is null";
    return nullptr;
  }
  if (!*name) {
    *err = "harness #" + std::to_string(index) + " has an empty name";
    return nullptr;
  }
  std::unique_ptr<PluginHarness> out(new PluginHarness);
  HarnessInfo& info = out->info_;
  info.name = name;
  if (!std::regex_match(info.name, kName)) {
    *err = "harness name '" + info.name + "' is not made of [a-z0-9_-]";
    return nullptr;
  }
  const std::string what = "harness '" + info.name + "' ";
  if (covers(s, s.display_name)) info.display_name = text_of(s.display_name);
  if (info.display_name.empty()) info.display_name = info.name;
  if (covers(s, s.executable)) info.executable = text_of(s.executable);
  if (covers(s, s.captures_session_id)) info.captures_session_id = s.captures_session_id;
  if (covers(s, s.skip_permission_flags))
    info.skip_permission_flags = strings_of(s.skip_permission_flags);
  if (covers(s, s.binds) && covers(s, s.bind_count) && s.binds) {
    for (size_t i = 0; i < s.bind_count; ++i) {
      const hqt_bind& b = s.binds[i];
      if (!b.path) {
        *err = what + "bind #" + std::to_string(i) + " path is null";
        return nullptr;
      }
      info.binds.push_back(Bind{b.path, (b.flags & HQT_BIND_FILE) != 0,
                                (b.flags & HQT_BIND_WRITABLE) != 0,
                                (b.flags & HQT_BIND_CREATE) != 0});
    }
  }
  if (covers(s, s.sandbox_env)) info.sandbox_env = strings_of(s.sandbox_env);

  if (covers(s, s.generate_session_id)) out->generate_session_id_ = s.generate_session_id;
  if (covers(s, s.build_spawn_argv)) out->build_spawn_argv_ = s.build_spawn_argv;
  if (covers(s, s.build_resume_argv)) out->build_resume_argv_ = s.build_resume_argv;
  if (covers(s, s.parse_status)) out->parse_status_ = s.parse_status;
  if (covers(s, s.capture_session_id)) out->capture_session_id_ = s.capture_session_id;
  const char* missing = !out->generate_session_id_ ? "generate_session_id"
                        : !out->build_spawn_argv_  ? "build_spawn_argv"
                        : !out->build_resume_argv_ ? "build_resume_argv"
                        : info.captures_session_id && !out->capture_session_id_
                            ? "capture_session_id"
                            : nullptr;
  if (missing) {
    *err = what + missing + " is null";
    return nullptr;
  }
  out->harness_ = h;
  return out;
}

std::string PluginHarness::generate_session_id() const {
  SinkBuffer id;
  if (!generate_session_id_(harness_, id.sink()))
    throw Error(info_.name + ": plugin failed to generate a session id");
  return id.joined();
}

std::vector<std::string> PluginHarness::spawn_argv(const ArgvRequest& request) const {
  hqt_argv_request r = c_request(request);
  SinkBuffer argv;
  if (!build_spawn_argv_(harness_, &r, argv.sink()))
    throw Error(info_.name + ": plugin failed to build the spawn command");
  if (argv.strings().empty()) throw Error(info_.name + ": plugin built an empty spawn command");
  return argv.strings();
}

std::vector<std::string> PluginHarness::resume_argv(const ArgvRequest& request) const {
  hqt_argv_request r = c_request(request);
  SinkBuffer argv;
  if (!build_resume_argv_(harness_, &r, argv.sink())) return {};
  return argv.strings();
}

PaneStatus PluginHarness::parse_status(std::string_view pane_text) const {
  if (!parse_status_) return PaneStatus::unknown;
  const char* text = pane_text.empty() ? "" : pane_text.data();
  switch (parse_status_(harness_, text, pane_text.size())) {
    case HQT_STATUS_WORKING:
      return PaneStatus::working;
    case HQT_STATUS_WAITING:
      return PaneStatus::waiting;
    case HQT_STATUS_IDLE:
      return PaneStatus::idle;
    default:
      return PaneStatus::unknown;
  }
}

std::string PluginHarness::capture_session_id(const CaptureRequest& request) const {
  if (!capture_session_id_) return "";
  std::vector<const char*> taken;
  for (const auto& id : request.taken_ids) taken.push_back(id.c_str());
  taken.push_back(nullptr);
  std::vector<const char*> open_files;
  for (const auto& file : request.open_files) open_files.push_back(file.c_str());
  open_files.push_back(nullptr);
  hqt_capture_request r{};
  r.struct_size = sizeof r;
  r.project_dir = request.project_dir.c_str();
  r.started_at = request.started_at;
  r.taken_ids = taken.data();
  r.open_files = open_files.data();
  SinkBuffer id;
  if (!capture_session_id_(harness_, &r, id.sink()))
    throw Error(info_.name + ": plugin failed to capture the session id");
  return id.joined();
}

}  // namespace hqt
