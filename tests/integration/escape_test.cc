// Tries to get out of the sandbox. Each test runs a probe inside real bubblewrap through the
// real `hqt sandbox-exec`, with exactly the argv a sandboxed pane runs, and checks that the
// host stays out of reach.
#include <Poco/Process.h>
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "adapters/sandbox_host.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::ScopedEnv;

class Escape : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!sandbox::is_available()) GTEST_SKIP() << "bwrap is not available";
    root = dir.path();
    home = root + "/home";
    project = root + "/project";
    outside = root + "/outside";
    for (const auto& d : {home, project, outside}) fs::create_directories(d);
    vars = {{"HOME", home}, {"XDG_STATE_HOME", home + "/.local/state"}};
    for (const auto& [name, value] : vars) env.set(name, value);
    test::write_file(home + "/secret.txt", "TOPSECRET\n");
    harness.name = "generic";
    harness.executable = "sh";
  }

  // The argv a pane would run for `command`.
  std::vector<std::string> pane(const std::vector<std::string>& command,
                                const SandboxPolicy& policy) {
    return sandbox::pane_argv(harness, command, project, policy, HQT_BIN);
  }

  // Runs a shell script in the sandbox as a pane would; "$1".. are `args`.
  test::RunResult run(const std::string& script, const SandboxPolicy& policy = {},
                      const std::vector<std::string>& args = {},
                      const std::string& shell = "/bin/sh") {
    std::vector<std::string> command{shell, "-c", script, "probe"};
    command.insert(command.end(), args.begin(), args.end());
    return test::run_process(pane(command, policy), vars, project);
  }

  test::TempDir dir;
  ScopedEnv env;
  std::string root, home, project, outside;
  std::map<std::string, std::string> vars;  // added to the pane's environment
  HarnessInfo harness;
};

TEST_F(Escape, SandboxRunsTheProbeInTheProject) {
  auto r = run("pwd; id -u");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, project + "\n" + std::to_string(::getuid()) + "\n");
}

TEST_F(Escape, FilePlantedInHomeIsUnreadable) {
  auto r = run("cat \"$HOME/secret.txt\" " + home + "/secret.txt; ls -A \"$HOME\"; echo done");
  EXPECT_FALSE(contains(r.out, "TOPSECRET"));
  EXPECT_TRUE(contains(r.out, "done"));
  EXPECT_FALSE(contains(r.out, "secret.txt"));
}

TEST_F(Escape, SshOtherHarnessesAndRuntimeDirAreAbsent) {
  for (const auto& d : {"/.ssh", "/.codex", "/.local/share/kiro-cli", "/.claude"})
    fs::create_directories(home + d);
  test::write_file(home + "/.ssh/id_ed25519", "PRIVATEKEY");
  test::write_file(home + "/.codex/auth.json", "{\"token\":\"CODEXTOKEN\"}");
  test::write_file(home + "/.local/share/kiro-cli/data.sqlite3", "KIROTOKEN");
  harness.name = "claude";
  harness.binds = {{"~/.claude", false, true, true}, {"~/.claude.json", true, true, true}};
  auto r = run(
      "for p in .ssh .codex .local/share/kiro-cli; do test -e \"$HOME/$p\" && echo \"visible $p\"; "
      "done; test -d \"$HOME/.claude\" && echo claude-dir; cat \"$HOME/.claude.json\"; echo; "
      "test -e /run/user/$(id -u) && echo run-user; test -e /run && echo run; echo done");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "visible")) << r.out;
  EXPECT_FALSE(contains(r.out, "run")) << r.out;
  EXPECT_TRUE(contains(r.out, "claude-dir\n{}\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "done"));
}

TEST_F(Escape, WritesOutsideTheProjectNeverReachTheHost) {
  auto r = run("echo x > " + outside + "/planted; mkdir -p " + outside + " && echo x > " + outside +
               "/planted; echo x > \"$HOME/planted\"; echo x > /tmp/hqt-planted; "
               "touch /usr/planted && echo usr-writable; touch /etc/planted && echo etc-writable; "
               "echo done");
  ASSERT_TRUE(contains(r.out, "done")) << r.err;
  EXPECT_FALSE(contains(r.out, "writable")) << r.out;
  EXPECT_FALSE(fs::exists(outside + "/planted"));
  EXPECT_FALSE(fs::exists(home + "/planted"));
  EXPECT_FALSE(fs::exists("/usr/planted"));
  EXPECT_FALSE(fs::exists("/etc/planted"));
}

TEST_F(Escape, ProjectWritableInReadWriteMode) {
  auto r = run("echo hello > written && cat written", {FsMode::rw, false});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test::read_file(project + "/written"), "hello\n");
}

TEST_F(Escape, ProjectReadOnlyInReadOnlyMode) {
  test::write_file(project + "/existing", "original\n");
  auto r =
      run("cat existing; echo changed > existing; echo new > written; rm -f existing; echo done",
          {FsMode::ro, false});
  EXPECT_TRUE(contains(r.out, "original\ndone")) << r.out << r.err;
  EXPECT_FALSE(fs::exists(project + "/written"));
  EXPECT_EQ(test::read_file(project + "/existing"), "original\n");
}

TEST_F(Escape, SymlinkFromTheProjectIntoHomeLeadsNowhere) {
  fs::create_symlink(home + "/secret.txt", project + "/link");
  fs::create_symlink(home, project + "/home-link");
  auto r = run("cat link; ls -A home-link/; cat home-link/secret.txt; echo done");
  EXPECT_TRUE(contains(r.out, "done"));
  EXPECT_FALSE(contains(r.out, "TOPSECRET"));
  EXPECT_FALSE(contains(r.out, "secret.txt"));
}

TEST_F(Escape, EtcSecretsAreHidden) {
  if (::access("/etc/shadow", R_OK) != 0) GTEST_SKIP() << "/etc/shadow is unreadable here anyway";
  auto r =
      run("cat /etc/shadow; echo lines=$(cat /etc/shadow 2>/dev/null | wc -l); "
          "grep -c . /etc/passwd >/dev/null && echo passwd-readable");
  EXPECT_TRUE(contains(r.out, "lines=0")) << r.out;
  EXPECT_TRUE(contains(r.out, "passwd-readable")) << r.out;
  EXPECT_FALSE(contains(r.out, "root:"));
}

// A listening socket on the host's loopback, accepting connections in the kernel backlog.
class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("cannot listen on 127.0.0.1");
    port_ = ntohs(addr.sin_port);
  }
  ~Listener() { ::close(fd_); }
  std::string port() const { return std::to_string(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

const char* kConnect =
    "if (echo hello > /dev/tcp/127.0.0.1/$1) 2>/dev/null; then echo connected; else echo "
    "refused; fi";

TEST_F(Escape, HostLoopbackServerUnreachableWithoutNetwork) {
  Listener server;
  auto r = run(kConnect, {FsMode::rw, false}, {server.port()}, "/bin/bash");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "refused\n");
}

TEST_F(Escape, HostLoopbackServerReachableWithNetwork) {
  Listener server;
  auto r = run(kConnect, {FsMode::rw, true}, {server.port()}, "/bin/bash");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "connected\n");
}

TEST_F(Escape, HostTmuxServerIsUnreachable) {
  test::HqtEnv tmux_env;
  auto started = tmux_env.tmux({"new-session", "-d", "-s", "host", "sleep", "600"});
  ASSERT_EQ(started.code, 0) << started.err;
  std::string socket_path = "/tmp/tmux-" + std::to_string(::getuid()) + "/" + tmux_env.socket;
  ASSERT_TRUE(fs::exists(socket_path));
  vars["TMUX"] = socket_path + ",1,0";
  vars["TMUX_PANE"] = "%0";
  auto r =
      run("echo \"tmux=$TMUX pane=$TMUX_PANE\"; tmux new-window sleep 1 && echo new-window; "
          "tmux -L " +
              tmux_env.socket + " new-window sleep 1 && echo by-name; tmux -S " + socket_path +
              " new-window sleep 1 && echo by-path; test -e " + socket_path +
              " && echo socket-visible; echo done",
          {FsMode::rw, true});
  EXPECT_TRUE(contains(r.out, "tmux= pane=\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "done")) << r.err;
  EXPECT_FALSE(contains(r.out, "new-window")) << r.out;
  EXPECT_FALSE(contains(r.out, "by-name")) << r.out;
  EXPECT_FALSE(contains(r.out, "by-path")) << r.out;
  EXPECT_FALSE(contains(r.out, "socket-visible")) << r.out;
  auto windows = tmux_env.tmux({"list-windows", "-a"});
  EXPECT_EQ(std::count(windows.out.begin(), windows.out.end(), '\n'), 1) << windows.out;
}

TEST_F(Escape, OnlyAllowlistedAndDeclaredVariablesGetIn) {
  harness.sandbox_env = {"HQT_TEST_API_KEY"};
  vars["HQT_TEST_API_KEY"] = "declared-value";
  vars["HQT_TEST_SECRET"] = "hunter2";
  vars["SSH_AUTH_SOCK"] = "/tmp/agent.sock";
  vars["LC_TIME"] = "C";
  auto argv = pane({"/usr/bin/env"}, {});
  for (const auto& a : argv) EXPECT_FALSE(contains(a, "declared-value")) << "in argv: " << a;
  auto r = test::run_process(argv, vars, project);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "HQT_TEST_API_KEY=declared-value\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "IS_SANDBOX=1\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "HOME=" + home + "\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "LC_TIME=C\n")) << r.out;
  EXPECT_FALSE(contains(r.out, "hunter2")) << r.out;
  EXPECT_FALSE(contains(r.out, "SSH_AUTH_SOCK")) << r.out;
  EXPECT_FALSE(contains(r.out, "XDG_STATE_HOME")) << r.out;
}

TEST_F(Escape, HostProcessesAreInvisibleAndCannotBeSignalled) {
  auto sleeper = Poco::Process::launch("/bin/sleep", {"600"});
  std::string pid = std::to_string(sleeper.id());
  auto r =
      run("test -e /proc/$1 && echo visible; kill -9 $1 && echo killed; kill -TERM -1; "
          "echo procs=$(ls -d /proc/[0-9]* | wc -l)",
          {}, {pid});
  EXPECT_FALSE(contains(r.out, "visible")) << r.out;
  EXPECT_FALSE(contains(r.out, "killed")) << r.out;
  EXPECT_EQ(::kill(sleeper.id(), 0), 0) << "the host process died";
  Poco::Process::kill(sleeper);
  sleeper.wait();
}

TEST_F(Escape, NoCapabilitiesNoMountsNoNewUserNamespaces) {
  auto r =
      run("grep '^Cap\\(Eff\\|Prm\\|Amb\\)' /proc/self/status; mount -t tmpfs none /tmp "
          "2>/dev/null && echo mounted; unshare -r true 2>/dev/null && echo userns; "
          "unshare -rm mount -t tmpfs none /tmp 2>/dev/null && echo nested-mount; echo done");
  EXPECT_TRUE(contains(r.out, "CapEff:\t0000000000000000\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "CapPrm:\t0000000000000000\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "CapAmb:\t0000000000000000\n")) << r.out;
  EXPECT_FALSE(contains(r.out, "mounted")) << r.out;
  EXPECT_FALSE(contains(r.out, "userns")) << r.out;
  EXPECT_FALSE(contains(r.out, "nested-mount")) << r.out;
  EXPECT_TRUE(contains(r.out, "done"));
}

TEST_F(Escape, ProcSysAndSysAreReadOnly) {
  // Writing back the current value: harmless if the write went through.
  auto r =
      run("v=$(cat /proc/sys/kernel/printk_ratelimit) && echo $v > "
          "/proc/sys/kernel/printk_ratelimit && echo sysctl-written; "
          "echo 1 > /proc/sys/vm/drop_caches && echo caches-dropped; "
          "touch /sys/hqt-probe && echo sys-written; "
          "test -e /sys/kernel/uevent_helper && echo uevent-visible; echo done");
  EXPECT_TRUE(contains(r.out, "done")) << r.err;
  EXPECT_FALSE(contains(r.out, "sysctl-written")) << r.out;
  EXPECT_FALSE(contains(r.out, "caches-dropped")) << r.out;
  EXPECT_FALSE(contains(r.out, "sys-written")) << r.out;
  EXPECT_FALSE(contains(r.out, "uevent-visible")) << r.out;
}

// Prints the errno name of ioctl(0, request) for each request, or "allowed".
const char* kIoctlProbe =
    "import errno, fcntl, sys\n"
    "for request in sys.argv[1:]:\n"
    "    try:\n"
    "        fcntl.ioctl(0, int(request, 0), b'x')\n"
    "        print('allowed')\n"
    "    except OSError as e:\n"
    "        print(errno.errorcode[e.errno])\n";

TEST_F(Escape, TerminalInjectionIsBlocked) {
  // TIOCSTI, TIOCSTI with high bits set (the kernel ignores them), TIOCLINUX.
  std::vector<std::string> requests{"0x5412", "0x100005412", "0x541C"};
  std::vector<std::string> command{"/usr/bin/python3", "-c", kIoctlProbe};
  command.insert(command.end(), requests.begin(), requests.end());
  // Outside the sandbox the same probe fails differently (stdin is not a terminal)...
  auto outside_run = test::run_process(command, vars, project);
  ASSERT_EQ(outside_run.code, 0) << outside_run.err;
  EXPECT_FALSE(contains(outside_run.out, "EPERM")) << outside_run.out;
  // ...inside, the seccomp filter refuses all three.
  auto r = test::run_process(pane(command, {}), vars, project);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "EPERM\nEPERM\nEPERM\n");
}

// The host pids whose command line contains `part`.
std::vector<pid_t> host_pids_with(const std::string& part) {
  std::vector<pid_t> pids;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (contains(test::read_file(entry.path().string() + "/cmdline"), part))
      pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return pids;
}

// Waits for `pid` to exit; false when it is still running after `ms`.
bool exits_within(pid_t pid, int ms) {
  int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return errno == ESRCH;
  pollfd p{fd, POLLIN, 0};
  int ready = ::poll(&p, 1, ms);
  ::close(fd);
  return ready == 1;
}

TEST_F(Escape, DetachedBackgroundProcessEndsWithTheSandbox) {
  // A sleep length no other process uses, to find it in the host's /proc afterwards.
  std::string marker = std::to_string(900000 + ::getpid() % 90000);
  auto argv = pane({"/bin/sh", "-c",
                    "setsid nohup sleep $1 >/dev/null 2>&1 </dev/null & "
                    "i=0; until grep -qs \"$1\" /proc/[0-9]*/cmdline; do i=$((i+1)); "
                    "[ $i -gt 500 ] && exit 1; sleep 0.01; done; echo started > started",
                    "probe", marker},
                   {});
  // No pipes: a surviving sandbox would hold them open and hang the test instead of failing it.
  auto pane_process =
      Poco::Process::launch(argv[0], std::vector<std::string>(argv.begin() + 1, argv.end()),
                            project, nullptr, nullptr, nullptr, vars);
  ASSERT_EQ(pane_process.wait(), 0);
  ASSERT_EQ(test::read_file(project + "/started"), "started\n");
  // bwrap returns as soon as the probe exits; its init in the sandbox is killed right after
  // (--die-with-parent), and the kernel then kills the rest of the pid namespace. Wait for
  // that, with a bound far above the milliseconds it takes.
  auto pids = host_pids_with(std::string("sleep") + '\0' + marker);
  for (pid_t pid : pids) {
    EXPECT_TRUE(exits_within(pid, 10000)) << "pid " << pid << " outlived the sandbox";
    ::kill(pid, SIGKILL);  // when it did, do not leave it behind
  }
}

TEST_F(Escape, GitconfigIsReadableButNotWritable) {
  test::write_file(home + "/.gitconfig", "[user]\n\tname = Probe\n");
  auto r =
      run("git config --global user.name; echo x >> \"$HOME/.gitconfig\" && echo written; "
          "echo done");
  EXPECT_TRUE(contains(r.out, "Probe\n")) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "written")) << r.out;
  EXPECT_EQ(test::read_file(home + "/.gitconfig"), "[user]\n\tname = Probe\n");
}

TEST_F(Escape, WritableHarnessBindReachesTheHost) {
  harness.binds = {{"~/.claude", false, true, true},
                   {"~/.claude.json", true, true, true},
                   {"~/.config/fake/settings", true, false, true}};
  auto r =
      run("echo state > \"$HOME/.claude/state\"; echo '{\"a\":1}' > \"$HOME/.claude.json\"; "
          "echo x > \"$HOME/.config/fake/settings\" && echo ro-written; echo done");
  EXPECT_TRUE(contains(r.out, "done")) << r.err;
  EXPECT_FALSE(contains(r.out, "ro-written")) << r.out;
  EXPECT_EQ(test::read_file(home + "/.claude/state"), "state\n");
  EXPECT_EQ(test::read_file(home + "/.claude.json"), "{\"a\":1}\n");
  EXPECT_EQ(test::read_file(home + "/.config/fake/settings"), "");
}

// A harness installed under $HOME, as npm prefixes and native installers do: a script in a
// package, reached through a symlink on PATH, run by an interpreter that lives under $HOME too.
class EscapeHarnessInHome : public Escape {
 protected:
  void SetUp() override {
    Escape::SetUp();
    if (IsSkipped()) return;
    std::string interp_dir = home + "/opt/fakeinterp/bin";
    std::string package = home + "/.local/share/fakeharness";
    fs::create_directories(interp_dir);
    fs::create_directories(package + "/bin");
    fs::create_directories(home + "/.local/bin");
    fs::copy_file(fs::canonical("/bin/sh"), interp_dir + "/fsh");
    test::write_file(package + "/package.json", "{\"name\":\"fakeharness\"}\n");
    test::write_file(package + "/lib.txt", "module-loaded\n");
    test::write_file(package + "/bin/fake",
                     "#!/usr/bin/env fsh\n"
                     "echo \"fake-ran $*\"\n"
                     "cat \"$(dirname \"$(readlink -f \"$0\")\")/../lib.txt\"\n"
                     "readlink /proc/$$/exe\n"
                     "cat \"$HOME/secret.txt\" 2>/dev/null || echo no-secret\n");
    fs::permissions(package + "/bin/fake", fs::perms::owner_all, fs::perm_options::add);
    fs::create_symlink("../share/fakeharness/bin/fake", home + "/.local/bin/fake");
    path = home + "/.local/bin:" + interp_dir + ":/usr/bin:/bin";
    env.set("PATH", path);
    vars["PATH"] = path;
    harness.name = "fake";
    harness.executable = "fake";
  }
  std::string path;
};

TEST_F(EscapeHarnessInHome, StartsInsideTheSandbox) {
  auto r = test::run_process(pane({"fake", "one", "two"}, {FsMode::ro, false}), vars, project);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "fake-ran one two\nmodule-loaded\n" + home + "/opt/fakeinterp/bin/fsh\nno-secret\n");
}

TEST_F(EscapeHarnessInHome, AbsoluteInterpreterPathWorksToo) {
  std::string script = home + "/.local/share/fakeharness/bin/fake";
  std::string text = test::read_file(script);
  test::write_file(script, "#!" + home + "/opt/fakeinterp/bin/fsh" + text.substr(text.find('\n')));
  auto r = test::run_process(pane({"fake"}, {}), vars, project);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "fake-ran \nmodule-loaded\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "no-secret")) << r.out;
}

TEST_F(EscapeHarnessInHome, ShellUnderHomeIsShownToo) {
  std::string shell = home + "/opt/fakeinterp/bin/fsh";
  env.set("SHELL", shell);
  vars["SHELL"] = shell;
  auto r = test::run_process(pane({"/bin/sh", "-c", "\"$SHELL\" -c 'echo shell-ran'"}, {}), vars,
                             project);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "shell-ran\n");
}

TEST_F(EscapeHarnessInHome, OnlyTheHarnessPackageIsShownFromDotLocal) {
  fs::create_directories(home + "/.local/share/other-app");
  test::write_file(home + "/.local/share/other-app/token", "OTHERTOKEN");
  test::write_file(home + "/.local/share/fakeharness/bin/fake",
                   "#!/usr/bin/env fsh\n"
                   "ls -A \"$HOME/.local/share\" \"$HOME/opt\"\n"
                   "cat \"$HOME/.local/share/other-app/token\"\n");
  auto r = test::run_process(pane({"fake"}, {}), vars, project);
  EXPECT_EQ(r.out, home + "/.local/share:\nfakeharness\n\n" + home + "/opt:\nfakeinterp\n")
      << r.err;
}

TEST_F(Escape, RealClaudeCodeStartsInside) {
  if (std::string(sandbox::bwrap_path()).empty() || ::access("/usr/bin/claude", X_OK) != 0)
    GTEST_SKIP() << "Claude Code is not installed";
  harness.name = "claude";
  harness.binds = {{"~/.claude", false, true, true}, {"~/.claude.json", true, true, true}};
  auto r = test::run_process(pane({"claude", "--version"}, {}), vars, project);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Claude Code")) << r.out;
}

TEST_F(Escape, RealClaudeCodeTakesSkipPermissionsAsRoot) {
  if (::getuid() != 0) GTEST_SKIP() << "only root is refused the flag";
  if (::access("/usr/bin/claude", X_OK) != 0) GTEST_SKIP() << "Claude Code is not installed";
  harness.name = "claude";
  harness.binds = {{"~/.claude", false, true, true}, {"~/.claude.json", true, true, true}};
  // Not logged in (a fresh $HOME), so it stops right after checking its flags.
  auto r = test::run_process(
      pane({"claude", "--dangerously-skip-permissions", "-p", "hello"}, {FsMode::rw, false}), vars,
      project);
  EXPECT_FALSE(contains(r.out + r.err, "root/sudo")) << r.out << r.err;
  EXPECT_FALSE(contains(r.out + r.err, "cannot be used")) << r.out << r.err;
}

TEST_F(Escape, NoHostFileDescriptorLeaksIn) {
  // The shell has stdin, stdout and stderr; the seccomp filter's fd stayed with bwrap.
  auto r = run("ls /proc/$$/fd");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "0\n1\n2\n");
}

// The same probe as a real sandboxed hqt session: a generic harness in a tmux pane of the
// session's private server, started by `hqt session new --sandbox`.
class EscapeSession : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!sandbox::is_available()) GTEST_SKIP() << "bwrap is not available";
    project = env.make_dir("proj");
    out = env.home + "/probe-out";
    marker = std::to_string(800000 + ::getpid() % 90000);
    fs::copy_file(std::string(HQT_SOURCE_DIR) + "/tests/fixtures/probe/session_probe.sh",
                  project + "/probe.sh");
    test::write_file(env.home + "/secret.txt", "TOPSECRET\n");
    fs::create_directories(env.home + "/.ssh");
    env.env["HQT_PROBE_KEY"] = "declared-value";
    env.env["HQT_PROBE_SECRET"] = "hunter2";
    socket_path = "/tmp/tmux-" + std::to_string(::getuid()) + "/" + env.socket;
    std::string probe_args =
        "'" + marker + "', '" + out + "', '" + socket_path + "', '" + server.port() + "'";
    std::string linger =
        "setsid nohup sleep " + marker + " >/dev/null 2>&1 </dev/null & exec sleep " + marker;
    env.write_config(
        "harnesses:\n"
        "  - name: probe\n"
        "    command: [bash, probe.sh, " +
        probe_args +
        "]\n"
        "    binds: [{path: ~/probe-out, writable: true, create: true}]\n"
        "    env: [HQT_PROBE_KEY]\n"
        "  - name: lingerer\n"
        "    command: [sh, -c, '" +
        linger + "']\n");
    auto added = env.hqt({"project", "add", project, "--name", "proj"});
    ASSERT_EQ(added.code, 0) << added.err;
  }

  void TearDown() override {
    for (pid_t pid : host_pids_with(std::string("sleep") + '\0' + marker)) ::kill(pid, SIGKILL);
  }

  // Starts the probe session and returns its results once its pane is dead.
  std::map<std::string, std::string> run_probe(const std::vector<std::string>& sandbox_options) {
    std::vector<std::string> args{"session", "new", "--project", "proj", "--harness", "probe"};
    args.insert(args.end(), sandbox_options.begin(), sandbox_options.end());
    auto created = env.hqt(args);
    EXPECT_EQ(created.code, 0) << created.err;
    // The probe takes well under a second; the bound only keeps a broken sandbox from hanging.
    for (int i = 0; i < 3000 && !pane_dead(); ++i) ::usleep(10000);
    EXPECT_TRUE(pane_dead()) << "the probe's pane is still alive";
    std::map<std::string, std::string> results;
    std::istringstream lines(test::read_file(out + "/results"));
    for (std::string line; std::getline(lines, line);) {
      auto eq = line.find('=');
      if (eq != std::string::npos) results[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return results;
  }

  // The probe's pane is the server's first (%0); an unsandboxed probe opens others.
  bool pane_dead() {
    auto pane = env.tmux({"display-message", "-p", "-t", "%0", "#{pane_dead}"});
    return pane.code == 0 && pane.out == "1\n";
  }

  // What the pane shows, wrapped lines joined.
  std::string screen() { return env.tmux({"capture-pane", "-p", "-J", "-t", "%0"}).out; }

  Listener server;
  test::HqtEnv env;
  std::string project, out, marker, socket_path;
};

TEST_F(EscapeSession, ReadWriteOfflineSessionStaysInside) {
  auto r = run_probe({"--sandbox", "--fs", "rw", "--net", "off"});
  ASSERT_FALSE(r.empty()) << "no results; the pane shows:\n" << screen();
  EXPECT_EQ(r["tmux"], "unset");
  EXPECT_EQ(r["tmux_pane"], "unset");
  EXPECT_EQ(r["is_sandbox"], "1");
  EXPECT_EQ(r["declared"], "declared-value");
  EXPECT_EQ(r["secret"], "unset");
  EXPECT_EQ(r["stdin"], "tty");
  EXPECT_EQ(r["new_window"], "failed");
  EXPECT_EQ(r["new_window_by_path"], "failed");
  EXPECT_EQ(r["tiocsti"], "EPERM");
  EXPECT_EQ(r["home_secret"], "hidden");
  EXPECT_EQ(r["ssh"], "absent");
  EXPECT_EQ(r["capeff"], "0000000000000000");
  EXPECT_EQ(r["project_write"], "ok");
  EXPECT_EQ(r["loopback"], "refused");
  EXPECT_EQ(r["background"], "started");
  EXPECT_EQ(test::read_file(project + "/written-by-probe"), "probe\n");
  // One window: the probe could not open another on this server.
  auto windows = env.tmux({"list-windows", "-a"});
  EXPECT_EQ(std::count(windows.out.begin(), windows.out.end(), '\n'), 1) << windows.out;
  // The pane is dead and the probe's detached process went with the sandbox.
  for (pid_t pid : host_pids_with(std::string("sleep") + '\0' + marker))
    EXPECT_TRUE(exits_within(pid, 10000)) << "pid " << pid << " outlived the session";
  auto shown = env.hqt({"session", "show", "1"});
  EXPECT_TRUE(contains(shown.out, "sandbox-exec")) << shown.out;
  EXPECT_TRUE(contains(shown.out, "bwrap")) << shown.out;
  EXPECT_FALSE(contains(shown.out, "declared-value")) << shown.out;
}

TEST_F(EscapeSession, ReadOnlySessionWithNetworkCannotWriteTheProject) {
  auto r = run_probe({"--fs", "ro", "--net", "on"});
  ASSERT_FALSE(r.empty()) << "no results; the pane shows:\n" << screen();
  EXPECT_EQ(r["project_write"], "failed");
  EXPECT_FALSE(fs::exists(project + "/written-by-probe"));
  EXPECT_EQ(r["loopback"], "connected");
  EXPECT_EQ(r["tiocsti"], "EPERM");
  EXPECT_EQ(r["home_secret"], "hidden");
  EXPECT_EQ(r["new_window_by_path"], "failed");
}

TEST_F(EscapeSession, UnsandboxedProbeFindsWhatTheSandboxHides) {
  // The control: the same probe without the sandbox reaches all of it, so each check above can
  // tell a hole from a wall. (Binds are made only for a sandbox: make the results dir here.)
  fs::create_directories(out);
  auto r = run_probe({});
  ASSERT_FALSE(r.empty()) << "no results; the pane shows:\n" << screen();
  EXPECT_NE(r["tmux"], "unset");
  EXPECT_EQ(r["new_window_by_path"], "ok");
  EXPECT_NE(r["tiocsti"], "EPERM");
  EXPECT_EQ(r["home_secret"], "read");
  EXPECT_EQ(r["ssh"], "visible");
  EXPECT_EQ(r["loopback"], "connected");
  EXPECT_EQ(r["project_write"], "ok");
}

TEST_F(EscapeSession, StoppingASessionEndsEverythingInIt) {
  auto created =
      env.hqt({"session", "new", "--project", "proj", "--harness", "lingerer", "--sandbox"});
  ASSERT_EQ(created.code, 0) << created.err;
  // The main process and the one it detached, both "sleep <marker>".
  std::vector<pid_t> pids;
  for (int i = 0; i < 3000 && pids.size() < 2; ++i) {
    pids = host_pids_with(std::string("sleep") + '\0' + marker);
    if (pids.size() < 2) ::usleep(10000);
  }
  ASSERT_EQ(pids.size(), 2u);
  auto stopped = env.hqt({"session", "stop", "1"});
  ASSERT_EQ(stopped.code, 0) << stopped.err;
  for (pid_t pid : pids)
    EXPECT_TRUE(exits_within(pid, 10000)) << "pid " << pid << " outlived the stopped session";
}

}  // namespace
}  // namespace hqt
