#include "adapters/tmux_client.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <sstream>

#include "adapters/paths.h"
#include "adapters/process.h"
#include "core/error.h"

namespace hqt {
namespace {

// tmux matches session names by prefix unless they start with '='; "=hqt-1:" is exactly
// session hqt-1 (never hqt-12), its current window and pane.
std::string target(const std::string& session) { return "=" + session + ":"; }

// What the arguments of one tmux command sequence may add up to (each with its terminating NUL):
// the client sends them in one message of at most 16384 bytes; leave room for the rest.
constexpr size_t kMaxCommandBytes = 16000;

// What list-panes prints of each pane.
constexpr char kPaneFormat[] =
    "#{session_name}\t#{pane_dead}\t#{window_activity}\t#{pane_pid}\t#{pane_height}"
    "\t#{window_active}#{pane_active}";

// How tmux reports a target session that does not exist.
constexpr char kGone[] = "can't find session: ";

// Separates the outputs of the commands of one batched invocation.
constexpr char kMarker[] = "\x1ehqt-capture\x1f";

bool server_missing(const std::string& err) {
  return err.find("no server running") != std::string::npos ||
         err.find("error connecting to") != std::string::npos;
}

// The server is still up but has no session left (it exits right after): every target is
// missing.
bool server_empty(const std::string& err) {
  return err.find("no current target") != std::string::npos;
}

class TmuxClient : public Tmux {
 public:
  // tmux is looked up on PATH once: a spawn that searches PATH tries every directory before it
  // with an exec of its own.
  explicit TmuxClient(std::string socket)
      : socket_(std::move(socket)), program_(paths::which("tmux")) {
    if (program_.empty()) program_ = "tmux";  // then the first run says it is missing
  }

  void new_session(const SpawnSpec& spec) override {
    // One invocation: start the server if needed and keep dead panes around (so a session whose
    // harness exited reads as stopped, and nothing else ever runs in its pane).
    std::vector<std::string> argv = base();
    argv.insert(argv.end(), {"start-server", ";", "set-option", "-g", "remain-on-exit", "on"});
    // A new session takes the variables named in update-environment from this client's
    // environment: reset the list to tmux's default, then add this harness's names.
    argv.insert(argv.end(), {";", "set-option", "-gu", "update-environment"});
    for (const auto& name : spec.env_names)
      argv.insert(argv.end(), {";", "set-option", "-ga", "update-environment", name});
    argv.insert(argv.end(), {";", "new-session", "-d", "-s", spec.session, "-x", "200", "-y", "50",
                             "-c", spec.cwd});
    if (!spec.title.empty()) argv.insert(argv.end(), {"-n", spec.title});
    add_command(argv, spec.argv);
    auto result = run_program(argv);
    // tmux exits 0 when the server it forked cannot create its socket ("error creating
    // /tmp/tmux-0/…"): a new session that says anything at all failed. (Asking for the session's
    // name back with -P would catch it too, at the cost of one more exchange with the server.)
    if (result.code == 0 && !trim(result.err).empty()) result.code = 1;
    check(result, "cannot start tmux session " + spec.session);
  }

  void kill_session(const std::string& session) override {
    auto result = run_program(with({"kill-session", "-t", "=" + session}));
    if (result.code != 0 && !server_missing(result.err) && !server_empty(result.err) &&
        result.err.find("can't find session") == std::string::npos)
      throw Error("cannot stop tmux session " + session + ": " + trim(result.err));
  }

  void set_title(const std::string& session, const std::string& title) override {
    run_program(with({"rename-window", "-t", target(session), title}));
  }

  std::vector<PaneInfo> list_panes() override {
    auto result = run_program(with({"list-panes", "-a", "-F", kPaneFormat}));
    if (result.code != 0) {
      heights_.clear();
      if (server_missing(result.err) || server_empty(result.err)) return {};
      throw Error("tmux list-panes failed: " + trim(result.err));
    }
    return parse_panes(result.out);
  }

  // One tmux process: the listing, a marker, then `source-file -`, which runs the capture
  // commands written to its stdin once the listing is read, one command per line (a session
  // that is gone fails its own line only). Saves a tmux client's start (about 1.5 ms) per
  // refresh.
  std::vector<PaneInfo> list_and_capture(const PickPanes& pick,
                                         std::map<std::string, std::string>& texts) override {
    texts.clear();
    if (!pending_) prefetch_listing();
    std::unique_ptr<Child> child = std::move(pending_);
    Child& tmux = *child;
    std::string marker = listed_marker();
    if (!tmux.read_until(marker + "\n")) {
      // No marker: the listing failed, or the server has no session to display it with.
      auto result = tmux.finish();
      heights_.clear();
      if (server_missing(result.err) || server_empty(result.err)) return {};
      throw Error("tmux list-panes failed: " + trim(result.err));
    }
    size_t listed = tmux.out().rfind(marker + "\n");
    auto panes = parse_panes(tmux.out().substr(0, listed));
    std::vector<std::string> chosen = pick(panes), by_line, others;
    std::string input;
    for (const auto& session : chosen) {
      // Names that need no quoting in a tmux command line and whose height is known.
      bool plain = !session.empty() && session.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789_-") == std::string::npos;
      if (plain && heights_.count(session)) {
        input += "capture-pane -p -t =" + session + ":\n";
        by_line.push_back(session);
      } else {
        others.push_back(session);
      }
    }
    auto result = tmux.finish(input);
    std::string captured = result.out.substr(listed + marker.size() + 1);
    // The sessions whose line failed, from the errors in order: "can't find session: hqt-5".
    std::set<std::string> gone;
    for (size_t pos = result.err.find(kGone); pos != std::string::npos;
         pos = result.err.find(kGone, pos + 1)) {
      size_t start = pos + sizeof(kGone) - 1;
      gone.insert(result.err.substr(start, result.err.find('\n', start) - start));
    }
    std::vector<std::string> present;
    for (const auto& session : by_line)
      if (!gone.count(session)) present.push_back(session);
    if (!present.empty() &&
        split_by_height(captured, present, 0, present.size(), true, texts) == kNoFit) {
      // Resized or gone in between in a way the errors do not tell: ask again, with markers.
      texts.clear();
      others = chosen;
    }
    if (!others.empty())
      for (auto& [session, text] : capture(others)) texts[session] = std::move(text);
    return panes;
  }

  // Every command of a batch costs the server a walk over all its sessions (a client that is
  // not attached has no current session), so the batch has one command per pane: the output of
  // `capture-pane -p` is exactly as many lines as the pane is high, and the heights from the last
  // list_panes() split it. When a height is not known, or the output does not add up (a pane
  // was resized in between), a marker command before each capture names its output instead.
  std::map<std::string, std::string> capture(const std::vector<std::string>& sessions) override {
    std::map<std::string, std::string> texts;
    size_t next = 0;
    bool markers = false;
    while (next < sessions.size()) {
      // The tmux client refuses a command sequence longer than one message to the server
      // ("command too long", 16 KiB of arguments): one invocation per chunk.
      std::vector<std::string> argv = base();
      size_t bytes = 0, end = next;
      bool by_height = !markers;
      for (size_t i = next; i < sessions.size() && by_height; ++i)
        by_height = heights_.count(sessions[i]) > 0 || sessions.size() - next == 1;
      for (; end < sessions.size(); ++end) {
        std::vector<std::string> commands;
        if (end > next) commands.push_back(";");
        if (!by_height)
          commands.insert(commands.end(), {"display-message", "-p", "-t", target(sessions[end]),
                                           std::string(kMarker) + "#{session_name}", ";"});
        commands.insert(commands.end(), {"capture-pane", "-p", "-t", target(sessions[end])});
        size_t size = 0;
        for (const auto& arg : commands) size += arg.size() + 1;
        if (end > next && bytes + size > kMaxCommandBytes) break;
        bytes += size;
        argv.insert(argv.end(), commands.begin(), commands.end());
      }
      auto result = run_program(argv);
      if (server_missing(result.err)) break;
      size_t done = 0;
      if (!by_height) {
        done = split_captures(result.out, texts);
      } else if (end - next == 1) {
        if (result.code == 0) texts[sessions[next]] = std::move(result.out);
        done = result.code == 0 ? 1 : 0;
      } else {
        done = split_by_height(result.out, sessions, next, end, result.code == 0, texts);
        if (done == kNoFit) {
          markers = true;  // this chunk again, with markers
          continue;
        }
      }
      // A failing command ends a tmux command sequence (a session that vanished meanwhile):
      // keep what came before it, skip it and go on after it.
      next = result.code == 0 ? end : next + done + 1;
    }
    return texts;
  }

  void prefetch_listing() override {
    pending_ =
        std::make_unique<Child>(with({"list-panes", "-a", "-F", kPaneFormat, ";", "display-message",
                                      "-p", listed_marker(), ";", "source-file", "-"}));
  }

  int attach(const std::string& session) override {
    std::vector<std::string> argv = with({"attach-session", "-t", "=" + session});
    pid_t pid = ::fork();
    if (pid < 0) throw Error("cannot start tmux to attach " + session);
    if (pid == 0) {
      // Attaching from inside another tmux: this is a different server, so nesting is intended.
      ::unsetenv("TMUX");
      ::unsetenv("TMUX_PANE");
      std::vector<char*> cargv;
      for (auto& a : argv) cargv.push_back(a.data());
      cargv.push_back(nullptr);
      ::execvp(cargv[0], cargv.data());
      ::_exit(127);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }

 private:
  std::vector<std::string> base() const { return {program_, "-L", socket_}; }

  std::vector<std::string> with(std::initializer_list<std::string> args) const {
    auto argv = base();
    argv.insert(argv.end(), args);
    return argv;
  }

  // tmux runs a single argument through sh -c; more than one are run directly. Keep one-word
  // commands direct too, so the pane's process is the harness itself.
  static void add_command(std::vector<std::string>& argv, const std::vector<std::string>& command) {
    if (command.empty()) throw Error("empty command");
    argv.push_back("--");
    if (command.size() == 1)
      argv.push_back("exec " + shell_join(command));
    else
      argv.insert(argv.end(), command.begin(), command.end());
  }

  static std::string trim(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  }

  static void check(const ProcessResult& result, const std::string& what) {
    if (result.code != 0) throw Error(what + ": " + trim(result.err));
  }

  static constexpr size_t kNoFit = static_cast<size_t>(-1);

  // The listing of kPaneFormat; remembers each session's pane height for the captures.
  std::vector<PaneInfo> parse_panes(const std::string& text) {
    heights_.clear();
    std::vector<PaneInfo> panes;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      PaneInfo pane;
      std::string dead, activity, pid, height, active;
      if (!std::getline(fields, pane.session, '\t') || !std::getline(fields, dead, '\t') ||
          !std::getline(fields, activity, '\t') || !std::getline(fields, pid, '\t'))
        continue;
      pane.dead = dead == "1";
      pane.activity = std::atoll(activity.c_str());
      pane.pid = std::atoi(pid.c_str());
      // The pane a capture of the session reads: the active one of the active window.
      if (std::getline(fields, height, '\t') && std::getline(fields, active) && active == "11")
        heights_[pane.session] = std::atoi(height.c_str());
      panes.push_back(std::move(pane));
    }
    return panes;
  }

  // Cuts `out`, the captures of sessions[first, end) one after the other, into the texts by the
  // panes' heights. Returns how many captures it holds: all of them when `complete`, else the
  // captures before the failed command; kNoFit when the lines do not add up to that.
  size_t split_by_height(const std::string& out, const std::vector<std::string>& sessions,
                         size_t first, size_t end, bool complete,
                         std::map<std::string, std::string>& texts) const {
    std::vector<size_t> starts{0};  // where each line begins
    for (size_t pos = out.find('\n'); pos != std::string::npos; pos = out.find('\n', pos + 1))
      starts.push_back(pos + 1);
    if (starts.back() != out.size()) return kNoFit;  // not whole lines
    size_t lines = starts.size() - 1, line = 0, done = 0;
    std::vector<size_t> cuts{0};
    for (size_t i = first; i < end && line < lines; ++i) {
      line += static_cast<size_t>(heights_.at(sessions[i]));
      cuts.push_back(line);
      ++done;
    }
    if (line != lines || (complete && done != end - first)) return kNoFit;
    for (size_t i = 0; i < done; ++i)
      texts[sessions[first + i]] =
          out.substr(starts[cuts[i]], starts[cuts[i + 1]] - starts[cuts[i]]);
    return done;
  }

  // Returns how many sessions' captures the output holds.
  static size_t split_captures(const std::string& out, std::map<std::string, std::string>& texts) {
    size_t count = 0;
    size_t pos = out.find(kMarker);
    while (pos != std::string::npos) {
      size_t name_start = pos + sizeof(kMarker) - 1;
      size_t name_end = out.find('\n', name_start);
      if (name_end == std::string::npos) break;
      std::string name = out.substr(name_start, name_end - name_start);
      size_t next = out.find(kMarker, name_end);
      texts[name] = out.substr(name_end + 1,
                               next == std::string::npos ? std::string::npos : next - name_end - 1);
      ++count;
      pos = next;
    }
    return count;
  }

  static std::string listed_marker() { return std::string(kMarker) + "listed"; }

  std::string socket_;
  std::string program_;
  std::unique_ptr<Child> pending_;      // a list_and_capture invocation started ahead
  std::map<std::string, int> heights_;  // of the pane a capture reads, from the last list_panes
};

}  // namespace

std::unique_ptr<Tmux> make_tmux(const std::string& socket_name) {
  return std::make_unique<TmuxClient>(socket_name);
}

}  // namespace hqt
