// Sessions through the real hqt binary, the real plugins and a private tmux server per test.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "integration/test_util.h"

namespace hqt {
namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

Poco::Dynamic::Var parse_json(const std::string& text) { return Poco::JSON::Parser().parse(text); }

class SessionCli : public ::testing::Test {
 protected:
  void SetUp() override {
    project = env.make_dir("proj");
    bin = env.make_dir("bin");
    env.env["PATH"] = bin + ":" + test::getenv_or("PATH", "/usr/bin:/bin");
    env.env["HQT_RESUME_GRACE_MS"] = "400";
    env.write_config(R"(
harnesses:
  - name: sleeper
    command: [sh, -c, "echo ready; exec sleep 600"]
  - name: quitter
    command: [sh, -c, "echo bye"]
  - name: envy
    command: [sh, -c, "echo token=$HQT_TEST_TOKEN; exec sleep 600"]
    env: [HQT_TEST_TOKEN]
)");
    auto added = env.hqt({"project", "add", project, "--name", "proj"});
    ASSERT_EQ(added.code, 0) << added.err;
  }

  // Writes an executable script into the PATH directory of this test.
  void script(const std::string& name, const std::string& body) {
    std::string path = bin + "/" + name;
    test::write_file(path, "#!/bin/sh\n" + body);
    ::chmod(path.c_str(), 0755);
  }

  Object::Ptr session(int id) {
    auto shown = env.hqt({"session", "show", std::to_string(id), "--json"});
    EXPECT_EQ(shown.code, 0) << shown.err;
    return parse_json(shown.out).extract<Object::Ptr>();
  }

  std::string status(int id) { return session(id)->getValue<std::string>("status"); }

  // Polls until the session has `want` status (a harness takes a moment to exit).
  bool wait_status(int id, const std::string& want) {
    for (int i = 0; i < 100; ++i) {
      if (status(id) == want) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  int create(const std::string& harness, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"session",   "new",   "--project", "proj",
                                  "--harness", harness, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto created = env.hqt(args);
    EXPECT_EQ(created.code, 0) << created.err;
    return parse_json(created.out).extract<Object::Ptr>()->getValue<int>("id");
  }

  test::HqtEnv env;
  std::string project;
  std::string bin;
};

TEST_F(SessionCli, NewSessionRunsInItsOwnTmuxSessionInTheProjectDir) {
  int id = create("sleeper", {"--nickname", "first"});
  auto s = session(id);
  EXPECT_EQ(s->getValue<std::string>("project"), "proj");
  EXPECT_EQ(s->getValue<std::string>("harness"), "sleeper");
  EXPECT_EQ(s->getValue<std::string>("nickname"), "first");
  EXPECT_EQ(s->getValue<std::string>("tmux_session"), "hqt-" + std::to_string(id));
  EXPECT_TRUE(s->isNull("sandbox"));
  EXPECT_NE(s->getValue<std::string>("status"), "stopped");
  auto panes = env.tmux({"list-panes", "-a", "-F", "#{session_name} #{pane_current_path}"});
  EXPECT_EQ(panes.out, "hqt-" + std::to_string(id) + " " + project + "\n");
}

TEST_F(SessionCli, ListJsonCarriesTheContractFields) {
  create("sleeper");
  auto listed = env.hqt({"session", "list", "--json"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  auto array = parse_json(listed.out).extract<Array::Ptr>();
  ASSERT_EQ(array->size(), 1u);
  auto s = array->getObject(0);
  for (const char* key : {"id", "project", "harness", "nickname", "model", "status", "sandbox",
                          "tmux_session", "harness_session_id", "created_at"})
    EXPECT_TRUE(s->has(key)) << key;
}

TEST_F(SessionCli, HarnessThatExitsLeavesADeadPaneAndReadsStopped) {
  int id = create("quitter");
  ASSERT_TRUE(wait_status(id, "stopped"));
  // The pane stays, dead: nothing else runs in it until hqt respawns or removes it.
  auto panes = env.tmux({"list-panes", "-a", "-F", "#{session_name} #{pane_dead}"});
  EXPECT_EQ(panes.out, "hqt-" + std::to_string(id) + " 1\n");
}

TEST_F(SessionCli, StopKeepsTheRowAndResumeBringsItBack) {
  int id = create("sleeper");
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  EXPECT_EQ(status(id), "stopped");
  EXPECT_NE(env.tmux({"has-session", "-t", "=hqt-" + std::to_string(id)}).code, 0);
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("resumed"), std::string::npos) << resumed.out;
  EXPECT_NE(status(id), "stopped");
}

TEST_F(SessionCli, FailedResumeFallsBackToFreshAndKeepsTheConversationId) {
  // A stand-in claude on PATH: resuming fails, a fresh start stays up. The real claude plugin
  // builds the argv.
  std::string log = env.root + "/claude.log";
  script("claude",
         "echo \"$@\" >> " + log + "\ncase \"$1\" in --resume) exit 1;; esac\nexec sleep 600\n");
  int id = create("claude");
  std::string conversation = session(id)->getValue<std::string>("harness_session_id");
  ASSERT_EQ(conversation.size(), 36u);
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("started fresh"), std::string::npos) << resumed.out;
  EXPECT_EQ(session(id)->getValue<std::string>("harness_session_id"), conversation);
  EXPECT_EQ(test::read_file(log), "--session-id " + conversation + "\n--resume " + conversation +
                                      "\n--session-id " + conversation + "\n");
}

TEST_F(SessionCli, WhenEveryRungFailsTheIdIsKeptAndTheErrorSaysSo) {
  script("claude", "exit 1\n");
  int id = create("claude");
  std::string conversation = session(id)->getValue<std::string>("harness_session_id");
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  EXPECT_EQ(resumed.code, 1);
  EXPECT_NE(resumed.err.find("could not be started"), std::string::npos) << resumed.err;
  EXPECT_EQ(session(id)->getValue<std::string>("harness_session_id"), conversation);
}

TEST_F(SessionCli, KilledTmuxServerReadsStoppedAndTheNextSpawnStartsANewServer) {
  int first = create("sleeper");
  env.tmux({"kill-server"});
  EXPECT_EQ(status(first), "stopped");
  int second = create("sleeper");
  EXPECT_NE(status(second), "stopped");
  auto resumed = env.hqt({"session", "resume", std::to_string(first)});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(status(first), "stopped");
}

TEST_F(SessionCli, StatusOfManySessionsComesFromOneTmuxInvocation) {
  for (int i = 0; i < 12; ++i) create("sleeper");
  // Count the tmux processes one listing starts, through a logging tmux first on PATH.
  std::string real_tmux = test::run_process({"sh", "-c", "command -v tmux"}).out;
  real_tmux.erase(real_tmux.find_last_not_of('\n') + 1);
  std::string log = env.root + "/tmux.log";
  script("tmux", "echo x >> " + log + "\nexec " + real_tmux + " \"$@\"\n");
  auto listed = env.hqt({"session", "list", "--json"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  auto array = parse_json(listed.out).extract<Array::Ptr>();
  ASSERT_EQ(array->size(), 12u);
  for (size_t i = 0; i < array->size(); ++i)
    EXPECT_NE(array->getObject(i)->getValue<std::string>("status"), "stopped");
  // The listing, then the batched capture through the same tmux client.
  EXPECT_EQ(test::read_file(log), "x\n");
}

TEST_F(SessionCli, UnknownProjectHarnessOrIdIsBadInputAndLeavesNoRow) {
  auto bad_harness = env.hqt({"session", "new", "--project", "proj", "--harness", "nope"});
  EXPECT_EQ(bad_harness.code, 2);
  EXPECT_NE(bad_harness.err.find("no harness named 'nope'"), std::string::npos) << bad_harness.err;
  auto bad_project = env.hqt({"session", "new", "--project", "zzz", "--harness", "sleeper"});
  EXPECT_EQ(bad_project.code, 2);
  EXPECT_NE(bad_project.err.find("no project named 'zzz'"), std::string::npos);
  auto bad_id = env.hqt({"session", "show", "42"});
  EXPECT_EQ(bad_id.code, 2);
  EXPECT_NE(bad_id.err.find("no session with id 42"), std::string::npos);
  auto not_number = env.hqt({"session", "stop", "abc"});
  EXPECT_EQ(not_number.code, 2);
  EXPECT_NE(not_number.err.find("'abc' is not a session id"), std::string::npos);
  auto bad_fs =
      env.hqt({"session", "new", "--project", "proj", "--harness", "sleeper", "--fs", "x"});
  EXPECT_EQ(bad_fs.code, 2);
  EXPECT_NE(bad_fs.err.find("--fs must be rw or ro, not 'x'"), std::string::npos);
  EXPECT_EQ(env.hqt({"session", "list", "--json"}).out, "[]\n");
}

TEST_F(SessionCli, SpawnFailureKeepsTheRowAndReportsTheError) {
  env.env["HQT_TMUX_SOCKET"] = "no-such-dir/socket";
  auto created = env.hqt({"session", "new", "--project", "proj", "--harness", "sleeper"});
  EXPECT_EQ(created.code, 1);
  EXPECT_NE(created.err.find("failed to start"), std::string::npos) << created.err;
  auto listed = env.hqt({"session", "list", "--json"});
  EXPECT_EQ(parse_json(listed.out).extract<Array::Ptr>()->size(), 1u);
}

TEST_F(SessionCli, RenameAndRemove) {
  int id = create("sleeper");
  ASSERT_EQ(env.hqt({"session", "rename", std::to_string(id), "better"}).code, 0);
  EXPECT_EQ(session(id)->getValue<std::string>("nickname"), "better");
  // The tmux window carries the nickname too, for whoever attaches.
  EXPECT_EQ(env.tmux({"display-message", "-p", "-t", "=hqt-" + std::to_string(id) + ":",
                      "#{window_name}"})
                .out,
            "better\n");
  ASSERT_EQ(env.hqt({"session", "rm", std::to_string(id)}).code, 0);
  EXPECT_EQ(env.hqt({"session", "show", std::to_string(id)}).code, 2);
  EXPECT_NE(env.tmux({"has-session", "-t", "=hqt-" + std::to_string(id)}).code, 0);
}

TEST_F(SessionCli, ShowPrintsTheExactCommandLine) {
  int id = create("sleeper");
  auto shown = env.hqt({"session", "show", std::to_string(id)});
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_NE(shown.out.find("command:      sh -c 'echo ready; exec sleep 600'"), std::string::npos)
      << shown.out;
}

TEST_F(SessionCli, AttachFromInsideAnotherTmuxAndDetachReturns) {
  int id = create("sleeper");
  // The terminal is a pane of another tmux server, so TMUX is set: hqt's server is a different
  // one and attaching to it is intended.
  std::string outer = env.socket + "-outer";
  std::string command = "env";
  for (const auto& [name, value] : env.env)
    if (!value.empty()) command += " '" + name + "=" + value + "'";
  command += std::string(" ") + HQT_BIN + " session attach " + std::to_string(id) +
             "; echo attach-exit=$?; sleep 60";
  ASSERT_EQ(test::run_process(
                {"tmux", "-L", outer, "new-session", "-d", "-x", "100", "-y", "30", command})
                .code,
            0);
  auto screen = [&] { return test::run_process({"tmux", "-L", outer, "capture-pane", "-p"}).out; };
  bool attached = false;
  for (int i = 0; i < 100 && !attached; ++i) {
    attached = screen().find("ready") != std::string::npos;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(attached) << screen();
  env.tmux({"detach-client", "-s", "hqt-" + std::to_string(id)});
  bool back = false;
  for (int i = 0; i < 100 && !back; ++i) {
    back = screen().find("attach-exit=0") != std::string::npos;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(back) << screen();
  test::run_process({"tmux", "-L", outer, "kill-server"});
  EXPECT_NE(status(id), "stopped") << "detaching leaves the session running";
}

TEST_F(SessionCli, CodexConversationIdIsCapturedEvenAfterItExitedAndResumed) {
  // A stand-in codex on PATH that, like the real one, writes a rollout file whose first line
  // names the conversation, its start and the project dir, then ends on its own.
  const std::string conversation = "019a0c1e-7a3b-7c2d-9e4f-0123456789ab";
  std::string log = env.root + "/codex.log";
  script("codex", "echo \"$@\" >> " + log +
                      "\ncase \"$1\" in resume) exec sleep 600;; esac\n"
                      "dir=\"$HOME/.codex/sessions/$(date -u +%Y/%m/%d)\"; mkdir -p \"$dir\"\n"
                      "now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)\n"
                      "printf '{\"timestamp\":\"%s\",\"type\":\"session_meta\",\"payload\":"
                      "{\"id\":\"%s\",\"timestamp\":\"%s\",\"cwd\":\"%s\"}}\\n' \"$now\" " +
                      conversation +
                      " \"$now\" \"$PWD\" > \"$dir/rollout-$(date -u +%Y-%m-%dT%H-%M-%S)-" +
                      conversation + ".jsonl\"\n");
  int id = create("codex");
  ASSERT_TRUE(wait_status(id, "stopped"));
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("resumed"), std::string::npos) << resumed.out;
  EXPECT_EQ(session(id)->getValue<std::string>("harness_session_id"), conversation);
  EXPECT_EQ(test::read_file(log), "\nresume " + conversation + "\n");
}

TEST_F(SessionCli, TwoCodexSessionsInOneProjectNeverShareAConversation) {
  // Stand-in codex: writes a rollout file naming a new conversation, started at its launch. The
  // first one launched only writes it when the test says so, after the second one has.
  std::string first = env.root + "/first-launched", go = env.root + "/go";
  script("codex",
         "start=$(date -u +%Y-%m-%dT%H:%M:%S.000Z); id=$(cat /proc/sys/kernel/random/uuid)\n"
         "if [ ! -e " +
             first + " ]; then touch " + first + "; echo $id > " + first + "; while [ ! -e " + go +
             " ]; do sleep 0.1; done; else echo $id > " + go +
             ".second; fi\n"
             "dir=\"$HOME/.codex/sessions/$(date -u +%Y/%m/%d)\"; mkdir -p \"$dir\"\n"
             "printf '{\"timestamp\":\"%s\",\"type\":\"session_meta\",\"payload\":"
             "{\"id\":\"%s\",\"timestamp\":\"%s\",\"cwd\":\"%s\"}}\\n' \"$start\" $id "
             "\"$start\" \"$PWD\" > \"$dir/rollout-$id.jsonl\"\nexec sleep 600\n");
  int a = create("codex");
  // Launches further apart than the clock slack the capture allows.
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  int b = create("codex");
  auto id_of = [&](int id) {
    auto s = session(id);
    return s->isNull("harness_session_id") ? std::string()
                                           : s->getValue<std::string>("harness_session_id");
  };
  std::string b_id;
  for (int i = 0; i < 100 && b_id.empty(); ++i) {
    b_id = id_of(b);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  auto trimmed = [](std::string s) { return s.substr(0, s.find('\n')); };
  EXPECT_EQ(b_id, trimmed(test::read_file(go + ".second")));
  EXPECT_EQ(id_of(a), "") << "the older session must not take the newer one's conversation";
  test::write_file(go, "");
  std::string a_id;
  for (int i = 0; i < 100 && a_id.empty(); ++i) {
    a_id = id_of(a);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(a_id, trimmed(test::read_file(first)));
  EXPECT_NE(a_id, b_id);
}

TEST_F(SessionCli, CodexSessionsLaunchedTogetherEachGetTheConversationTheyHoldOpen) {
  // Stand-in codex that, like the real one, keeps its rollout file open while it runs. Launched
  // back to back, the second one's conversation starts a second after the first one's, so
  // going by start times alone the newer session would take the older one's conversation.
  std::string first = env.root + "/first", second = env.root + "/second";
  script("codex",
         "id=$(cat /proc/sys/kernel/random/uuid)\n"
         "if mkdir " +
             first + ".lock 2>/dev/null; then echo $id > " + first +
             "; start=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)\n"
             "else echo $id > " +
             second +
             "; start=$(date -u -d '+1 second' +%Y-%m-%dT%H:%M:%S.000Z); fi\n"
             "dir=\"$HOME/.codex/sessions/$(date -u +%Y/%m/%d)\"; mkdir -p \"$dir\"\n"
             "file=\"$dir/rollout-$id.jsonl\"\n"
             "printf '{\"timestamp\":\"%s\",\"type\":\"session_meta\",\"payload\":"
             "{\"id\":\"%s\",\"timestamp\":\"%s\",\"cwd\":\"%s\"}}\\n' \"$start\" $id "
             "\"$start\" \"$PWD\" > \"$file\"\n"
             "exec 3>>\"$file\"\nexec sleep 600\n");
  int a = create("codex");
  int b = create("codex");
  auto id_of = [&](int id) {
    auto s = session(id);
    return s->isNull("harness_session_id") ? std::string()
                                           : s->getValue<std::string>("harness_session_id");
  };
  std::string a_id, b_id;
  for (int i = 0; i < 100 && (a_id.empty() || b_id.empty()); ++i) {
    b_id = id_of(b);
    a_id = id_of(a);
    if (a_id.empty() || b_id.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  auto trimmed = [](std::string s) { return s.substr(0, s.find('\n')); };
  EXPECT_EQ(a_id, trimmed(test::read_file(first)));
  EXPECT_EQ(b_id, trimmed(test::read_file(second)));
}

TEST_F(SessionCli, DeclaredVariablesReachThePaneButNeverATmuxCommandLine) {
  std::string real_tmux = test::run_process({"sh", "-c", "command -v tmux"}).out;
  real_tmux.erase(real_tmux.find_last_not_of('\n') + 1);
  std::string log = env.root + "/tmux-args.log";
  script("tmux", "echo \"$@\" >> " + log + "\nexec " + real_tmux + " \"$@\"\n");
  env.env["HQT_TEST_TOKEN"] = "s3cret-first";
  int id = create("envy");
  auto screen = [&] {
    return env.tmux({"capture-pane", "-p", "-t", "=hqt-" + std::to_string(id) + ":"}).out;
  };
  auto wait_screen = [&](const std::string& text) {
    for (int i = 0; i < 50 && screen().find(text) == std::string::npos; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return screen().find(text) != std::string::npos;
  };
  EXPECT_TRUE(wait_screen("token=s3cret-first")) << screen();
  // A resume takes the value as it is now.
  env.env["HQT_TEST_TOKEN"] = "s3cret-rotated";
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  ASSERT_EQ(env.hqt({"session", "resume", std::to_string(id)}).code, 0);
  EXPECT_TRUE(wait_screen("token=s3cret-rotated")) << screen();
  std::string args = test::read_file(log);
  EXPECT_NE(args.find("update-environment HQT_TEST_TOKEN"), std::string::npos) << args;
  EXPECT_EQ(args.find("s3cret"), std::string::npos) << args;
}

TEST_F(SessionCli, AProjectDirectoryThatIsGoneIsRefusedNotReplaced) {
  int id = create("sleeper");
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  std::filesystem::remove_all(project);
  auto created = env.hqt({"session", "new", "--project", "proj", "--harness", "sleeper"});
  EXPECT_EQ(created.code, 1);
  EXPECT_NE(created.err.find("directory " + project + " does not exist any more"),
            std::string::npos)
      << created.err;
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  EXPECT_EQ(resumed.code, 1);
  EXPECT_NE(resumed.err.find("does not exist any more"), std::string::npos) << resumed.err;
  auto listed = env.hqt({"session", "list", "--json"});
  EXPECT_EQ(parse_json(listed.out).extract<Array::Ptr>()->size(), 1u) << "no new row";
  EXPECT_NE(env.tmux({"has-session"}).code, 0) << "nothing started elsewhere";
}

TEST_F(SessionCli, AttachWithoutATerminalSaysSo) {
  int id = create("sleeper");
  auto attached = env.hqt({"session", "attach", std::to_string(id)});
  EXPECT_EQ(attached.code, 2);
  EXPECT_NE(attached.err.find("session attach needs a terminal"), std::string::npos)
      << attached.err;
  EXPECT_NE(status(id), "stopped");
}

}  // namespace
}  // namespace hqt
