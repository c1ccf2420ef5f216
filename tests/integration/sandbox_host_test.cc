// The host side of the sandbox against the real machine: availability, the probe, the pane's
// argv, create-if-missing binds, the facts gathered, the seccomp filter and sandbox-exec.
#include "adapters/sandbox_host.h"

#include <Poco/Process.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "adapters/open_files.h"
#include "adapters/sandbox_seccomp.h"
#include "core/error.h"
#include "integration/test_util.h"

namespace hqt::sandbox {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::ScopedEnv;

class SandboxHost : public ::testing::Test {
 protected:
  void SetUp() override {
    home = dir.path() + "/home";
    project = dir.path() + "/project";
    fs::create_directories(home);
    fs::create_directories(project);
    vars = {{"HOME", home}, {"XDG_STATE_HOME", home + "/.local/state"}};
    for (const auto& [name, value] : vars) env.set(name, value);
    harness.name = "generic";
  }
  bool bwrap_here() const { return is_available(); }

  test::TempDir dir;
  ScopedEnv env;
  std::string home, project;
  std::map<std::string, std::string> vars;
  HarnessInfo harness;
};

TEST_F(SandboxHost, AvailableExactlyWhenBwrapIsOnPath) {
  EXPECT_EQ(is_available(), !bwrap_path().empty());
  if (!bwrap_path().empty()) {
    EXPECT_EQ(bwrap_path()[0], '/');
  }
  env.set("PATH", project);  // an empty directory
  EXPECT_FALSE(is_available());
  EXPECT_EQ(bwrap_path(), "");
}

TEST_F(SandboxHost, NeverReturnsAnUnsandboxedCommandWithoutBwrap) {
  env.set("PATH", project);
  try {
    pane_argv(harness, {"sh"}, project, {}, HQT_BIN);
    FAIL() << "pane_argv returned without bwrap";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bubblewrap (bwrap) is not available; cannot start a sandboxed session");
  }
  EXPECT_THROW(pane_argv(harness, {"sh"}, project, {}), Error);
  Probe p = probe();
  EXPECT_FALSE(p.ok);
  EXPECT_TRUE(contains(p.fix, "bubblewrap")) << p.fix;
}

TEST_F(SandboxHost, ProbeRunsARealSandbox) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  Probe p = probe();
  EXPECT_TRUE(p.ok) << p.detail << " / " << p.fix;
  EXPECT_EQ(p.detail, "");
}

// Names of this process's children (a child that exited but was not waited for is still one).
std::vector<std::string> children() {
  std::vector<std::string> names;
  for (int pid : ProcessTree().children_of(::getpid())) {
    std::string comm = test::read_file("/proc/" + std::to_string(pid) + "/comm");
    names.push_back(comm.substr(0, comm.find('\n')));
  }
  return names;
}

TEST_F(SandboxHost, ProbeRunsTheOtherChecksOnceWhileBwrapRuns) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  int calls = 0;
  std::vector<std::string> during;
  Probe p = probe([&] {
    ++calls;
    during = children();
  });
  EXPECT_TRUE(p.ok) << p.detail;
  EXPECT_EQ(calls, 1);
  EXPECT_NE(std::find(during.begin(), during.end(), "bwrap"), during.end());
  EXPECT_TRUE(children().empty()) << "bwrap was waited for";

  // A failing check is rethrown, after bwrap was waited for.
  EXPECT_THROW(probe([] { throw Error("check failed"); }), Error);
  EXPECT_TRUE(children().empty());

  // Without bwrap, the checks run all the same.
  env.set("PATH", project);
  calls = 0;
  EXPECT_FALSE(probe([&] { ++calls; }).ok);
  EXPECT_EQ(calls, 1);
}

TEST_F(SandboxHost, PaneArgvIsSandboxExecThenBwrapThenTheCommand) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  harness.sandbox_env = {"HQT_KEY_A", "HQT_KEY_B"};
  auto argv = pane_argv(harness, {"claude", "--flag"}, project, {FsMode::ro, false}, HQT_BIN);
  ASSERT_GE(argv.size(), 10u);
  EXPECT_EQ(argv[0], HQT_BIN);
  EXPECT_EQ(argv[1], "sandbox-exec");
  EXPECT_EQ(argv[2], "--seccomp");
  EXPECT_EQ(argv[3], seccomp_filter_path());
  EXPECT_TRUE(argv[3].rfind(home + "/.local/state/hqt/", 0) == 0) << argv[3];
  EXPECT_EQ((std::vector<std::string>(argv.begin() + 4, argv.begin() + 9)),
            (std::vector<std::string>{"--env", "HQT_KEY_A", "--env", "HQT_KEY_B", "--"}));
  EXPECT_EQ(argv[9], bwrap_path());
  EXPECT_EQ((std::vector<std::string>(argv.end() - 3, argv.end())),
            (std::vector<std::string>{"--", "claude", "--flag"}));
}

TEST_F(SandboxHost, DefaultProgramIsThisOne) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  auto argv = pane_argv(harness, {"sh"}, project, {});
  EXPECT_EQ(argv[0], fs::read_symlink("/proc/self/exe").string());
}

TEST_F(SandboxHost, DescribingBindsCreatesNothingAndShowsWhereTheyWillBe) {
  harness.binds = {{"~/.claude", false, true, true},
                   {"~/.config/tool/state.txt", true, true, true},
                   {"~/.not-created", false, true, false}};
  auto described = resolve_binds(harness.binds, MissingBinds::describe);
  EXPECT_FALSE(fs::exists(home + "/.claude"));
  EXPECT_FALSE(fs::exists(home + "/.config/tool"));
  ASSERT_EQ(described.size(), 3u);
  // The same sources as once they are created.
  auto created = resolve_binds(harness.binds);
  ASSERT_EQ(created.size(), 3u);
  for (size_t i = 0; i < created.size(); ++i) {
    EXPECT_EQ(described[i].path, created[i].path) << i;
    EXPECT_EQ(described[i].source, created[i].source) << i;
  }
  EXPECT_EQ(described[0].source, fs::canonical(home + "/.claude").string());
  EXPECT_EQ(described[2].source, "");
}

TEST_F(SandboxHost, CreatesMissingCreateIfMissingBindsUnderHome) {
  test::write_file(home + "/existing.json", "{\"keep\":true}");
  harness.binds = {{"~/.claude", false, true, true},
                   {"~/.claude.json", true, true, true},
                   {"~/.config/tool/state.txt", true, true, true},
                   {"~/existing.json", true, true, true},
                   {"~/.not-created", false, true, false},
                   {dir.path() + "/outside-home", false, true, true}};
  auto binds = resolve_binds(harness.binds);
  EXPECT_TRUE(fs::is_directory(home + "/.claude"));
  EXPECT_EQ(test::read_file(home + "/.claude.json"), "{}");
  EXPECT_EQ(test::read_file(home + "/.config/tool/state.txt"), "");
  EXPECT_TRUE(fs::exists(home + "/.config/tool/state.txt"));
  EXPECT_EQ(test::read_file(home + "/existing.json"), "{\"keep\":true}");
  EXPECT_FALSE(fs::exists(home + "/.not-created"));
  EXPECT_FALSE(fs::exists(dir.path() + "/outside-home"));
  ASSERT_EQ(binds.size(), 6u);
  EXPECT_EQ(binds[0].path, home + "/.claude");
  EXPECT_EQ(binds[0].source, fs::canonical(home + "/.claude").string());
  EXPECT_TRUE(binds[0].writable);
  EXPECT_EQ(binds[4].source, "");  // missing: skipped by wrap()
  EXPECT_EQ(binds[5].source, "");
}

TEST_F(SandboxHost, BindLinkedToHomeIsDropped) {
  fs::create_symlink(home, home + "/.claude");
  auto binds = resolve_binds({{"~/.claude", false, true, false}, {"~", false, true, false}});
  EXPECT_TRUE(binds.empty());
}

// The walk of /etc (shared between two threads) finds exactly what a plain depth-first walk
// finds, in the same order: everything under /etc that not everyone may read, nested too.
TEST_F(SandboxHost, EtcSecretsAreThoseAPlainWalkFinds) {
  std::vector<std::string> files, dirs;
  std::error_code ec;
  fs::recursive_directory_iterator it("/etc", fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode) && ((st.st_mode & S_IROTH) == 0 || (st.st_mode & S_IXOTH) == 0)) {
      dirs.push_back(it->path().string());
      it.disable_recursion_pending();
    } else if (S_ISREG(st.st_mode) && (st.st_mode & S_IROTH) == 0) {
      files.push_back(it->path().string());
    }
  }
  Facts f = gather_facts({"sh"}, project);
  EXPECT_EQ(f.etc_secret_files, files);
  EXPECT_EQ(f.etc_secret_dirs, dirs);
}

TEST_F(SandboxHost, FactsDescribeThisHost) {
  Facts f = gather_facts({"sh"}, project);
  EXPECT_EQ(f.home, home);
  auto has_system = [&](const std::string& path) {
    return std::any_of(f.system.begin(), f.system.end(),
                       [&](const SystemDir& d) { return d.path == path; });
  };
  EXPECT_TRUE(has_system("/usr"));
  EXPECT_TRUE(has_system("/etc"));
  if (fs::exists("/etc/shadow")) {
    EXPECT_NE(std::find(f.etc_secret_files.begin(), f.etc_secret_files.end(), "/etc/shadow"),
              f.etc_secret_files.end());
  }
  EXPECT_EQ(std::find(f.etc_secret_files.begin(), f.etc_secret_files.end(), "/etc/passwd"),
            f.etc_secret_files.end());
  EXPECT_EQ(f.gitconfig, "");
  test::write_file(home + "/.gitconfig", "[user]\n");
  EXPECT_EQ(gather_facts({"sh"}, project).gitconfig, fs::canonical(home + "/.gitconfig").string());
  if (fs::is_symlink("/etc/resolv.conf")) {
    // Wherever it leads, it is followed to a path outside /etc or not at all.
    EXPECT_TRUE(f.resolv_conf_link.empty() || f.resolv_conf_link.rfind("/etc/", 0) != 0);
  } else {
    EXPECT_EQ(f.resolv_conf_link, "");
  }
}

TEST_F(SandboxHost, FactsFollowTheHarnessToItsInterpreter) {
  std::string prefix = home + "/.nvm/versions/node/v1";
  std::string pkg = prefix + "/lib/node_modules/fake-cli";
  fs::create_directories(prefix + "/bin");
  fs::create_directories(pkg + "/bin");
  fs::copy_file(fs::canonical("/bin/sh"), prefix + "/bin/fnode");
  test::write_file(pkg + "/package.json", "{}");
  test::write_file(pkg + "/bin/cli.js", "#!/usr/bin/env fnode\n");
  fs::permissions(pkg + "/bin/cli.js", fs::perms::owner_all, fs::perm_options::add);
  fs::create_symlink("../lib/node_modules/fake-cli/bin/cli.js", prefix + "/bin/fake-cli");
  env.set("PATH", prefix + "/bin:/usr/bin:/bin");
  env.set("SHELL", "");
  Facts f = gather_facts({"fake-cli"}, project);
  ASSERT_GE(f.tools.size(), 3u);
  EXPECT_EQ(f.tools[0].path, prefix + "/bin/fake-cli");
  EXPECT_EQ(f.tools[0].real, fs::canonical(pkg + "/bin/cli.js").string());
  EXPECT_EQ(f.tools[0].root, fs::canonical(prefix + "/lib/node_modules").string());
  EXPECT_EQ(f.tools[1].path, "/usr/bin/env");
  EXPECT_EQ(f.tools.back().path, prefix + "/bin/fnode");
  EXPECT_EQ(f.tools.back().root, fs::canonical(prefix).string());
}

TEST_F(SandboxHost, SeccompFilterIsWrittenAndRegeneratedWhenMissingOrBroken) {
  std::string path = seccomp_filter_path();
  EXPECT_TRUE(path.rfind(home + "/.local/state/hqt/seccomp-", 0) == 0) << path;
  EXPECT_EQ(ensure_seccomp_filter(path), path);
  auto size = fs::file_size(path);
  EXPECT_GT(size, 0u);
  EXPECT_EQ(size % 8, 0u);
  fs::remove(path);
  ensure_seccomp_filter(path);
  EXPECT_EQ(fs::file_size(path), size);
  test::write_file(path, "");
  ensure_seccomp_filter(path);
  EXPECT_EQ(fs::file_size(path), size);
}

TEST_F(SandboxHost, SandboxExecRegeneratesAMissingFilter) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  auto argv = pane_argv(harness, {"/bin/true"}, project, {}, HQT_BIN);
  fs::remove(argv[3]);
  auto r = test::run_process(argv, vars, project);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(argv[3]));
}

TEST_F(SandboxHost, SandboxExecRejectsBadUsage) {
  test::HqtEnv hqt;
  EXPECT_EQ(hqt.hqt({"sandbox-exec"}).code, 2);
  EXPECT_EQ(hqt.hqt({"sandbox-exec", "--seccomp", "/x"}).code, 2);
  EXPECT_EQ(hqt.hqt({"sandbox-exec", "--bogus", "--", "bwrap"}).code, 2);
  EXPECT_EQ(hqt.hqt({"sandbox-exec", "--", "bwrap"}).code, 2);
}

TEST_F(SandboxHost, ExitCodeOfTheSandboxedCommandIsThePanes) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  auto r = test::run_process(pane_argv(harness, {"/bin/sh", "-c", "exit 7"}, project, {}, HQT_BIN),
                             vars, project);
  EXPECT_EQ(r.code, 7) << r.err;
}

// Reads a /proc file of `pid` with NULs turned into spaces.
std::string proc_text(Poco::Process::PID pid, const std::string& name) {
  std::string text = test::read_file("/proc/" + std::to_string(pid) + "/" + name);
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}

TEST_F(SandboxHost, PaneProcessBecomesBwrapWithSecretsOnlyInItsEnvironment) {
  if (!bwrap_here()) GTEST_SKIP() << "bwrap is not available";
  harness.sandbox_env = {"HQT_TEST_API_KEY"};
  vars["HQT_TEST_API_KEY"] = "declared-secret-value";
  vars["HQT_TEST_OTHER"] = "undeclared-value";
  vars["TMUX"] = "/tmp/tmux-0/default,1,0";
  // The probe waits for "release" so the pane process can be looked at while it runs.
  auto argv = pane_argv(harness,
                        {"/bin/sh", "-c",
                         "touch started; i=0; until [ -e release ]; do i=$((i+1)); "
                         "[ $i -gt 3000 ] && exit 1; sleep 0.01; done"},
                        project, {}, HQT_BIN);
  auto pane = Poco::Process::launch(argv[0], std::vector<std::string>(argv.begin() + 1, argv.end()),
                                    project, nullptr, nullptr, nullptr, vars);
  for (int i = 0; i < 3000 && !fs::exists(project + "/started"); ++i) ::usleep(10000);
  ASSERT_TRUE(fs::exists(project + "/started"));
  // sandbox-exec replaced itself with bwrap: nothing of hqt is left in the pane.
  EXPECT_EQ(fs::read_symlink("/proc/" + std::to_string(pane.id()) + "/exe").string(),
            fs::canonical(bwrap_path()).string());
  std::string cmdline = proc_text(pane.id(), "cmdline");
  std::string environ = proc_text(pane.id(), "environ");
  test::write_file(project + "/release", "");
  EXPECT_EQ(pane.wait(), 0);
  EXPECT_FALSE(contains(cmdline, "declared-secret-value")) << cmdline;
  EXPECT_TRUE(contains(cmdline, "--seccomp ")) << cmdline;
  EXPECT_TRUE(contains(environ, "HQT_TEST_API_KEY=declared-secret-value")) << environ;
  EXPECT_FALSE(contains(environ, "undeclared-value")) << environ;
  EXPECT_FALSE(contains(environ, "TMUX")) << environ;
}

}  // namespace
}  // namespace hqt::sandbox
