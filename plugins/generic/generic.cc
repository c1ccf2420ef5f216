// The "generic" plugin: one harness per command declared in the user's config (`harnesses:`),
// read at init from the host interface "hqt.host.commands/1". The host's declarations are valid
// during init only, so everything is copied.
//
// A command harness runs its configured argv, to start and to resume alike (there is no
// conversation id to pass), with its configured skip-permission flags appended when sandboxed.
// It knows no model flag and no screen: the host's activity fallback decides its status.
#include <hqt/plugin.h>

#include "plugin_support.h"

namespace {

using hqt::plugin::ArgvRequest;
using hqt::plugin::OwnedHarness;

bool generate_session_id(const hqt_harness*, hqt_sink*) { return true; }

// The configured command, then the skip-permission flags when sandboxed. Used to resume too.
bool build_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    r.model.clear();  // a command harness has no model flag
    hqt::plugin::write_all(argv,
                           hqt::plugin::with_options(h.command, r, "", h.skip_permission_flags));
    return true;
  });
}

std::vector<std::string> strings_of(const char* const* list) {
  std::vector<std::string> out;
  for (; list && *list; ++list) out.emplace_back(*list);
  return out;
}

// A copy of one declaration, or nullptr when it has no name or no command.
std::unique_ptr<OwnedHarness> copy_decl(const hqt_command_decl* d) {
  if (!HQT_PLUGIN_HAS_FIELD(d, name) || !d->name || !*d->name) return nullptr;
  if (!HQT_PLUGIN_HAS_FIELD(d, command) || !d->command || !d->command[0]) return nullptr;
  auto h = std::make_unique<OwnedHarness>();
  h->name = d->name;
  if (HQT_PLUGIN_HAS_FIELD(d, display_name) && d->display_name) h->display_name = d->display_name;
  if (h->display_name.empty()) h->display_name = h->name;
  h->command = strings_of(d->command);
  h->executable = h->command.front();
  if (HQT_PLUGIN_HAS_FIELD(d, skip_permission_flags))
    h->skip_permission_flags = strings_of(d->skip_permission_flags);
  if (HQT_PLUGIN_HAS_FIELD(d, bind_count) && d->binds)
    for (size_t i = 0; i < d->bind_count; ++i)
      if (d->binds[i].path) h->binds.push_back({d->binds[i].path, d->binds[i].flags});
  if (HQT_PLUGIN_HAS_FIELD(d, env)) h->sandbox_env = strings_of(d->env);
  h->c.generate_session_id = generate_session_id;
  h->c.build_spawn_argv = build_argv;
  h->c.build_resume_argv = build_argv;
  h->c.parse_status = nullptr;
  h->c.capture_session_id = nullptr;
  h->publish();
  return h;
}

bool init(const hqt_host* host, hqt_sink*) {
  return hqt::plugin::guarded([&] {
    auto& list = hqt::plugin::harnesses();
    list.clear();
    if (!HQT_PLUGIN_HAS_FIELD(host, get_interface) || !host->get_interface) return true;
    auto* commands =
        static_cast<const hqt_host_commands_v1*>(host->get_interface(host, HQT_HOST_COMMANDS_V1));
    if (!commands || !commands->decls) return true;  // a host without commands: no harnesses
    for (size_t i = 0; i < commands->count; ++i)
      if (auto h = copy_decl(&commands->decls[i])) list.push_back(std::move(h));
    return true;
  });
}

}  // namespace

HQT_DEFINE_PLUGIN_ENTRY(generic_entry) = {
    HQT_ABI_VERSION, "generic", "0.1.0", init, hqt::plugin::deinit, hqt::plugin::get_interface};
