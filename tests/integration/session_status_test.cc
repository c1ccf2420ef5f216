// Status in a long-lived SessionService (the TUI's): a pane whose screen changes is read again,
// so its status follows the harness from working to waiting.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "app/context.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

Status status_of(SessionService& sessions, int64_t id) {
  for (const auto& s : sessions.list())
    if (s.session.id == id) return s.status;
  return Status::stopped;
}

bool wait_status(SessionService& sessions, int64_t id, Status want) {
  for (int i = 0; i < 100; ++i) {
    if (status_of(sessions, id) == want) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(SessionStatus, ALongLivedServiceReadsAScreenAgainWhenItChanges) {
  test::HqtEnv env;
  std::string bin = env.make_dir("bin"), project = env.make_dir("proj");
  std::string go = env.root + "/go";
  std::string screens = std::string(HQT_SOURCE_DIR) + "/tests/fixtures/screens/";
  // A stand-in claude that shows Claude Code's real screens: busy, then a permission question.
  std::string claude = bin + "/claude";
  test::write_file(claude, "#!/bin/sh\ncat " + screens + "claude-working-streaming.txt\n" +
                               "while [ ! -e " + go + " ]; do sleep 0.1; done\nclear\ncat " +
                               screens + "claude-permission-bash.txt\nexec sleep 600\n");
  ::chmod(claude.c_str(), 0755);
  test::ScopedEnv scoped;
  for (const auto& [name, value] : env.env) scoped.set(name, value);
  scoped.set("PATH", bin + ":" + test::getenv_or("PATH", "/usr/bin:/bin"));

  Context ctx;
  ctx.store().add_project("proj", project);
  SessionService& sessions = ctx.sessions();
  int64_t id = sessions.create({"proj", "claude", "", "", std::nullopt}).session.id;
  ASSERT_TRUE(wait_status(sessions, id, Status::working));
  // The same service, many refreshes later: the new screen is read, not the one it remembers.
  for (int i = 0; i < 5; ++i) sessions.list();
  test::write_file(go, "");
  EXPECT_TRUE(wait_status(sessions, id, Status::waiting));
}

}  // namespace
}  // namespace hqt
