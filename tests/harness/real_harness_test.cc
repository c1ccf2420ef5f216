// Real harnesses (Claude Code and Codex from the npm registry) started by hqt inside the sandbox.
// Without network they still start and draw their first screen. Label "harness"; `./dev test`
// installs both and sets HQT_REQUIRE_HARNESSES=1 so a missing one fails instead of skipping.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "integration/test_util.h"

namespace hqt {
namespace {

class RealHarness : public ::testing::Test {
 protected:
  void require(const std::string& program) {
    if (!test::run_process({"sh", "-c", "command -v " + program}).out.empty()) return;
    if (test::getenv_or("HQT_REQUIRE_HARNESSES", "") == "1")
      FAIL() << program << " is not installed (./dev test installs it)";
    GTEST_SKIP() << program << " is not installed";
  }

  void SetUp() override {
    // Claude Code updates itself in place when it can reach the registry: not in tests.
    env.env["DISABLE_AUTOUPDATER"] = "1";
    project = env.make_dir("proj");
    ASSERT_EQ(env.hqt({"project", "add", project, "--name", "proj"}).code, 0);
  }

  int create(const std::string& harness, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"session",   "new",   "--project", "proj",
                                  "--harness", harness, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto created = env.hqt(args);
    EXPECT_EQ(created.code, 0) << created.err;
    return Poco::JSON::Parser()
        .parse(created.out)
        .extract<Poco::JSON::Object::Ptr>()
        ->getValue<int>("id");
  }

  // The pane's screen once it shows `text`, or the last screen after 30 s.
  std::string screen_with(int id, const std::string& text) {
    std::string screen;
    for (int i = 0; i < 300; ++i) {
      screen = env.tmux({"capture-pane", "-p", "-t", "=hqt-" + std::to_string(id) + ":"}).out;
      if (screen.find(text) != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return screen;
  }

  test::HqtEnv env;
  std::string project;
};

TEST_F(RealHarness, SandboxedClaudeCodeStartsAndKeepsItsStateThroughTheBind) {
  require("claude");
  int id = create("claude", {"--sandbox"});
  // With no network Claude Code draws its logo and says it cannot reach the API. It must not
  // refuse the skip-permissions flag as root (IS_SANDBOX=1 inside).
  std::string screen = screen_with(id, "Anthropic");
  EXPECT_NE(screen.find("Anthropic"), std::string::npos) << screen;
  EXPECT_EQ(screen.find("cannot be used with root"), std::string::npos) << screen;
  // ~/.claude.json was created as {} and Claude Code wrote its state into it through the bind.
  std::string state;
  for (int i = 0; i < 100 && state.find("firstStartTime") == std::string::npos; ++i) {
    state = test::read_file(env.home + "/.claude.json");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_NE(state.find("firstStartTime"), std::string::npos) << state;
  auto shown = env.hqt({"session", "show", std::to_string(id)});
  EXPECT_NE(shown.out.find("--dangerously-skip-permissions"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("bwrap"), std::string::npos) << shown.out;
}

TEST_F(RealHarness, SandboxedCodexStartsAndDrawsItsFirstScreen) {
  require("codex");
  int id = create("codex", {"--sandbox", "--fs", "ro"});
  std::string screen = screen_with(id, "Codex");
  EXPECT_NE(screen.find("Welcome to Codex"), std::string::npos) << screen;
  // Codex writes its home through the ~/.codex bind.
  EXPECT_FALSE(test::read_file(env.home + "/.codex/installation_id").empty());
  auto listed = env.hqt({"session", "list", "--json"});
  EXPECT_NE(listed.out.find("\"fs\": \"ro\""), std::string::npos) << listed.out;
}

TEST_F(RealHarness, UnsandboxedCodexStartsToo) {
  require("codex");
  int id = create("codex", {});
  EXPECT_NE(screen_with(id, "Codex").find("Welcome to Codex"), std::string::npos);
  auto shown = env.hqt({"session", "show", std::to_string(id)});
  EXPECT_EQ(shown.out.find("--dangerously-bypass-approvals-and-sandbox"), std::string::npos);
}

}  // namespace
}  // namespace hqt
