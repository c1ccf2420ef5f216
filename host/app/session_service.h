#pragma once
// Sessions: create, list with status, stop, resume (the ladder), attach, rename, remove.
// Works on the Store, Tmux and HarnessRegistry interfaces; the sandbox comes in as a function.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adapters/open_files.h"
#include "core/harness.h"
#include "core/store.h"
#include "core/tmux.h"
#include "core/types.h"

namespace hqt {

// Turns a harness command into the argv a sandboxed pane runs (bwrap included). Throws Error
// when the sandbox cannot be set up: a sandboxed session never starts unsandboxed. `prepare`
// false: only to show it, so nothing on the host is created for it (the harness's missing
// create-if-missing binds).
using SandboxWrap = std::function<std::vector<std::string>(
    const HarnessInfo& harness, const std::vector<std::string>& command,
    const std::string& project_dir, const SandboxPolicy& policy, bool prepare)>;

struct NewSession {
  std::string project;  // name or id
  std::string harness;
  std::string nickname;  // "" = "<harness>-<id>"
  std::string model;
  std::optional<SandboxPolicy> sandbox;
};

struct CreateResult {
  Session session;
  std::string spawn_error;  // "" when the harness started
};

struct SessionStatus {
  Session session;
  Status status = Status::stopped;
  int pane_pid = 0;  // the pane's process while it runs, else 0
};

class SessionService {
 public:
  SessionService(Store& store, Tmux& tmux, const HarnessRegistry& harnesses, SandboxWrap wrap);

  // Fails (throws) without leaving a row when anything before the spawn fails; when the spawn
  // itself fails the row stays and the error is in spawn_error.
  CreateResult create(const NewSession& request);

  // Status of all sessions (of one project) from one tmux invocation: the listing of the panes,
  // then the batched capture of those that changed since this service last read them (so a
  // repeated refresh of idle sessions reads no screen).
  std::vector<SessionStatus> list(std::optional<int64_t> project_id = std::nullopt);
  SessionStatus get(int64_t session_id);
  // Parses "12" and finds the row; throws UsageError naming the text when there is none.
  Session find(const std::string& id_text);

  // The exact argv a pane runs for a new conversation / to resume (empty: cannot resume).
  // `prepare` false: only to show them, nothing on the host is created for them.
  std::vector<std::string> spawn_command(const Session& session, bool prepare = true);
  std::vector<std::string> resume_command(const Session& session, bool prepare = true);

  // Brings the session to a live pane through the ladder: attach a live pane, else resume and
  // check it stays up, else start fresh. Returns the rung that worked ("running", "resumed",
  // "started fresh"). Throws Error when every rung failed; the conversation id is kept.
  std::string bring_up(int64_t session_id);
  int attach(int64_t session_id);
  void stop(int64_t session_id);
  void remove(int64_t session_id);
  void rename(int64_t session_id, const std::string& nickname);

  // How long a respawned pane must stay up to count as resumed (HQT_RESUME_GRACE_MS).
  void set_grace_ms(int ms) { grace_ms_ = ms; }

 private:
  const Harness& harness_for(const std::string& name) const;
  Project project_of(const Session& session);
  std::vector<std::string> pane_argv(const Session& session, std::vector<std::string> command,
                                     bool prepare = true);
  SpawnSpec spec_for(const Session& session, std::vector<std::string> argv);
  bool start_and_verify(const Session& session, const std::vector<std::string>& argv,
                        std::string* error);
  // Asks the harness for the conversation id of a session that has none yet, and stores it,
  // telling it what the session's processes (under `pane_pid`, 0 when none runs) hold open.
  // `processes` is looked at /proc once, when the first session needs it.
  void capture_id(Session& session, int pane_pid, std::optional<ProcessTree>& processes);

  // What the parser said of a pane, and the pane activity it saw then.
  struct Parsed {
    int64_t activity = 0;
    int64_t read_at = 0;  // unix seconds of the capture
    PaneStatus status = PaneStatus::unknown;
  };
  std::map<std::string, Parsed> parsed_;  // by tmux session

  Store& store_;
  Tmux& tmux_;
  const HarnessRegistry& harnesses_;
  SandboxWrap wrap_;
  int grace_ms_ = 1500;
};

}  // namespace hqt
