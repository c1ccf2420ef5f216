// Sandboxed sessions through the CLI: the policy is stored, shown, and reused by every rung of
// the resume ladder; without bwrap nothing starts and no row is left.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <thread>

#include "adapters/paths.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

using Poco::JSON::Object;
namespace fs = std::filesystem;

class SandboxSession : public ::testing::Test {
 protected:
  void SetUp() override {
    if (paths::which("bwrap").empty()) GTEST_SKIP() << "bwrap is not installed";
    project = env.make_dir("proj");
    bin = env.make_dir("bin");
    env.env["PATH"] = bin + ":" + test::getenv_or("PATH", "/usr/bin:/bin");
    env.env["HQT_RESUME_GRACE_MS"] = "500";
    env.write_config("harnesses:\n  - {name: sleeper, command: [sleep, '600']}\n");
    ASSERT_EQ(env.hqt({"project", "add", project, "--name", "proj"}).code, 0);
  }

  Object::Ptr create(const std::vector<std::string>& extra,
                     const std::string& harness = "sleeper") {
    std::vector<std::string> args{"session",   "new",   "--project", "proj",
                                  "--harness", harness, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto created = env.hqt(args);
    EXPECT_EQ(created.code, 0) << created.err;
    return Poco::JSON::Parser().parse(created.out).extract<Object::Ptr>();
  }

  // The command tmux started in the session's pane.
  std::string pane_command(int id) {
    return env
        .tmux({"display-message", "-p", "-t", "=hqt-" + std::to_string(id) + ":",
               "#{pane_start_command}"})
        .out;
  }

  test::HqtEnv env;
  std::string project;
  std::string bin;
};

TEST_F(SandboxSession, FsAndNetImplySandboxAndAreStored) {
  auto ro = create({"--fs", "ro"});
  EXPECT_EQ(ro->getObject("sandbox")->getValue<std::string>("fs"), "ro");
  EXPECT_TRUE(ro->getObject("sandbox")->getValue<bool>("net"));
  auto offline = create({"--net", "off"});
  EXPECT_EQ(offline->getObject("sandbox")->getValue<std::string>("fs"), "rw");
  EXPECT_FALSE(offline->getObject("sandbox")->getValue<bool>("net"));
  auto defaults = create({"--sandbox"});
  EXPECT_EQ(defaults->getObject("sandbox")->getValue<std::string>("fs"), "rw");
  EXPECT_TRUE(defaults->getObject("sandbox")->getValue<bool>("net"));
  auto plain = create({});
  EXPECT_TRUE(plain->isNull("sandbox"));
}

// `session show` only shows: the binds Claude Code's sandbox creates when it starts
// (~/.claude, ~/.claude.json) are shown where they will be and not created.
TEST_F(SandboxSession, ShowCreatesNothingInHome) {
  test::write_file(bin + "/claude", "#!/bin/sh\nexec sleep 600\n");
  fs::permissions(bin + "/claude", fs::perms::owner_all);
  int id = create({"--sandbox"}, "claude")->getValue<int>("id");
  fs::remove_all(env.home + "/.claude");
  fs::remove(env.home + "/.claude.json");
  auto shown = env.hqt({"session", "show", std::to_string(id)});
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_FALSE(fs::exists(env.home + "/.claude"));
  EXPECT_FALSE(fs::exists(env.home + "/.claude.json"));
  std::string home = fs::canonical(env.home).string();
  EXPECT_NE(shown.out.find("--bind " + home + "/.claude " + env.home + "/.claude "),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("--bind " + home + "/.claude.json " + env.home + "/.claude.json"),
            std::string::npos)
      << shown.out;
}

// A sandboxed codex names its conversation from inside the sandbox: hqt still sees which rollout
// file it holds open (the same path inside as outside) and takes that one, not a conversation of
// the project that started a moment before it.
TEST_F(SandboxSession, SandboxedCodexGetsTheConversationItHoldsOpen) {
  test::write_file(bin + "/codex",
                   "#!/bin/sh\n"
                   "id=$(cat /proc/sys/kernel/random/uuid)\n"
                   "start=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)\n"
                   "dir=\"$HOME/.codex/sessions/$(date -u +%Y/%m/%d)\"; mkdir -p \"$dir\"\n"
                   "file=\"$dir/rollout-$id.jsonl\"\n"
                   "printf '{\"timestamp\":\"%s\",\"type\":\"session_meta\",\"payload\":"
                   "{\"id\":\"%s\",\"timestamp\":\"%s\",\"cwd\":\"%s\"}}\\n' \"$start\" $id "
                   "\"$start\" \"$PWD\" > \"$file\"\n"
                   "exec 3>>\"$file\"\necho $id > \"$PWD/.codex-id\"\nexec sleep 600\n");
  fs::permissions(bin + "/codex", fs::perms::owner_all);
  int id = create({"--sandbox"}, "codex")->getValue<int>("id");
  for (int i = 0; i < 100 && !fs::exists(project + "/.codex-id"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::string own = test::read_file(project + "/.codex-id");
  own = own.substr(0, own.find('\n'));
  ASSERT_FALSE(own.empty());
  // Another conversation of the project, started a second before the session's own.
  std::time_t before = std::time(nullptr) - 1;
  std::tm tm{};
  gmtime_r(&before, &tm);
  char day[16], earlier[32];
  std::strftime(day, sizeof day, "%Y/%m/%d", &tm);
  std::strftime(earlier, sizeof earlier, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
  const std::string decoy = "01a22af4-0000-7000-8000-00000000dec0";
  fs::create_directories(env.home + "/.codex/sessions/" + day);
  test::write_file(env.home + "/.codex/sessions/" + day + "/rollout-" + decoy + ".jsonl",
                   R"({"timestamp":")" + std::string(earlier) +
                       R"(","type":"session_meta","payload":{"id":")" + decoy +
                       R"(","timestamp":")" + earlier + R"(","cwd":")" + project + "\"}}\n");
  auto shown = env.hqt({"session", "show", std::to_string(id), "--json"});
  auto s = Poco::JSON::Parser().parse(shown.out).extract<Object::Ptr>();
  EXPECT_EQ(s->optValue<std::string>("harness_session_id", ""), own);
  EXPECT_NE(pane_command(id).find("bwrap"), std::string::npos);
}

TEST_F(SandboxSession, ShowPrintsThePolicyAndTheBwrapCommandLine) {
  int id = create({"--fs", "ro", "--net", "off"})->getValue<int>("id");
  auto shown = env.hqt({"session", "show", std::to_string(id)});
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_NE(shown.out.find("sandbox:      on (filesystem read-only, network off)"),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find(" -- " + paths::which("bwrap") + " "), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("--ro-bind " + project + " " + project), std::string::npos);
  EXPECT_EQ(shown.out.find("--share-net"), std::string::npos);
  EXPECT_NE(pane_command(id).find("bwrap"), std::string::npos);
}

TEST_F(SandboxSession, ResumeReusesTheStoredPolicy) {
  int id = create({"--fs", "ro", "--net", "off"})->getValue<int>("id");
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  std::string command = pane_command(id);
  EXPECT_NE(command.find("bwrap"), std::string::npos) << command;
  EXPECT_NE(command.find("--ro-bind " + project + " " + project), std::string::npos) << command;
  EXPECT_EQ(command.find("--share-net"), std::string::npos) << command;
}

TEST_F(SandboxSession, FreshRungAfterAFailedResumeIsSandboxedToo) {
  // A stand-in claude: resuming fails, a fresh start stays up. It lives outside $HOME and is
  // shown inside read-only.
  std::string claude = bin + "/claude";
  test::write_file(claude, "#!/bin/sh\ncase \"$1\" in --resume) exit 1;; esac\nexec sleep 600\n");
  ::chmod(claude.c_str(), 0755);
  auto created = create({"--fs", "ro"}, "claude");
  int id = created->getValue<int>("id");
  std::string conversation = created->getValue<std::string>("harness_session_id");
  ASSERT_EQ(env.hqt({"session", "stop", std::to_string(id)}).code, 0);
  auto resumed = env.hqt({"session", "resume", std::to_string(id)});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("started fresh"), std::string::npos) << resumed.out;
  std::string command = pane_command(id);
  EXPECT_NE(command.find("bwrap"), std::string::npos) << command;
  EXPECT_NE(command.find("--session-id " + conversation + " --dangerously-skip-permissions"),
            std::string::npos)
      << command;
}

TEST_F(SandboxSession, WithoutBwrapNothingStartsAndNoRowIsLeft) {
  std::string limited = env.make_dir("limited-bin");
  for (const char* program : {"tmux", "sh", "sleep"})
    ::symlink(paths::which(program).c_str(), (limited + "/" + program).c_str());
  env.env["PATH"] = limited;
  auto created =
      env.hqt({"session", "new", "--project", "proj", "--harness", "sleeper", "--sandbox"});
  EXPECT_EQ(created.code, 1);
  EXPECT_NE(created.err.find("bubblewrap (bwrap) is not available"), std::string::npos)
      << created.err;
  EXPECT_EQ(env.hqt({"session", "list", "--json"}).out, "[]\n");
  EXPECT_NE(env.tmux({"has-session"}).code, 0) << "nothing was started";
}

}  // namespace
}  // namespace hqt
