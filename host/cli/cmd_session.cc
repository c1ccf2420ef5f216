#include <unistd.h>

#include <iostream>

#include "adapters/process.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json_out.h"
#include "core/error.h"

namespace hqt::cli {
namespace {

const OptionSpec kJson{"json", "", "print JSON"};

std::string sandbox_label(const std::optional<SandboxPolicy>& sandbox) {
  if (!sandbox) return "off";
  return std::string("on (filesystem ") + (sandbox->fs == FsMode::rw ? "read-write" : "read-only") +
         ", network " + (sandbox->net ? "on" : "off") + ")";
}

// The short badge of session list: "rw+net", "ro", "-".
std::string sandbox_badge(const std::optional<SandboxPolicy>& sandbox) {
  if (!sandbox) return "-";
  return std::string(to_string(sandbox->fs)) + (sandbox->net ? "+net" : "");
}

std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

// A command whose first argument is a session ID: its arguments and the session, or nothing
// once --help was printed.
struct SessionCommand {
  Args args;
  Session session;
};
std::optional<SessionCommand> session_command(Context& ctx, const Argv& argv, const Usage& usage) {
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return std::nullopt;
  Session session = ctx.sessions().find(args.positional.at(0));
  return SessionCommand{std::move(args), std::move(session)};
}

}  // namespace

int session_new(Context& ctx, const Argv& argv) {
  Usage usage{"session new",
              "--project P --harness H [--nickname N] [--model M] [--sandbox] [--fs rw|ro] "
              "[--net on|off] [--json]",
              {{"project", "P", "project name or id"},
               {"harness", "H", "harness name (see hqt plugins list)"},
               {"nickname", "N", "a name for the session"},
               {"model", "M", "the model the harness should use"},
               {"sandbox", "", "run inside a bubblewrap sandbox"},
               {"fs", "rw|ro", "sandbox: project read-write (default) or read-only"},
               {"net", "on|off", "sandbox: network on (default) or off"},
               kJson}};
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return 0;
  if (!args.has("project")) throw UsageError("session new: --project is required");
  if (!args.has("harness")) throw UsageError("session new: --harness is required");
  NewSession request;
  request.project = args.get("project");
  request.harness = args.get("harness");
  request.nickname = args.get("nickname");
  request.model = args.get("model");
  if (args.has("sandbox") || args.has("fs") || args.has("net")) {
    SandboxPolicy policy;
    std::string fs = args.get("fs", "rw"), net = args.get("net", "on");
    if (fs != "rw" && fs != "ro")
      throw UsageError("session new: --fs must be rw or ro, not '" + fs + "'");
    if (net != "on" && net != "off")
      throw UsageError("session new: --net must be on or off, not '" + net + "'");
    policy.fs = fs == "ro" ? FsMode::ro : FsMode::rw;
    policy.net = net == "on";
    request.sandbox = policy;
  }
  CreateResult result = ctx.sessions().create(request);
  const Session& s = result.session;
  if (args.has("json")) {
    auto json = session_json(s, result.spawn_error.empty() ? Status::working : Status::stopped);
    if (!result.spawn_error.empty()) json->set("error", result.spawn_error);
    print_json(json);
  } else {
    std::cout << "session " << s.id << " (" << s.nickname << "): " << s.harness << " in "
              << s.project << ", sandbox " << sandbox_label(s.sandbox) << "\n";
  }
  if (!result.spawn_error.empty()) {
    std::cerr << "hqt: session " << s.id
              << " was created but its harness failed to start: " << result.spawn_error << "\n";
    return 1;
  }
  return 0;
}

int session_list(Context& ctx, const Argv& argv) {
  Usage usage{
      "session list", "[--project P] [--json]", {{"project", "P", "only this project"}, kJson}};
  Args args = parse(argv, usage);
  if (wants_help(args, usage)) return 0;
  // tmux starts and lists its panes while the store opens and the plugins load.
  ctx.tmux().prefetch_listing();
  std::optional<int64_t> project_id;
  if (args.has("project")) {
    auto project = ctx.store().find_project(args.get("project"));
    if (!project) throw UsageError("no project named '" + args.get("project") + "'");
    project_id = project->id;
  }
  auto sessions = ctx.sessions().list(project_id);
  if (args.has("json")) {
    // The same text as print_json of session_json objects, written directly (json_out.h).
    std::string out = sessions.empty() ? "[" : "[\n";
    for (size_t i = 0; i < sessions.size(); ++i) {
      if (i > 0) out += ",\n";
      append_session_json(out, sessions[i].session, sessions[i].status);
    }
    out += sessions.empty() ? "]\n" : "\n]\n";
    std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
    return 0;
  }
  if (sessions.empty()) {
    std::cout << "no sessions; start one with: hqt session new --project P --harness H\n";
    return 0;
  }
  std::cout << pad("ID", 6) << pad("PROJECT", 16) << pad("NICKNAME", 20) << pad("HARNESS", 10)
            << pad("STATUS", 9) << "SANDBOX\n";
  for (const auto& s : sessions) {
    std::cout << pad(std::to_string(s.session.id), 6) << pad(s.session.project, 16)
              << pad(s.session.nickname, 20) << pad(s.session.harness, 10)
              << pad(std::string(to_string(s.status)), 9) << sandbox_badge(s.session.sandbox)
              << "\n";
  }
  return 0;
}

int session_show(Context& ctx, const Argv& argv) {
  auto cmd = session_command(ctx, argv, {"session show", "ID [--json]", {kJson}, 1, 1});
  if (!cmd) return 0;
  const Args& args = cmd->args;
  auto& service = ctx.sessions();
  SessionStatus status = service.get(cmd->session.id);
  const Session& s = status.session;
  // Shown, not run: nothing is created on the host for them.
  auto command = service.spawn_command(s, false);
  auto resume = service.resume_command(s, false);
  if (args.has("json")) {
    auto json = session_json(s, status.status);
    json->set("command", string_array(command));
    json->set("resume_command",
              resume.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(string_array(resume)));
    print_json(json);
    return 0;
  }
  std::cout << "session " << s.id << " (" << s.nickname << ")\n"
            << "  project:      " << s.project << "\n"
            << "  harness:      " << s.harness << "\n"
            << "  model:        " << (s.model.empty() ? "(default)" : s.model) << "\n"
            << "  status:       " << to_string(status.status) << "\n"
            << "  sandbox:      " << sandbox_label(s.sandbox) << "\n"
            << "  tmux session: " << s.tmux_session << "\n"
            << "  conversation: "
            << (s.harness_session_id.empty() ? "(not known yet)" : s.harness_session_id) << "\n"
            << "  created:      " << iso_time(s.created_at) << "\n"
            << "  command:      " << shell_join(command) << "\n"
            << "  resume:       "
            << (resume.empty() ? "(cannot resume; starts fresh)" : shell_join(resume)) << "\n";
  return 0;
}

int session_attach(Context& ctx, const Argv& argv) {
  auto cmd = session_command(ctx, argv, {"session attach", "ID", {}, 1, 1});
  if (!cmd) return 0;
  if (!::isatty(STDIN_FILENO) || !::isatty(STDOUT_FILENO))
    throw UsageError("session attach needs a terminal (stdin and stdout are not both one)");
  return ctx.sessions().attach(cmd->session.id) == 0 ? 0 : 1;
}

int session_stop(Context& ctx, const Argv& argv) {
  auto cmd = session_command(ctx, argv, {"session stop", "ID", {}, 1, 1});
  if (!cmd) return 0;
  ctx.sessions().stop(cmd->session.id);
  std::cout << "stopped session " << cmd->session.id << " (" << cmd->session.nickname << ")\n";
  return 0;
}

int session_resume(Context& ctx, const Argv& argv) {
  auto cmd = session_command(ctx, argv, {"session resume", "ID", {}, 1, 1});
  if (!cmd) return 0;
  std::string how = ctx.sessions().bring_up(cmd->session.id);
  std::cout << "session " << cmd->session.id << " (" << cmd->session.nickname << "): " << how
            << "\n";
  return 0;
}

int session_rm(Context& ctx, const Argv& argv) {
  auto cmd = session_command(ctx, argv, {"session rm", "ID", {}, 1, 1});
  if (!cmd) return 0;
  ctx.sessions().remove(cmd->session.id);
  std::cout << "removed session " << cmd->session.id << " (" << cmd->session.nickname << ")\n";
  return 0;
}

int session_rename(Context& ctx, const Argv& argv) {
  auto cmd = session_command(ctx, argv, {"session rename", "ID NAME", {}, 2, 2});
  if (!cmd) return 0;
  const std::string& name = cmd->args.positional[1];
  ctx.sessions().rename(cmd->session.id, name);
  std::cout << "session " << cmd->session.id << " is now '" << name << "'\n";
  return 0;
}

}  // namespace hqt::cli
