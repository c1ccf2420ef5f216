// The terminal UI: the real hqt binary runs in a pane of a tmux server of its own (not the one
// hqt keeps its sessions on); the tests type with send-keys and read the screen with
// capture-pane, polling until the expected text shows or a generous deadline passes.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <sstream>
#include <thread>

#include "adapters/paths.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr auto kDeadline = std::chrono::seconds(20);

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Columns of a line of plain UTF-8 as captured (every character on it is one column wide).
size_t columns(const std::string& line) {
  size_t n = 0;
  for (unsigned char c : line) n += (c & 0xc0) != 0x80;
  return n;
}

// hqt's terminal UI in a 120x40 pane of the tmux server `socket`.
class Screen {
 public:
  // `after` runs in the pane's shell once hqt has exited.
  Screen(const test::HqtEnv& env, const std::string& cwd,
         const std::map<std::string, std::string>& extra = {},
         const std::string& after = "echo \"[hqt exited $?]\"")
      : env_(env), socket_(env.socket + "-ui") {
    auto vars = env.env;
    vars["LANG"] = "C.UTF-8";
    for (const auto& [k, v] : extra) vars[k] = v;
    // tmux gives a new session's pane the PATH of the client that creates it (never one from
    // -e), so the client runs with the pane's environment; tmux itself by its full path.
    std::vector<std::string> argv{paths::which("tmux"),
                                  "-L",
                                  socket_,
                                  "-f",
                                  "/dev/null",
                                  "new-session",
                                  "-d",
                                  "-s",
                                  "ui",
                                  "-x",
                                  "120",
                                  "-y",
                                  "40",
                                  "-c",
                                  cwd};
    for (const auto& [k, v] : vars) {
      if (k == "TMUX" || k == "TMUX_PANE") continue;
      argv.insert(argv.end(), {"-e", k + "=" + v});
    }
    // The shell stays to show how hqt ended.
    argv.insert(argv.end(), {"sh", "-c", "\"$0\"; " + after + "; exec sleep 600", HQT_BIN});
    auto started = test::run_process(argv, vars);
    EXPECT_EQ(started.code, 0) << started.err;
  }

  ~Screen() { tmux({"kill-server"}); }

  test::RunResult tmux(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{"tmux", "-L", socket_};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run_process(argv, env_.env);
  }

  // Named keys as tmux knows them: "Tab", "BTab", "Enter", "Escape", "Space", "C-u", "a".
  void keys(std::initializer_list<std::string> names) const {
    std::vector<std::string> args{"send-keys", "-t", "=ui:"};
    args.insert(args.end(), names);
    tmux(args);
  }
  void type(const std::string& text) const { tmux({"send-keys", "-t", "=ui:", "-l", text}); }

  std::string text() const { return tmux({"capture-pane", "-p", "-t", "=ui:"}).out; }

  // Polls the screen until `done` holds; false (with the last screen in `last`) at the deadline.
  bool wait(const std::function<bool(const std::string&)>& done) {
    auto until = std::chrono::steady_clock::now() + kDeadline;
    while (true) {
      last = text();
      if (done(last)) return true;
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  bool wait_for(const std::string& needle) {
    return wait([&](const std::string& s) { return s.find(needle) != std::string::npos; });
  }
  // The screen line holding `needle` ("" when none does).
  std::string line_with(const std::string& needle) const {
    for (const auto& line : lines_of(last))
      if (line.find(needle) != std::string::npos) return line;
    return "";
  }
  bool wait_line(const std::string& needle, const std::string& also) {
    return wait([&](const std::string& s) {
      for (const auto& line : lines_of(s))
        if (line.find(needle) != std::string::npos && line.find(also) != std::string::npos)
          return true;
      return false;
    });
  }

  // In the New Session dialog with the focus on Harness: cycles to `name` with Space.
  bool choose_harness(const std::string& name) {
    for (int i = 0; i < 16; ++i) {
      if (!wait_for("< ")) return false;
      std::string current = line_with("Harness");
      if (current.find("(" + name + ")") != std::string::npos ||
          current.find("< " + name + " >") != std::string::npos)
        return true;
      keys({"Space"});
      if (!wait([&](const std::string& s) {
            for (const auto& line : lines_of(s))
              if (line.find("Harness") != std::string::npos) return line != current;
            return false;
          }))
        return false;
    }
    return false;
  }

  std::string last;

 private:
  const test::HqtEnv& env_;
  std::string socket_;
};

class Tui : public ::testing::Test {
 protected:
  void SetUp() override {
    project = env.make_dir("proj");
    env.env["HQT_RESUME_GRACE_MS"] = "400";
    env.write_config(R"(
harnesses:
  - name: sleeper
    command: [sh, -c, "echo sleeper is ready; exec sleep 600"]
  - name: quitter
    command: [sh, -c, "echo quitting soon; sleep 2"]
)");
  }

  void add_project() {
    auto added = env.hqt({"project", "add", project});
    ASSERT_EQ(added.code, 0) << added.err;
  }

  int create(const std::string& harness, const std::string& nickname) {
    auto created = env.hqt({"session", "new", "--project", "proj", "--harness", harness,
                            "--nickname", nickname, "--json"});
    EXPECT_EQ(created.code, 0) << created.err;
    return Poco::JSON::Parser().parse(created.out).extract<Object::Ptr>()->getValue<int>("id");
  }

  Array::Ptr sessions() {
    auto listed = env.hqt({"session", "list", "--json"});
    EXPECT_EQ(listed.code, 0) << listed.err;
    return Poco::JSON::Parser().parse(listed.out).extract<Array::Ptr>();
  }

  test::HqtEnv env;
  std::string project;
};

TEST_F(Tui, EmptyStartSaysWhatToDoAndAddsTheCurrentDirectory) {
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("a: add project")) << screen.last;
  screen.keys({"a"});
  ASSERT_TRUE(screen.wait_for("Add project")) << screen.last;
  EXPECT_NE(screen.last.find(project), std::string::npos) << "the default is the current dir";
  screen.keys({"Enter"});
  ASSERT_TRUE(screen.wait_for("added project 'proj'")) << screen.last;
  EXPECT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  auto listed = env.hqt({"project", "list", "--json"});
  EXPECT_NE(listed.out.find("\"proj\""), std::string::npos) << listed.out;
}

TEST_F(Tui, AddProjectErrorShowsInTheNotificationLineAndTheDialogStays) {
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("a: add project")) << screen.last;
  screen.keys({"a"});
  ASSERT_TRUE(screen.wait_for("Add project")) << screen.last;
  screen.keys({"C-u"});
  screen.type("/no/such/dir");
  screen.keys({"Enter"});
  ASSERT_TRUE(screen.wait_for("no such directory '/no/such/dir'")) << screen.last;
  EXPECT_NE(screen.last.find("Add project"), std::string::npos) << screen.last;
  screen.keys({"Escape"});
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    return s.find("Add project") == std::string::npos;
  })) << screen.last;
  auto listed = env.hqt({"project", "list", "--json"});
  EXPECT_EQ(Poco::JSON::Parser().parse(listed.out).extract<Array::Ptr>()->size(), 0u);
}

TEST_F(Tui, SandboxedReadOnlySessionWithoutNetworkThroughTheDialog) {
  if (paths::which("bwrap").empty()) GTEST_SKIP() << "bwrap is not installed";
  add_project();
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  screen.keys({"n"});
  ASSERT_TRUE(screen.wait_for("New session in proj")) << screen.last;
  ASSERT_TRUE(screen.choose_harness("sleeper")) << screen.last;
  EXPECT_EQ(screen.last.find("Filesystem"), std::string::npos) << "hidden while unsandboxed";
  screen.keys({"Tab"});
  screen.type("jail");
  screen.keys({"Tab", "Tab", "Space"});
  ASSERT_TRUE(screen.wait_for("< Read-write >")) << screen.last;  // the reference default
  ASSERT_NE(screen.line_with("Network").find("[ on  ]"), std::string::npos) << screen.last;
  screen.keys({"Tab", "Space"});
  ASSERT_TRUE(screen.wait_for("< Read-only >")) << screen.last;
  screen.keys({"Tab", "Space"});
  ASSERT_TRUE(screen.wait_line("Network", "[ off ]")) << screen.last;
  screen.keys({"Enter"});
  ASSERT_TRUE(screen.wait_line("jail", "[ro,no-net]")) << screen.last;

  auto list = sessions();
  ASSERT_EQ(list->size(), 1u);
  auto s = list->getObject(0);
  EXPECT_EQ(s->getValue<std::string>("nickname"), "jail");
  auto sandbox = s->getObject("sandbox");
  ASSERT_TRUE(sandbox) << "stored unsandboxed";
  EXPECT_EQ(sandbox->getValue<std::string>("fs"), "ro");
  EXPECT_FALSE(sandbox->getValue<bool>("net"));
}

TEST_F(Tui, WithoutBubblewrapTheSandboxSwitchIsDisabledWithAWarning) {
  add_project();
  // A PATH with what hqt needs (tmux; sh for the harness) and no bwrap.
  std::string bin = env.make_dir("bin-without-bwrap");
  for (const char* tool : {"tmux", "sh", "sleep"}) {
    std::string real = paths::which(tool);
    ASSERT_FALSE(real.empty()) << tool;
    ASSERT_EQ(::symlink(real.c_str(), (bin + "/" + tool).c_str()), 0) << tool;
  }
  Screen screen(env, project, {{"PATH", bin}});
  ASSERT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  screen.keys({"n"});
  ASSERT_TRUE(screen.wait_for("New session in proj")) << screen.last;
  ASSERT_TRUE(screen.wait_for("bubblewrap not found — run `hqt doctor`")) << screen.last;
  EXPECT_NE(screen.line_with("Sandboxed").find("[ off ]"), std::string::npos) << screen.last;
  ASSERT_TRUE(screen.choose_harness("sleeper")) << screen.last;
  // Were the switch reachable, three Tabs would land on it and Space would turn it on; it is
  // skipped, so the focus is on OK and Space creates an unsandboxed session.
  screen.keys({"Tab", "Tab", "Tab", "Space"});
  ASSERT_TRUE(screen.wait_for("started 'sleeper-1'")) << screen.last;
  EXPECT_EQ(screen.last.find("Filesystem"), std::string::npos) << screen.last;
  auto list = sessions();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_TRUE(list->getObject(0)->isNull("sandbox"));
}

TEST_F(Tui, AttachHandsTheTerminalToTmuxAndDetachComesBack) {
  add_project();
  int id = create("sleeper", "worker");
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_line("worker", "sleeper")) << screen.last;
  screen.keys({"Tab", "Enter"});
  // The pane now shows the session itself, through a client of hqt's own tmux server.
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    return s.find("sleeper is ready") != std::string::npos &&
           s.find("Projects") == std::string::npos;
  })) << screen.last;
  std::string tmux_session = "hqt-" + std::to_string(id);
  ASSERT_NE(env.tmux({"list-clients", "-t", "=" + tmux_session}).out, "");
  ASSERT_EQ(env.tmux({"detach-client", "-s", "=" + tmux_session}).code, 0);
  ASSERT_TRUE(screen.wait_for("back from 'worker'")) << screen.last;
  EXPECT_NE(screen.last.find("Projects"), std::string::npos) << screen.last;
  EXPECT_NE(screen.line_with("worker").find("sleeper"), std::string::npos) << screen.last;
}

TEST_F(Tui, EnterOnAStoppedSessionBringsItBackFirst) {
  add_project();
  int id = create("sleeper", "sleepy");
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_line("sleepy", "stopped")) << screen.last;
  screen.keys({"Tab", "Enter"});
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    return s.find("sleeper is ready") != std::string::npos &&
           s.find("Projects") == std::string::npos;
  })) << screen.last;
  ASSERT_EQ(env.tmux({"detach-client", "-s", "=hqt-" + std::to_string(id)}).code, 0);
  ASSERT_TRUE(screen.wait_for("back from 'sleepy'")) << screen.last;
  EXPECT_EQ(screen.line_with("sleepy").find("stopped"), std::string::npos) << screen.last;
}

TEST_F(Tui, ResizeRedrawsAtTheNewSize) {
  add_project();
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  // The frame's bottom edge (row rows-3) spans the whole width at every size.
  auto framed = [](size_t rows, size_t cols) {
    return [rows, cols](const std::string& s) {
      auto lines = lines_of(s);
      if (lines.size() != rows) return false;
      const std::string& bottom = lines[rows - 3];
      return bottom.rfind("└", 0) == 0 && columns(bottom) == cols &&
             bottom.substr(bottom.size() - 3) == "┘";
    };
  };
  ASSERT_TRUE(screen.wait(framed(40, 120))) << screen.last;
  screen.tmux({"resize-window", "-t", "=ui", "-x", "80", "-y", "20"});
  ASSERT_TRUE(screen.wait(framed(20, 80))) << screen.last;
  EXPECT_NE(screen.last.find("Sessions · proj"), std::string::npos) << screen.last;
  screen.tmux({"resize-window", "-t", "=ui", "-x", "40", "-y", "10"});
  ASSERT_TRUE(screen.wait_for("the terminal is too small")) << screen.last;
  screen.tmux({"resize-window", "-t", "=ui", "-x", "100", "-y", "30"});
  ASSERT_TRUE(screen.wait(framed(30, 100))) << screen.last;
}

TEST_F(Tui, StatusChangesOnScreenWhenTheHarnessExits) {
  add_project();
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  screen.keys({"n"});
  ASSERT_TRUE(screen.wait_for("New session in proj")) << screen.last;
  ASSERT_TRUE(screen.choose_harness("quitter")) << screen.last;
  screen.keys({"Enter"});
  ASSERT_TRUE(screen.wait_line("quitter-1", "working")) << screen.last;
  // `sleep 2` ends: the once-a-second refresh shows it without a key.
  ASSERT_TRUE(screen.wait_line("quitter-1", "stopped")) << screen.last;
}

TEST_F(Tui, StatusChangesOnScreenWhenTheSessionIsStoppedElsewhere) {
  add_project();
  int id = create("sleeper", "elsewhere");
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    for (const auto& line : lines_of(s))
      if (line.find("elsewhere") != std::string::npos &&
          (line.find("working") != std::string::npos || line.find("idle") != std::string::npos))
        return true;
    return false;
  })) << screen.last;
  ASSERT_TRUE(screen.wait_for("sleeper is ready")) << "the preview shows the pane";
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  ASSERT_TRUE(screen.wait_line("elsewhere", "stopped")) << screen.last;
}

TEST_F(Tui, StopRenameAndDeleteWithConfirmation) {
  add_project();
  int id = create("sleeper", "victim");
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_line("victim", "sleeper")) << screen.last;
  screen.keys({"Tab", "s"});
  ASSERT_TRUE(screen.wait_line("victim", "stopped")) << screen.last;

  screen.keys({"r"});
  ASSERT_TRUE(screen.wait_for("Nickname")) << screen.last;
  screen.keys({"C-u"});
  screen.type("renamed");
  screen.keys({"Enter"});
  ASSERT_TRUE(screen.wait_line("renamed", "stopped")) << screen.last;
  EXPECT_EQ(sessions()->getObject(0)->getValue<std::string>("nickname"), "renamed");

  screen.keys({"d"});
  ASSERT_TRUE(screen.wait_for("Delete session 'renamed'")) << screen.last;
  screen.keys({"n"});
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    return s.find("Delete session") == std::string::npos;
  })) << screen.last;
  EXPECT_EQ(sessions()->size(), 1u);
  screen.keys({"d"});
  ASSERT_TRUE(screen.wait_for("Delete session 'renamed'")) << screen.last;
  screen.keys({"y"});
  ASSERT_TRUE(screen.wait_for("deleted session #" + std::to_string(id))) << screen.last;
  EXPECT_EQ(sessions()->size(), 0u);
}

TEST_F(Tui, HangupRestoresTheTerminal) {
  // After hqt, the pane's shell prints the terminal's line discipline: cooked and echoing again.
  Screen screen(env, project, {},
                "echo \"[hqt exited $?]\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon "
                "-e echo -e -echo | tr '\\n' ' '; echo");
  ASSERT_TRUE(screen.wait_for("a: add project")) << screen.last;
  std::string shell = screen.tmux({"display-message", "-p", "-t", "=ui:", "#{pane_pid}"}).out;
  shell.erase(shell.find_last_not_of('\n') + 1);
  std::string hqt = test::read_file("/proc/" + shell + "/task/" + shell + "/children");
  hqt.erase(hqt.find_last_not_of(" \n") + 1);
  ASSERT_FALSE(hqt.empty());
  ASSERT_EQ(::kill(std::stoi(hqt), SIGHUP), 0);
  ASSERT_TRUE(screen.wait_for("[hqt exited")) << screen.last;
  ASSERT_TRUE(screen.wait_for("icanon echo")) << screen.last;
}

TEST_F(Tui, HelpOverlayOpensAndCloses) {
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("a: add project")) << screen.last;
  screen.keys({"?"});
  // Both lines at once: a capture can land while the overlay is half drawn.
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    return s.find("hqt keys") != std::string::npos &&
           s.find("quit (sessions keep running)") != std::string::npos;
  })) << screen.last;
  screen.keys({"x"});
  ASSERT_TRUE(screen.wait([](const std::string& s) {
    return s.find("hqt keys") == std::string::npos;
  })) << screen.last;
}

TEST_F(Tui, QuitLeavesEverySessionRunning) {
  add_project();
  create("sleeper", "keeper");
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_line("keeper", "sleeper")) << screen.last;
  screen.keys({"q"});
  ASSERT_TRUE(screen.wait_for("[hqt exited 0]")) << screen.last;
  EXPECT_NE(sessions()->getObject(0)->getValue<std::string>("status"), "stopped");
}

TEST_F(Tui, SpawnFailureShowsItsFirstLineAndTheUiGoesOn) {
  add_project();
  Screen screen(env, project, {{"HQT_TMUX_SOCKET", "no-such-dir/socket"}});
  ASSERT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  screen.keys({"n"});
  ASSERT_TRUE(screen.wait_for("New session in proj")) << screen.last;
  ASSERT_TRUE(screen.choose_harness("sleeper")) << screen.last;
  screen.keys({"Enter"});
  ASSERT_TRUE(screen.wait_for("was created but its harness failed to start")) << screen.last;
  EXPECT_NE(screen.line_with("sleeper-1").find("stopped"), std::string::npos) << screen.last;
  screen.keys({"q"});
  ASSERT_TRUE(screen.wait_for("[hqt exited 0]")) << screen.last;
}

TEST_F(Tui, BadConfigIsReportedAndTheUiKeepsRunning) {
  add_project();
  env.write_config("harnesses: 5\n");
  Screen screen(env, project);
  ASSERT_TRUE(screen.wait_for("Sessions · proj")) << screen.last;
  ASSERT_TRUE(screen.wait_for("config.yaml")) << screen.last;
  screen.keys({"n"});
  screen.keys({"?"});
  ASSERT_TRUE(screen.wait_for("hqt keys")) << "still reading keys: " << screen.last;
  screen.keys({"x", "q"});
  ASSERT_TRUE(screen.wait_for("[hqt exited 0]")) << screen.last;
}

TEST(TuiTerminal, WithoutATerminalHqtSaysSoAndExits2) {
  test::HqtEnv env;
  auto result = env.hqt({});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("not a terminal"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace hqt
