// ProcessTree::open_files_under() against real processes: a shell, its child, and a process outside
// the tree.
#include "adapters/open_files.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "integration/test_util.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;

// Starts `sh -c script` in its own process group; killed with its children at destruction.
class Shell {
 public:
  explicit Shell(const std::string& script) {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Shell() {
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  int pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

bool has(const std::vector<std::string>& files, const std::string& file) {
  return std::find(files.begin(), files.end(), file) != files.end();
}

TEST(OpenFiles, TheTreeUnderAProcessAndNothingElse) {
  test::TempDir dir;
  const std::string root = fs::canonical(dir.path()).string();
  const std::string own = root + "/own.log", child = root + "/child.log",
                    outside = root + "/outside.log", ready = root + "/ready";
  // The shell holds own.log; its child (a subshell that then sleeps) holds child.log.
  Shell tree("exec 3>>" + own + "; (exec 4>>" + child + "; touch " + ready +
             "; exec sleep 30) & wait");
  Shell other("exec 5>>" + outside + "; exec sleep 30");
  for (int i = 0; i < 100 && !fs::exists(ready); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(ready));
  auto files = ProcessTree().open_files_under(tree.pid());
  EXPECT_TRUE(has(files, own));
  EXPECT_TRUE(has(files, child));
  EXPECT_FALSE(has(files, outside));
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));
  EXPECT_EQ(std::adjacent_find(files.begin(), files.end()), files.end()) << "each once";
  auto children = ProcessTree().children_of(tree.pid());
  ASSERT_EQ(children.size(), 1u) << "the subshell";
  EXPECT_TRUE(has(ProcessTree().open_files_under(children[0]), child));
  EXPECT_TRUE(ProcessTree().open_files_under(0).empty());
  EXPECT_TRUE(ProcessTree().open_files_under(-1).empty());
}

TEST(OpenFiles, AProcessThatIsGoneHoldsNothing) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  EXPECT_TRUE(ProcessTree().open_files_under(pid).empty());
}

}  // namespace
}  // namespace hqt
