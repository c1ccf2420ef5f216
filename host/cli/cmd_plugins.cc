// hqt plugins list [--json]: every plugin file found, whether it loaded (or why not), and the
// harnesses it provides with where their executables are.
#include <algorithm>
#include <iostream>

#include "adapters/paths.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json_out.h"

namespace hqt::cli {
namespace {

const Usage kUsage{"plugins list", "[--json]", {{"json", "", "print JSON"}}, 0, 0};

struct HarnessRow {
  std::string name, display_name, executable, found;  // found: "" when not on PATH
};

std::vector<HarnessRow> harness_rows(const PluginHost& host, const PluginReport& report) {
  std::vector<HarnessRow> rows;
  for (const auto& name : report.harnesses) {
    const Harness* harness = host.find(name);
    if (!harness) continue;
    const HarnessInfo& info = harness->info();
    rows.push_back({info.name, info.display_name, info.executable, paths::which(info.executable)});
  }
  return rows;
}

void print_plugins_json(const PluginHost& host) {
  Poco::JSON::Array::Ptr plugins = new Poco::JSON::Array;
  for (const auto& report : host.reports()) {
    Poco::JSON::Object::Ptr plugin = json_object();
    plugin->set("path", report.path);
    plugin->set("name", text_or_null(report.name));
    plugin->set("version", text_or_null(report.version));
    plugin->set("abi", text_or_null(report.abi));
    plugin->set("loaded", report.loaded);
    plugin->set("reason", text_or_null(report.reason));
    Poco::JSON::Array::Ptr harnesses = new Poco::JSON::Array;
    for (const auto& row : harness_rows(host, report)) {
      Poco::JSON::Object::Ptr harness = json_object();
      harness->set("name", row.name);
      harness->set("display_name", row.display_name);
      harness->set("executable", row.executable);
      harness->set("found", text_or_null(row.found));
      harnesses->add(harness);
    }
    plugin->set("harnesses", harnesses);
    plugins->add(plugin);
  }
  print_json(plugins);
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

void print_text(const PluginHost& host, const std::vector<std::string>& dirs) {
  const auto& reports = host.reports();
  if (reports.empty()) {
    std::string searched;
    for (const auto& dir : dirs) searched += (searched.empty() ? "" : ", ") + dir;
    std::cout << "no plugins found (searched: " << searched << ")\n";
    return;
  }
  size_t path_width = 0, name_width = 0, display_width = 0;
  for (const auto& report : reports) {
    path_width = std::max(path_width, report.path.size());
    for (const auto& row : harness_rows(host, report)) {
      name_width = std::max(name_width, row.name.size());
      display_width = std::max(display_width, row.display_name.size());
    }
  }
  for (const auto& report : reports) {
    std::string line = std::string(report.loaded ? "✓ " : "✗ ") + padded(report.path, path_width);
    if (report.loaded) {
      line += "  " + report.name;
      if (!report.version.empty()) line += " " + report.version;
      line += " (ABI " + report.abi + ")";
    } else {
      line += "  " + report.reason;
    }
    std::cout << line << "\n";
    if (!report.loaded) continue;
    for (const auto& row : harness_rows(host, report)) {
      std::string where =
          row.executable.empty()
              ? "(no executable)"
              : row.executable + ": " + (row.found.empty() ? "not found" : row.found);
      std::cout << "    " << padded(row.name, name_width) << "  "
                << padded(row.display_name, display_width) << "  " << where << "\n";
    }
    if (!report.reason.empty()) std::cout << "    note: " << report.reason << "\n";
  }
}

}  // namespace

int plugins_list(Context& ctx, const Argv& argv) {
  Args args = parse(argv, kUsage);
  if (wants_help(args, kUsage)) return 0;
  PluginHost& host = ctx.plugins();
  if (args.has("json"))
    print_plugins_json(host);
  else
    print_text(host, ctx.plugin_dirs());
  return 0;
}

}  // namespace hqt::cli
