#include <filesystem>
#include <iostream>

#include "adapters/paths.h"
#include "adapters/process.h"
#include "adapters/sandbox_host.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json_out.h"
#include "core/error.h"

namespace hqt::cli {
namespace {

using Poco::JSON::Object;

const char* mark(bool ok) { return ok ? "✓" : "✗"; }

}  // namespace

int doctor(Context& ctx, const Argv& argv) {
  Usage usage{"doctor", "[--json]", {{"json", "", "print JSON"}}};
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return 0;
  bool available = sandbox::is_available();
  bool failed = false;
  Object::Ptr report = json_object();
  report->set("version", std::string(HQT_VERSION));
  Object::Ptr config = json_object();
  Object::Ptr tmux = json_object();
  Poco::JSON::Array::Ptr harnesses = new Poco::JSON::Array;
  Poco::JSON::Array::Ptr plugins = new Poco::JSON::Array;
  std::string config_path, config_error, tmux_path, tmux_version;

  // Everything but the bwrap probe, the slowest check: these run while bwrap does.
  auto checks = [&] {
    // The config first: everything else reads it. A bad one is reported, then defaults are used.
    config_path = ctx.config_path();
    config->set("path", config_path);
    config->set("exists", std::filesystem::exists(config_path));
    try {
      ctx.config();
    } catch (const Error& e) {
      config_error = e.what();
      failed = true;
    }
    config->set("error", text_or_null(config_error));

    tmux_path = paths::which("tmux");
    if (!tmux_path.empty()) {
      auto result = run_program({tmux_path, "-V"});
      tmux_version = result.out.substr(0, result.out.find('\n'));
    } else {
      failed = true;
    }
    tmux->set("path", text_or_null(tmux_path));
    tmux->set("version", text_or_null(tmux_version));
    tmux->set("socket", config_error.empty() ? ctx.tmux_socket() : std::string("hqt"));

    if (config_error.empty()) {
      for (const Harness* h : ctx.plugins().all()) {
        Object::Ptr item = json_object();
        item->set("name", h->info().name);
        item->set("display_name", h->info().display_name);
        item->set("executable", h->info().executable);
        item->set("found", text_or_null(paths::which(h->info().executable)));
        harnesses->add(item);
      }
      for (const auto& r : ctx.plugins().reports()) {
        Object::Ptr item = json_object();
        item->set("path", r.path);
        item->set("name", text_or_null(r.name));
        item->set("loaded", r.loaded);
        item->set("reason", text_or_null(r.reason));
        plugins->add(item);
      }
    }
  };
  sandbox::Probe probe = sandbox::probe(checks);  // without bwrap, just the checks

  Object::Ptr bwrap = json_object();
  bwrap->set("available", available);
  bwrap->set("path", text_or_null(sandbox::bwrap_path()));
  if (available) {
    Object::Ptr ns = json_object();
    ns->set("ok", probe.ok);
    ns->set("detail", text_or_null(probe.detail));
    ns->set("fix", text_or_null(probe.fix));
    bwrap->set("namespaces", ns);
  }

  report->set("tmux", tmux);
  report->set("bubblewrap", bwrap);
  report->set("harnesses", harnesses);
  report->set("plugins", plugins);
  report->set("config", config);
  report->set("database", ctx.db_path());
  report->set("ok", !failed);

  if (args.has("json")) {
    print_json(report);
    return failed ? 1 : 0;
  }
  std::cout << "hqt " << HQT_VERSION << "\n";
  if (tmux_path.empty())
    std::cout << "tmux: ✗ not found — hqt needs tmux (apt-get install tmux)\n";
  else
    std::cout << "tmux: ✓ " << tmux_path << " (" << tmux_version << ")\n";
  if (available) {
    std::cout << "bubblewrap: ✓ " << sandbox::bwrap_path() << "\n";
    if (probe.ok)
      std::cout << "  namespaces: ✓ bwrap can create its namespaces here\n";
    else
      std::cout << "  namespaces: ✗ " << probe.detail
                << " — sandboxed sessions will fail to start\n  fix: " << probe.fix << "\n";
  } else {
    std::cout << "bubblewrap: ✗ not found — sandboxed sessions unavailable\n";
  }
  if (config_error.empty()) {
    std::cout << "harnesses:\n";
    if (ctx.plugins().all().empty()) std::cout << "  (none; see hqt plugins list)\n";
    for (const Harness* h : ctx.plugins().all()) {
      std::string found = paths::which(h->info().executable);
      std::string name = h->info().name;
      name.resize(std::max<size_t>(name.size(), 10), ' ');
      std::cout << "  " << mark(!found.empty()) << " " << name << " "
                << (found.empty() ? h->info().executable + " not found on PATH" : found) << "\n";
    }
    std::cout << "plugins:\n";
    if (ctx.plugins().reports().empty()) std::cout << "  (none found)\n";
    for (const auto& r : ctx.plugins().reports())
      std::cout << "  " << mark(r.loaded) << " " << r.path
                << (r.reason.empty() ? "" : ": " + r.reason) << "\n";
  }
  std::cout << "config: " << config_path;
  if (!config_error.empty())
    std::cout << "\n  ✗ " << config_error << "\n";
  else
    std::cout << (std::filesystem::exists(config_path) ? "\n" : " (not present; defaults)\n");
  std::cout << "database: " << ctx.db_path() << "\n";
  return failed ? 1 : 0;
}

}  // namespace hqt::cli
