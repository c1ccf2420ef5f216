#pragma once
// The private tmux server as the host uses it. adapters/tmux_client implements it.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace hqt {

struct SpawnSpec {
  std::string session;  // tmux session name, "hqt-<id>"
  std::string title;    // the window's name (the nickname), shown in tmux's status line
  std::string cwd;
  std::vector<std::string> argv;
  // Variables copied from this process's environment into the session's. They go through tmux's
  // update-environment, so their values (API keys) never appear in a command line.
  std::vector<std::string> env_names;
};

struct PaneInfo {
  std::string session;
  bool dead = false;
  int64_t activity = 0;  // unix seconds of the last output
  int pid = 0;
};

class Tmux {
 public:
  virtual ~Tmux() = default;
  // Starts a detached session running argv; its pane stays (dead) when argv exits. Throws Error.
  virtual void new_session(const SpawnSpec& spec) = 0;
  virtual void kill_session(const std::string& session) = 0;
  // Renames the session's window; nothing happens when the session is not running.
  virtual void set_title(const std::string& session, const std::string& title) = 0;
  // One invocation for all panes of the server; empty when the server is not running.
  virtual std::vector<PaneInfo> list_panes() = 0;
  // Visible text of each named session's pane, from one batched invocation.
  virtual std::map<std::string, std::string> capture(const std::vector<std::string>& sessions) = 0;
  // list_panes(), then the capture of the sessions `pick` chooses from that listing into
  // `texts`: one invocation where the adapter can hold a conversation with tmux.
  using PickPanes = std::function<std::vector<std::string>(const std::vector<PaneInfo>& panes)>;
  virtual std::vector<PaneInfo> list_and_capture(const PickPanes& pick,
                                                 std::map<std::string, std::string>& texts) {
    auto panes = list_panes();
    auto chosen = pick(panes);
    texts = chosen.empty() ? std::map<std::string, std::string>{} : capture(chosen);
    return panes;
  }
  // Starts the invocation of the next list_and_capture now, so tmux gets going while the caller
  // does other work (opening the store, loading plugins); that listing is from this moment.
  virtual void prefetch_listing() {}
  // Hands the terminal to the session until the user detaches; returns tmux's exit code.
  virtual int attach(const std::string& session) = 0;
};

}  // namespace hqt
