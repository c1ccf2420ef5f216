#include "app/session_service.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <thread>

#include "adapters/paths.h"
#include "core/error.h"
#include "core/ladder.h"
#include "core/status.h"

namespace hqt {
namespace {

int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

SessionService::SessionService(Store& store, Tmux& tmux, const HarnessRegistry& harnesses,
                               SandboxWrap wrap)
    : store_(store), tmux_(tmux), harnesses_(harnesses), wrap_(std::move(wrap)) {
  std::string grace = paths::env("HQT_RESUME_GRACE_MS");
  if (!grace.empty()) grace_ms_ = std::atoi(grace.c_str());
}

const Harness& SessionService::harness_for(const std::string& name) const {
  if (const Harness* h = harnesses_.find(name)) return *h;
  std::string names;
  for (const Harness* h : harnesses_.all()) names += (names.empty() ? "" : ", ") + h->info().name;
  throw UsageError("no harness named '" + name +
                   "' (available: " + (names.empty() ? "none; see hqt plugins list" : names) + ")");
}

Project SessionService::project_of(const Session& session) {
  auto project = store_.find_project(std::to_string(session.project_id));
  if (!project) throw Error("session " + std::to_string(session.id) + ": its project is gone");
  return *project;
}

std::vector<std::string> SessionService::pane_argv(const Session& session,
                                                   std::vector<std::string> command, bool prepare) {
  if (!session.sandbox) return command;
  const Harness& harness = harness_for(session.harness);
  return wrap_(harness.info(), command, project_of(session).path, *session.sandbox, prepare);
}

std::vector<std::string> SessionService::spawn_command(const Session& session, bool prepare) {
  const Harness& harness = harness_for(session.harness);
  ArgvRequest request{project_of(session).path, session.harness_session_id, session.model,
                      session.sandbox.has_value()};
  return pane_argv(session, harness.spawn_argv(request), prepare);
}

std::vector<std::string> SessionService::resume_command(const Session& session, bool prepare) {
  const Harness& harness = harness_for(session.harness);
  if (harness.info().captures_session_id && session.harness_session_id.empty()) return {};
  ArgvRequest request{project_of(session).path, session.harness_session_id, session.model,
                      session.sandbox.has_value()};
  auto argv = harness.resume_argv(request);
  if (argv.empty()) return argv;
  return pane_argv(session, std::move(argv), prepare);
}

// tmux starts a pane in its own directory when the one asked for is gone: refuse instead.
static void check_project_dir(const Project& project) {
  std::error_code ec;
  if (!std::filesystem::is_directory(project.path, ec))
    throw Error("project '" + project.name + "': directory " + project.path +
                " does not exist any more");
}

SpawnSpec SessionService::spec_for(const Session& session, std::vector<std::string> argv) {
  Project project = project_of(session);
  check_project_dir(project);
  SpawnSpec spec;
  spec.session = session.tmux_session;
  spec.title = session.nickname;
  spec.cwd = project.path;
  spec.argv = std::move(argv);
  // The names the harness declares (API keys) travel from this environment into the pane.
  spec.env_names = harness_for(session.harness).info().sandbox_env;
  return spec;
}

CreateResult SessionService::create(const NewSession& request) {
  // Everything that can fail before the spawn happens before the row exists.
  auto project = store_.find_project(request.project);
  if (!project) throw UsageError("no project named '" + request.project + "'");
  check_project_dir(*project);
  const Harness& harness = harness_for(request.harness);
  if (paths::which(harness.info().executable).empty())
    throw Error("harness '" + harness.info().name + "' needs '" + harness.info().executable +
                "', which is not on PATH");
  Session draft;
  draft.project_id = project->id;
  draft.project = project->name;
  draft.harness = harness.info().name;
  draft.nickname = request.nickname;
  draft.model = request.model;
  draft.sandbox = request.sandbox;
  draft.harness_session_id = harness.generate_session_id();
  auto argv = pane_argv(draft, harness.spawn_argv({project->path, draft.harness_session_id,
                                                   draft.model, draft.sandbox.has_value()}));

  CreateResult result;
  result.session = store_.add_session(draft);
  SpawnSpec spec;
  try {
    spec = spec_for(result.session, std::move(argv));
  } catch (const Error& e) {
    result.spawn_error = e.what();
    return result;
  }
  // The row reaches the database file while tmux starts the session, instead of after (nothing
  // else uses the store meanwhile). It is committed already: without a thread for it, closing the
  // store does it.
  std::future<void> flushing;
  try {
    flushing = std::async(std::launch::async, [this] { store_.flush(); });
  } catch (const std::system_error&) {
  }
  try {
    tmux_.new_session(spec);
  } catch (const Error& e) {
    result.spawn_error = e.what();
  }
  if (flushing.valid()) flushing.get();
  return result;
}

void SessionService::capture_id(Session& session, int pane_pid,
                                std::optional<ProcessTree>& processes) {
  if (!session.harness_session_id.empty()) return;
  const Harness* harness = harnesses_.find(session.harness);
  if (!harness || !harness->info().captures_session_id) return;
  CaptureRequest request;
  request.project_dir = project_of(session).path;
  request.started_at = static_cast<double>(session.created_at);
  if (pane_pid > 0) {
    if (!processes) processes.emplace();
    request.open_files = processes->open_files_under(pane_pid);
  }
  for (const auto& other : store_.sessions())
    if (other.harness == session.harness && !other.harness_session_id.empty())
      request.taken_ids.push_back(other.harness_session_id);
  std::string id = harness->capture_session_id(request);
  if (id.empty()) return;
  store_.set_harness_session_id(session.id, id);
  session.harness_session_id = id;
}

std::vector<SessionStatus> SessionService::list(std::optional<int64_t> project_id) {
  // The rows are read while tmux starts and lists its panes (a thousand rows take about as long
  // as a tmux client's start); nothing else uses the store until they are in.
  auto reading = std::async(std::launch::async, [&] { return store_.sessions(project_id); });
  std::vector<Session> sessions;
  bool read = false;
  auto rows = [&] {
    if (!read) sessions = reading.get();
    read = true;
  };
  std::map<std::string, PaneInfo> panes;
  std::map<std::string, std::string> texts;
  int64_t now = now_seconds();
  std::vector<std::string> changed;
  // The listing and the capture of what changed since the last look, in one tmux invocation.
  tmux_.list_and_capture(
      [&](const std::vector<PaneInfo>& listed) {
        rows();
        for (const auto& pane : listed) panes[pane.session] = pane;
        now = now_seconds();
        for (const auto& s : sessions) {
          auto it = panes.find(s.tmux_session);
          if (it == panes.end() || it->second.dead) continue;
          // tmux keeps activity in whole seconds: output in the same second as the last capture
          // may have come after it, so only an activity older than that capture proves nothing
          // changed.
          auto seen = parsed_.find(s.tmux_session);
          if (seen == parsed_.end() || seen->second.activity != it->second.activity ||
              it->second.activity >= seen->second.read_at)
            changed.push_back(s.tmux_session);
        }
        return changed;
      },
      texts);
  rows();
  // A harness that names its conversation only once it runs (codex writes it when the first
  // prompt is sent, which changes its screen) is asked when its pane changed. Newest first: a
  // conversation that started after an older session's launch belongs to the newer session,
  // which takes it before the older one asks.
  std::set<std::string> ask(changed.begin(), changed.end());
  std::optional<ProcessTree> processes;
  for (auto it = sessions.rbegin(); it != sessions.rend(); ++it)
    if (ask.count(it->tmux_session)) capture_id(*it, panes.at(it->tmux_session).pid, processes);
  std::vector<SessionStatus> out;
  for (auto& s : sessions) {
    auto pane = panes.find(s.tmux_session);
    bool live = pane != panes.end() && !pane->second.dead;
    auto text = texts.find(s.tmux_session);
    const Harness* harness = harnesses_.find(s.harness);
    if (live && harness && text != texts.end())
      parsed_[s.tmux_session] = {pane->second.activity, now, harness->parse_status(text->second)};
    auto seen = parsed_.find(s.tmux_session);
    PaneStatus parsed = live && seen != parsed_.end() ? seen->second.status : PaneStatus::unknown;
    Status status = decide_status(live, parsed, live ? pane->second.activity : 0, now);
    out.push_back({std::move(s), status, live ? pane->second.pid : 0});
  }
  return out;
}

Session SessionService::find(const std::string& id_text) {
  char* end = nullptr;
  long long id = std::strtoll(id_text.c_str(), &end, 10);
  if (id_text.empty() || *end != '\0' || id <= 0)
    throw UsageError("'" + id_text + "' is not a session id (a number, see hqt session list)");
  auto session = store_.find_session(id);
  if (!session) throw UsageError("no session with id " + id_text);
  return *session;
}

SessionStatus SessionService::get(int64_t session_id) {
  auto session = store_.find_session(session_id);
  if (!session) throw UsageError("no session with id " + std::to_string(session_id));
  for (auto& status : list(session->project_id))
    if (status.session.id == session_id) return status;
  return {*session, Status::stopped};
}

bool SessionService::start_and_verify(const Session& session, const std::vector<std::string>& argv,
                                      std::string* error) {
  try {
    // A new tmux session rather than a respawned pane (the dead one goes; a missing one is no
    // error): it takes the harness's variables from this process as it is now, not as it was
    // when the session was first made.
    tmux_.kill_session(session.tmux_session);
    tmux_.new_session(spec_for(session, argv));
  } catch (const Error& e) {
    *error = e.what();
    return false;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(grace_ms_));
  for (const auto& pane : tmux_.list_panes())
    if (pane.session == session.tmux_session && !pane.dead) return true;
  *error = "exited within " + std::to_string(grace_ms_) + " ms";
  return false;
}

std::string SessionService::bring_up(int64_t session_id) {
  SessionStatus current = get(session_id);
  Session& session = current.session;
  std::optional<ProcessTree> processes;
  capture_id(session, current.pane_pid, processes);  // it may have ended after naming one
  std::vector<std::string> resume = resume_command(session);
  std::string errors;
  for (Rung rung : plan_ladder(current.status != Status::stopped, !resume.empty())) {
    std::string error;
    switch (rung) {
      case Rung::attach:
        return "running";
      case Rung::resume:
        if (start_and_verify(session, resume, &error)) return "resumed";
        errors += "resume: " + error + "; ";
        break;
      case Rung::fresh: {
        // A failed rung never drops the stored conversation id: a fresh start keeps it (claude
        // --session-id); only a session without one gets a new one.
        if (session.harness_session_id.empty()) {
          session.harness_session_id = harness_for(session.harness).generate_session_id();
          if (!session.harness_session_id.empty())
            store_.set_harness_session_id(session.id, session.harness_session_id);
        }
        if (start_and_verify(session, spawn_command(session), &error)) return "started fresh";
        errors += "fresh start: " + error;
        break;
      }
    }
  }
  throw Error("session " + std::to_string(session_id) + " could not be started (" + errors + ")");
}

int SessionService::attach(int64_t session_id) {
  bring_up(session_id);
  return tmux_.attach(store_.find_session(session_id)->tmux_session);
}

void SessionService::stop(int64_t session_id) {
  SessionStatus current = get(session_id);
  Session& session = current.session;
  std::optional<ProcessTree> processes;
  capture_id(session, current.pane_pid, processes);  // one named since its pane changed
  tmux_.kill_session(session.tmux_session);
}

void SessionService::remove(int64_t session_id) {
  stop(session_id);
  store_.remove_session(session_id);
}

void SessionService::rename(int64_t session_id, const std::string& nickname) {
  if (nickname.empty()) throw UsageError("a nickname cannot be empty");
  auto session = store_.find_session(session_id);
  if (!session) throw UsageError("no session with id " + std::to_string(session_id));
  store_.rename_session(session_id, nickname);
  tmux_.set_title(session->tmux_session, nickname);
}

}  // namespace hqt
