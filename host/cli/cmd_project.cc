#include <Poco/DateTimeFormatter.h>
#include <Poco/LocalDateTime.h>
#include <Poco/Timestamp.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json_out.h"
#include "core/error.h"

namespace hqt::cli {
namespace {

std::string local_time(int64_t unix_seconds) {
  return Poco::DateTimeFormatter::format(
      Poco::LocalDateTime(Poco::Timestamp::fromEpochTime(unix_seconds)), "%Y-%m-%d %H:%M");
}

// Prints rows under a header, each column as wide as its widest cell; the last is not padded.
void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 2, ' ');
    }
    std::cout << line << "\n";
  }
}

}  // namespace

int project_add(Context& ctx, const Argv& argv) {
  Usage usage{"project add",
              "PATH [--name NAME]",
              {{"name", "NAME", "the project's name (default: the directory's name)"}},
              1,
              1};
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return 0;
  namespace fs = std::filesystem;
  const std::string& given = args.positional[0];
  std::error_code error;
  fs::file_status status = fs::status(given, error);
  if (status.type() == fs::file_type::not_found)
    throw UsageError("project add: no such directory '" + given + "'");
  if (error)
    throw UsageError("project add: cannot access '" + given + "' (" + error.message() + ")");
  if (!fs::is_directory(status))
    throw UsageError("project add: '" + given + "' is not a directory");
  fs::path canonical = fs::canonical(given, error);
  if (error)
    throw UsageError("project add: cannot resolve '" + given + "' (" + error.message() + ")");
  std::string name = args.get("name", canonical.filename().string());
  if (name.empty())
    throw UsageError("project add: '" + canonical.string() +
                     "' has no name of its own; give one with --name");
  Project project = ctx.store().add_project(name, canonical.string());
  std::cout << "added project '" << project.name << "' (id " << project.id << "): " << project.path
            << "\n";
  return 0;
}

int project_list(Context& ctx, const Argv& argv) {
  Usage usage{"project list", "[--json]", {{"json", "", "print JSON"}}};
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return 0;
  auto projects = ctx.store().projects();
  std::map<int64_t, int64_t> session_counts;
  if (!projects.empty())
    for (const auto& session : ctx.store().sessions()) ++session_counts[session.project_id];
  if (args.has("json")) {
    Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
    for (const auto& project : projects) {
      Poco::JSON::Object::Ptr json = json_object();
      json->set("id", project.id);
      json->set("name", project.name);
      json->set("path", project.path);
      json->set("created_at", iso_time(project.created_at));
      json->set("sessions", session_counts[project.id]);
      array->add(json);
    }
    print_json(array);
    return 0;
  }
  if (projects.empty()) {
    std::cout << "no projects yet; add one with: hqt project add PATH [--name NAME]\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ID", "NAME", "SESSIONS", "CREATED", "PATH"}};
  for (const auto& project : projects)
    rows.push_back({std::to_string(project.id), project.name,
                    std::to_string(session_counts[project.id]), local_time(project.created_at),
                    project.path});
  print_table(rows);
  return 0;
}

int project_rm(Context& ctx, const Argv& argv) {
  Usage usage{"project rm",
              "NAME|ID [--force]",
              {{"force", "", "also stop and remove the project's sessions"}},
              1,
              1};
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return 0;
  Store& store = ctx.store();
  const std::string& wanted = args.positional[0];
  auto project = store.find_project(wanted);
  if (!project) throw UsageError("no project named '" + wanted + "'");
  auto sessions = store.sessions(project->id);
  if (!sessions.empty() && !args.has("force")) {
    std::string list;
    for (const auto& s : sessions)
      list += (list.empty() ? "" : ", ") + std::to_string(s.id) + " (" + s.nickname + ")";
    throw UsageError("project '" + project->name + "' has " + std::to_string(sessions.size()) +
                     (sessions.size() == 1 ? " session: " : " sessions: ") + list +
                     "; remove them first, or use --force to stop and remove them too");
  }
  for (const auto& s : sessions) {
    try {
      // A server that is not running or a session already gone is not an error here.
      ctx.tmux().kill_session(s.tmux_session);
    } catch (const std::exception& e) {
      std::cerr << "hqt: warning: " << e.what() << "\n";
    }
    store.remove_session(s.id);
  }
  store.remove_project(project->id);
  std::cout << "removed project '" << project->name << "'";
  if (!sessions.empty())
    std::cout << " and its " << sessions.size()
              << (sessions.size() == 1 ? " session" : " sessions");
  std::cout << "\n";
  return 0;
}

}  // namespace hqt::cli
