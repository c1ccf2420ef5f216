#include "plugin_support.h"

#include <Poco/UUIDGenerator.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace hqt::plugin {

void write(hqt_sink* sink, const std::string& text) {
  if (sink && sink->write) sink->write(sink->ctx, text.c_str());
}

void write_all(hqt_sink* sink, const std::vector<std::string>& strings) {
  for (const auto& s : strings) write(sink, s);
}

namespace {
std::string text_of(const char* text) { return text ? text : ""; }
}  // namespace

ArgvRequest read_request(const hqt_argv_request& request) {
  const hqt_argv_request* r = &request;
  ArgvRequest out;
  if (HQT_PLUGIN_HAS_FIELD(r, project_dir)) out.project_dir = text_of(r->project_dir);
  if (HQT_PLUGIN_HAS_FIELD(r, session_id)) out.session_id = text_of(r->session_id);
  if (HQT_PLUGIN_HAS_FIELD(r, model)) out.model = text_of(r->model);
  if (HQT_PLUGIN_HAS_FIELD(r, sandboxed)) out.sandboxed = r->sandboxed;
  return out;
}

CaptureRequest read_request(const hqt_capture_request& request) {
  const hqt_capture_request* r = &request;
  CaptureRequest out;
  if (HQT_PLUGIN_HAS_FIELD(r, project_dir)) out.project_dir = text_of(r->project_dir);
  if (HQT_PLUGIN_HAS_FIELD(r, started_at)) out.started_at = r->started_at;
  if (HQT_PLUGIN_HAS_FIELD(r, taken_ids) && r->taken_ids)
    for (const char* const* id = r->taken_ids; *id; ++id) out.taken_ids.emplace_back(*id);
  if (HQT_PLUGIN_HAS_FIELD(r, open_files) && r->open_files)
    for (const char* const* file = r->open_files; *file; ++file) out.open_files.emplace_back(*file);
  return out;
}

std::vector<std::string> with_options(std::vector<std::string> base, const ArgvRequest& request,
                                      const std::string& model_flag,
                                      const std::vector<std::string>& skip_flags) {
  if (!request.model.empty() && !model_flag.empty()) {
    base.push_back(model_flag);
    base.push_back(request.model);
  }
  if (request.sandboxed) base.insert(base.end(), skip_flags.begin(), skip_flags.end());
  return base;
}

std::string random_uuid() {
  return Poco::UUIDGenerator::defaultGenerator().createRandom().toString();
}

std::string env_value(const char* name) { return text_of(std::getenv(name)); }

void OwnedHarness::publish() {
  c_skip_flags_.clear();
  for (const auto& flag : skip_permission_flags) c_skip_flags_.push_back(flag.c_str());
  c_skip_flags_.push_back(nullptr);
  c_binds_.clear();
  for (const auto& bind : binds) c_binds_.push_back(hqt_bind{bind.path.c_str(), bind.flags});
  c_env_.clear();
  for (const auto& name : sandbox_env) c_env_.push_back(name.c_str());
  c_env_.push_back(nullptr);

  c.struct_size = sizeof(hqt_harness);
  c.name = name.c_str();
  c.display_name = display_name.c_str();
  c.executable = executable.c_str();
  c.captures_session_id = captures_session_id;
  c.skip_permission_flags = c_skip_flags_.data();
  c.binds = c_binds_.empty() ? nullptr : c_binds_.data();
  c.bind_count = c_binds_.size();
  c.sandbox_env = c_env_.data();
  c.data = this;
}

std::vector<std::unique_ptr<OwnedHarness>>& harnesses() {
  static std::vector<std::unique_ptr<OwnedHarness>> list;
  return list;
}

void serve_only(std::unique_ptr<OwnedHarness> harness) {
  harness->publish();
  harnesses().clear();
  harnesses().push_back(std::move(harness));
}

void deinit() { harnesses().clear(); }

namespace {
size_t harness_count() { return harnesses().size(); }
const hqt_harness* harness_at(size_t index) {
  return index < harnesses().size() ? &harnesses()[index]->c : nullptr;
}
const hqt_harnesses_v1 harnesses_v1 = {harness_count, harness_at};
}  // namespace

const void* get_interface(const char* id) {
  return id && std::strcmp(id, HQT_HARNESSES_V1) == 0 ? &harnesses_v1 : nullptr;
}

std::vector<std::string_view> last_lines(std::string_view text, size_t count) {
  std::vector<std::string_view> lines;
  size_t end = text.size();
  while (end > 0 && lines.size() < count) {
    size_t start = text.rfind('\n', end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) lines.push_back(line);
    end = start == 0 ? 0 : start - 1;
  }
  std::reverse(lines.begin(), lines.end());
  return lines;
}

bool any_contains(const std::vector<std::string_view>& lines,
                  std::initializer_list<std::string_view> needles) {
  for (std::string_view line : lines)
    for (std::string_view needle : needles)
      if (line.find(needle) != std::string_view::npos) return true;
  return false;
}

bool any_starts_with(const std::vector<std::string_view>& lines, std::string_view prefix) {
  for (std::string_view line : lines) {
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line.substr(first).starts_with(prefix)) return true;
  }
  return false;
}

bool asks_yes_no(const std::vector<std::string_view>& lines) {
  for (std::string_view line : lines) {
    std::string lower(line);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    for (std::string_view marker : {"(y/n)", "[y/n]", "(yes/no)", "[yes/no]"})
      if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

}  // namespace hqt::plugin
