#include "core/sandbox.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "core/error.h"

namespace hqt::sandbox {
namespace {

using Args = std::vector<std::string>;
using Pair = std::pair<std::string, std::string>;

// The (first, second) operands of every occurrence of a two-operand option.
std::vector<Pair> pairs(const Args& args, const std::string& option) {
  std::vector<Pair> out;
  auto end = std::find(args.begin(), args.end(), "--");
  for (auto it = args.begin(); it != end; ++it)
    if (*it == option && it + 2 < end) out.emplace_back(*(it + 1), *(it + 2));
  return out;
}

bool has_pair(const Args& args, const std::string& option, const std::string& a,
              const std::string& b) {
  auto all = pairs(args, option);
  return std::find(all.begin(), all.end(), Pair(a, b)) != all.end();
}

// Options before the "--" that ends bwrap's own.
Args options(const Args& args) {
  return Args(args.begin(), std::find(args.begin(), args.end(), "--"));
}

bool has(const Args& args, const std::string& word) {
  auto opts = options(args);
  return std::find(opts.begin(), opts.end(), word) != opts.end();
}

// Every path mounted or created inside (the destination of each mount option).
std::set<std::string> destinations(const Args& args) {
  std::set<std::string> out;
  for (const char* o : {"--bind", "--ro-bind", "--symlink"})
    for (const auto& [src, dest] : pairs(args, o)) out.insert(dest);
  return out;
}

// A merged-/usr Debian host.
Facts debian() {
  Facts f;
  f.bwrap = "/usr/bin/bwrap";
  f.home = "/home/u";
  f.system = {{"/usr", ""},        {"/bin", "usr/bin"},     {"/sbin", "usr/sbin"},
              {"/lib", "usr/lib"}, {"/lib64", "usr/lib64"}, {"/etc", ""}};
  f.disable_userns = true;
  return f;
}

const std::string kProject = "/home/u/src/app";
const SandboxPolicy kRwNet{FsMode::rw, true};

Args wrap_simple(const SandboxPolicy& policy, const std::vector<MountBind>& binds = {},
                 const Facts& facts = debian()) {
  return wrap({"claude", "--session-id", "x"}, kProject, policy, binds, facts);
}

TEST(SandboxWrap, RunsBwrapThenTheCommandAfterDoubleDash) {
  Args args = wrap_simple(kRwNet);
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "/usr/bin/bwrap");
  auto dash = std::find(args.begin(), args.end(), "--");
  ASSERT_NE(dash, args.end());
  EXPECT_EQ(Args(dash + 1, args.end()), (Args{"claude", "--session-id", "x"}));
}

TEST(SandboxWrap, CommandThatLooksLikeOptionsStaysAfterDoubleDash) {
  Args args = wrap({"--bind", "/", "/"}, kProject, kRwNet, {}, debian());
  auto dash = std::find(args.begin(), args.end(), "--");
  EXPECT_EQ(Args(dash + 1, args.end()), (Args{"--bind", "/", "/"}));
  EXPECT_FALSE(has_pair(args, "--bind", "/", "/"));
}

// Every combination of filesystem mode and network.
struct Combo {
  FsMode fs;
  bool net;
};
class SandboxWrapCombos : public ::testing::TestWithParam<Combo> {};

TEST_P(SandboxWrapCombos, ProjectModeAndNetworkFollowThePolicy) {
  const Combo c = GetParam();
  Args args = wrap_simple({c.fs, c.net});
  EXPECT_TRUE(has(args, "--unshare-all"));
  EXPECT_TRUE(has(args, "--die-with-parent"));
  EXPECT_EQ(has(args, "--share-net"), c.net);
  EXPECT_EQ(has_pair(args, "--bind", kProject, kProject), c.fs == FsMode::rw);
  EXPECT_EQ(has_pair(args, "--ro-bind", kProject, kProject), c.fs == FsMode::ro);
  auto chdir = std::find(args.begin(), args.end(), "--chdir");
  ASSERT_NE(chdir, args.end());
  EXPECT_EQ(*(chdir + 1), kProject);
}

INSTANTIATE_TEST_SUITE_P(AllCombos, SandboxWrapCombos,
                         ::testing::Values(Combo{FsMode::rw, true}, Combo{FsMode::rw, false},
                                           Combo{FsMode::ro, true}, Combo{FsMode::ro, false}),
                         [](const auto& info) {
                           return std::string(info.param.fs == FsMode::rw ? "rw" : "ro") +
                                  (info.param.net ? "_net" : "_nonet");
                         });

TEST(SandboxWrap, ShareNetComesRightAfterUnshareAll) {
  // bwrap accepts --share-net only together with --unshare-all.
  Args args = wrap_simple(kRwNet);
  auto all = std::find(args.begin(), args.end(), "--unshare-all");
  ASSERT_NE(all, args.end());
  EXPECT_EQ(*(all + 1), "--share-net");
}

TEST(SandboxWrap, DropsEveryCapabilityInAUserNamespace) {
  Args args = wrap_simple(kRwNet);
  EXPECT_TRUE(has(args, "--unshare-user"));
  EXPECT_TRUE(has(args, "--disable-userns"));
  auto drop = std::find(args.begin(), args.end(), "--cap-drop");
  ASSERT_NE(drop, args.end());
  EXPECT_EQ(*(drop + 1), "ALL");
}

TEST(SandboxWrap, DisableUsernsOnlyWhenBwrapKnowsIt) {
  Facts f = debian();
  f.disable_userns = false;
  EXPECT_FALSE(has(wrap_simple(kRwNet, {}, f), "--disable-userns"));
}

TEST(SandboxWrap, SystemDirsReadOnlyAndMergedUsrSymlinksRecreated) {
  Args args = wrap_simple(kRwNet);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/usr", "/usr"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/etc", "/etc"));
  EXPECT_TRUE(has_pair(args, "--symlink", "usr/bin", "/bin"));
  EXPECT_TRUE(has_pair(args, "--symlink", "usr/lib64", "/lib64"));
  EXPECT_FALSE(has_pair(args, "--bind", "/usr", "/usr"));
}

TEST(SandboxWrap, SplitUsrSystemDirsAreBoundReadOnly) {
  Facts f = debian();
  f.system = {{"/usr", ""}, {"/bin", ""}, {"/lib", ""}, {"/etc", ""}};
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/bin", "/bin"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/lib", "/lib"));
  EXPECT_FALSE(has_pair(args, "--ro-bind", "/lib64", "/lib64"));  // absent on the host
}

TEST(SandboxWrap, EtcSecretsAreCovered) {
  Facts f = debian();
  f.etc_secret_files = {"/etc/shadow", "/etc/gshadow"};
  f.etc_secret_dirs = {"/etc/ssl/private"};
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/dev/null", "/etc/shadow"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/dev/null", "/etc/gshadow"));
  auto tmpfs = std::find(args.begin(), args.end(), "/etc/ssl/private");
  ASSERT_NE(tmpfs, args.end());
  EXPECT_EQ(*(tmpfs - 1), "--tmpfs");
  // The cover comes after /etc itself, or it would be hidden by it.
  auto etc = std::find(args.begin(), args.end(), "/etc");
  auto shadow = std::find(args.begin(), args.end(), "/etc/shadow");
  EXPECT_LT(etc - args.begin(), shadow - args.begin());
}

TEST(SandboxWrap, SecretCoversOutsideEtcAreIgnored) {
  Facts f = debian();
  f.etc_secret_files = {"/usr/bin/env"};
  f.etc_secret_dirs = {"/etc", "/usr"};
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_FALSE(has_pair(args, "--ro-bind", "/dev/null", "/usr/bin/env"));
  EXPECT_EQ(std::count(args.begin(), args.end(), "--tmpfs"), 2);  // /tmp and $HOME only
}

TEST(SandboxWrap, FreshProcDevTmpAndAnEmptyHome) {
  Args args = wrap_simple(kRwNet);
  auto opts = options(args);
  auto after = [&](const std::string& option, const std::string& value) {
    for (size_t i = 0; i + 1 < opts.size(); ++i)
      if (opts[i] == option && opts[i + 1] == value) return true;
    return false;
  };
  EXPECT_TRUE(after("--proc", "/proc"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/proc/sys", "/proc/sys"));
  EXPECT_TRUE(after("--dev", "/dev"));
  EXPECT_TRUE(after("--tmpfs", "/tmp"));
  EXPECT_TRUE(after("--tmpfs", "/home/u"));
}

TEST(SandboxWrap, HomeIsNeverBoundAsAWhole) {
  std::vector<MountBind> binds{{"/home/u", "/home/u", true},
                               {"/home", "/home", false},
                               {"/", "/", false},
                               {"/home/u/.claude", "/home/u", true},  // a symlink to $HOME
                               {"/home/u/", "/home/u/", true}};
  Args args = wrap_simple(kRwNet, binds);
  for (const char* o : {"--bind", "--ro-bind"})
    for (const auto& [src, dest] : pairs(args, o)) {
      EXPECT_NE(src, "/home/u") << o;
      EXPECT_NE(dest, "/home/u") << o;
      EXPECT_NE(src, "/home") << o;
      EXPECT_NE(src, "/") << o;
    }
}

TEST(SandboxWrap, ProjectThatWouldShowHomeIsRefused) {
  for (const std::string cwd : {"/home/u", "/home", "/", "/home/u/"}) {
    try {
      wrap({"sh"}, cwd, kRwNet, {}, debian());
      ADD_FAILURE() << cwd << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("home directory"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(wrap({"sh"}, "relative/dir", kRwNet, {}, debian()), Error);
  Facts f = debian();
  f.home = "/";
  EXPECT_THROW(wrap({"sh"}, "/srv/p", kRwNet, {}, f), Error);
}

TEST(SandboxWrap, WritableAndReadOnlyBindsAreSplicedIn) {
  std::vector<MountBind> binds{{"/home/u/.claude", "/home/u/.claude", true},
                               {"/home/u/.claude.json", "/home/u/.claude.json", true},
                               {"/home/u/.config/tool", "/home/u/.config/tool", false},
                               {"/home/u/.netrc-like", "/home/u/.netrc-like", false}};
  Args args = wrap_simple(kRwNet, binds);
  EXPECT_TRUE(has_pair(args, "--bind", "/home/u/.claude", "/home/u/.claude"));
  EXPECT_TRUE(has_pair(args, "--bind", "/home/u/.claude.json", "/home/u/.claude.json"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/.config/tool", "/home/u/.config/tool"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/.netrc-like", "/home/u/.netrc-like"));
}

TEST(SandboxWrap, BindShowsItsRealSourceAtTheDeclaredPath) {
  Args args = wrap_simple(kRwNet, {{"/home/u/.claude", "/data/dotfiles/claude", true}});
  EXPECT_TRUE(has_pair(args, "--bind", "/data/dotfiles/claude", "/home/u/.claude"));
}

TEST(SandboxWrap, MissingBindsAreSkipped) {
  Args args = wrap_simple(kRwNet, {{"/home/u/.kiro", "", true}});
  EXPECT_EQ(destinations(args).count("/home/u/.kiro"), 0u);
}

TEST(SandboxWrap, BindsAfterTheHomeTmpfsAndParentsBeforeChildren) {
  std::vector<MountBind> binds{{"/home/u/src/app/.cache", "/home/u/src/app/.cache", true},
                               {"/home/u/.claude", "/home/u/.claude", true}};
  Args args = wrap_simple({FsMode::ro, true}, binds);
  auto pos = [&](const std::string& value) {
    return std::find(args.begin(), args.end(), value) - args.begin();
  };
  EXPECT_LT(pos("/home/u"), pos("/home/u/.claude"));
  EXPECT_LT(pos(kProject), pos("/home/u/src/app/.cache"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", kProject, kProject));
  EXPECT_TRUE(has_pair(args, "--bind", "/home/u/src/app/.cache", "/home/u/src/app/.cache"));
}

TEST(SandboxWrap, ProjectModeWinsOverABindOfTheSamePath) {
  Args args = wrap_simple({FsMode::ro, true}, {{kProject, kProject, true}});
  EXPECT_TRUE(has_pair(args, "--ro-bind", kProject, kProject));
  EXPECT_FALSE(has_pair(args, "--bind", kProject, kProject));
}

TEST(SandboxWrap, GitconfigReadOnlyWhenPresent) {
  Facts f = debian();
  EXPECT_EQ(destinations(wrap_simple(kRwNet, {}, f)).count("/home/u/.gitconfig"), 0u);
  f.gitconfig = "/home/u/dotfiles/gitconfig";
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/dotfiles/gitconfig", "/home/u/.gitconfig"));
  EXPECT_EQ(destinations(args).count("/home/u/dotfiles/gitconfig"), 0u);
}

TEST(SandboxWrap, ResolvConfTargetBoundOnlyWithNetwork) {
  Facts f = debian();
  f.resolv_conf_link = "/run/systemd/resolve/stub-resolv.conf";
  f.resolv_conf_real = "/run/systemd/resolve/stub-resolv.conf";
  EXPECT_TRUE(has_pair(wrap_simple({FsMode::rw, true}, {}, f), "--ro-bind",
                       "/run/systemd/resolve/stub-resolv.conf",
                       "/run/systemd/resolve/stub-resolv.conf"));
  EXPECT_EQ(destinations(wrap_simple({FsMode::rw, false}, {}, f))
                .count("/run/systemd/resolve/stub-resolv.conf"),
            0u);
}

TEST(SandboxWrap, NoRunDirectoryOtherThanTheResolverFile) {
  Facts f = debian();
  f.resolv_conf_link = "/run/systemd/resolve/stub-resolv.conf";
  f.resolv_conf_real = "/run/systemd/resolve/stub-resolv.conf";
  for (const auto& dest : destinations(wrap_simple(kRwNet, {}, f))) {
    if (dest.rfind("/run", 0) == 0) {
      EXPECT_EQ(dest, "/run/systemd/resolve/stub-resolv.conf");
    }
  }
}

TEST(SandboxWrap, HarnessUnderHomeIsShownReadOnlyWithItsSymlink) {
  Facts f = debian();
  f.tools = {{"/home/u/.local/bin/claude", "/home/u/.local/share/claude/versions/2.1.0",
              "/home/u/.local/share/claude/versions/2.1.0"}};
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/.local/share/claude/versions/2.1.0",
                       "/home/u/.local/share/claude/versions/2.1.0"));
  EXPECT_TRUE(has_pair(args, "--symlink", "/home/u/.local/share/claude/versions/2.1.0",
                       "/home/u/.local/bin/claude"));
}

TEST(SandboxWrap, ScriptPackageAndInterpreterPrefixAreShown) {
  Facts f = debian();
  f.tools = {{"/home/u/.npm/bin/codex", "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js",
              "/home/u/.npm/lib/node_modules"},
             {"/home/u/.nvm/versions/node/v22/bin/node", "/home/u/.nvm/versions/node/v22/bin/node",
              "/home/u/.nvm/versions/node/v22"}};
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/.npm/lib/node_modules",
                       "/home/u/.npm/lib/node_modules"));
  EXPECT_TRUE(has_pair(args, "--symlink",
                       "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js",
                       "/home/u/.npm/bin/codex"));
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/.nvm/versions/node/v22",
                       "/home/u/.nvm/versions/node/v22"));
  // node is already at its real place: four system symlinks and codex's, nothing more.
  EXPECT_EQ(pairs(args, "--symlink").size(), 4u + 1u);
}

TEST(SandboxWrap, ToolsUnderSystemDirsNeedNothing) {
  Facts f = debian();
  f.tools = {{"/usr/bin/claude", "/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
              "/usr/lib/node_modules"},
             {"/bin/node", "/usr/bin/node", "/usr"}};
  Args base = wrap_simple(kRwNet);
  EXPECT_EQ(wrap_simple(kRwNet, {}, f), base);
}

TEST(SandboxWrap, ToolRootThatWouldShowHomeFallsBackToTheFile) {
  Facts f = debian();
  f.tools = {{"/home/u/bin/tool", "/home/u/bin/tool", "/home/u"}};
  Args args = wrap_simple(kRwNet, {}, f);
  EXPECT_TRUE(has_pair(args, "--ro-bind", "/home/u/bin/tool", "/home/u/bin/tool"));
  EXPECT_FALSE(has_pair(args, "--ro-bind", "/home/u", "/home/u"));
}

TEST(SandboxWrap, ToolInsideAWritableBindKeepsItWritable) {
  Facts f = debian();
  f.tools = {
      {"/home/u/.claude/local/claude", "/home/u/.claude/local/claude", "/home/u/.claude/local"}};
  Args args = wrap_simple(kRwNet, {{"/home/u/.claude", "/home/u/.claude", true}}, f);
  EXPECT_EQ(destinations(args).count("/home/u/.claude/local"), 0u);
  EXPECT_EQ(destinations(args).count("/home/u/.claude/local/claude"), 0u);
}

TEST(SandboxWrap, MarksItselfAsASandboxAndKeepsTmuxOut) {
  Args args = wrap_simple(kRwNet);
  auto set = std::find(args.begin(), args.end(), "--setenv");
  ASSERT_NE(set, args.end());
  EXPECT_EQ(*(set + 1), "IS_SANDBOX");
  EXPECT_EQ(*(set + 2), "1");
  auto opts = options(args);
  EXPECT_EQ(std::count(opts.begin(), opts.end(), "--setenv"), 1);
  EXPECT_TRUE(has(args, "TMUX"));
  EXPECT_TRUE(has(args, "TMUX_PANE"));
}

TEST(SandboxEnv, AllowlistPlusDeclaredNames) {
  std::vector<std::string> declared{"ANTHROPIC_API_KEY"};
  for (const char* name : {"PATH", "HOME", "TERM", "COLORTERM", "LANG", "LC_ALL", "LC_CTYPE",
                           "USER", "LOGNAME", "SHELL", "TZ", "ANTHROPIC_API_KEY"})
    EXPECT_TRUE(env_allowed(name, declared)) << name;
  for (const char* name :
       {"TMUX", "TMUX_PANE", "SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
        "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "LD_PRELOAD", "", "LANGUAGE_X", "PATHX"})
    EXPECT_FALSE(env_allowed(name, declared)) << name;
}

TEST(SandboxEnv, TmuxStaysOutEvenWhenDeclared) {
  EXPECT_FALSE(env_allowed("TMUX", {"TMUX", "TMUX_PANE"}));
  EXPECT_FALSE(env_allowed("TMUX_PANE", {"TMUX", "TMUX_PANE"}));
}

TEST(SandboxEnv, FilterKeepsOrderAndValues) {
  std::vector<std::string> env{"PATH=/usr/bin", "SECRET=x",  "TMUX=/tmp/t,1,0", "KEY=a=b",
                               "LC_ALL=C",      "malformed", "HOME=/home/u"};
  EXPECT_EQ(filter_env(env, {"KEY"}),
            (std::vector<std::string>{"PATH=/usr/bin", "KEY=a=b", "LC_ALL=C", "HOME=/home/u"}));
}

TEST(SandboxShebang, PlainInterpreter) {
  Shebang s = parse_shebang("#!/home/u/.pyenv/versions/3.12/bin/python3 -u\nprint(1)\n");
  EXPECT_EQ(s.interpreter, "/home/u/.pyenv/versions/3.12/bin/python3");
  EXPECT_EQ(s.program, "");
  EXPECT_EQ(parse_shebang("#! /bin/sh\n").interpreter, "/bin/sh");
}

TEST(SandboxShebang, EnvLooksUpTheProgram) {
  EXPECT_EQ(parse_shebang("#!/usr/bin/env node\n").program, "node");
  EXPECT_EQ(parse_shebang("#!/usr/bin/env -S node --no-warnings\n").program, "node");
  EXPECT_EQ(parse_shebang("#!/usr/bin/env -u X NODE_OPTIONS=1 node\n").program, "node");
  EXPECT_EQ(parse_shebang("#!/usr/bin/env node\r\n").program, "node");
  EXPECT_EQ(parse_shebang("#!/usr/bin/env node").interpreter, "/usr/bin/env");
}

TEST(SandboxShebang, NotAScript) {
  EXPECT_EQ(parse_shebang("\x7f"
                          "ELF\x02\x01")
                .interpreter,
            "");
  EXPECT_EQ(parse_shebang("").interpreter, "");
  EXPECT_EQ(parse_shebang("#!\n").interpreter, "");
}

TEST(SandboxToolRoot, PackageInsideNodeModulesShowsTheNodeModules) {
  auto pkg = [](const std::string& dir) {
    return dir == "/home/u/.npm/lib/node_modules/@openai/codex";
  };
  EXPECT_EQ(tool_root("/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js", "/home/u", pkg),
            "/home/u/.npm/lib/node_modules");
}

TEST(SandboxToolRoot, StandalonePackageShowsThePackage) {
  auto pkg = [](const std::string& dir) { return dir == "/opt/tools/fake"; };
  EXPECT_EQ(tool_root("/opt/tools/fake/bin/cli.js", "/home/u", pkg), "/opt/tools/fake");
}

TEST(SandboxToolRoot, BinaryInAPrefixShowsThePrefix) {
  auto none = [](const std::string&) { return false; };
  EXPECT_EQ(tool_root("/home/u/.nvm/versions/node/v22/bin/node", "/home/u", none),
            "/home/u/.nvm/versions/node/v22");
}

TEST(SandboxToolRoot, NeverHomeItsParentsOrDotLocal) {
  auto none = [](const std::string&) { return false; };
  EXPECT_EQ(tool_root("/home/u/bin/tool", "/home/u", none), "/home/u/bin/tool");
  EXPECT_EQ(tool_root("/home/u/.local/bin/tool", "/home/u", none), "/home/u/.local/bin/tool");
  EXPECT_EQ(tool_root("/bin/tool", "/home/u", none), "/bin/tool");
  auto home_is_pkg = [](const std::string& dir) { return dir == "/home/u" || dir == "/home"; };
  EXPECT_EQ(tool_root("/home/u/.local/share/x/tool", "/home/u", home_is_pkg),
            "/home/u/.local/share/x/tool");
}

TEST(SandboxToolRoot, SingleBinaryShowsItself) {
  auto none = [](const std::string&) { return false; };
  EXPECT_EQ(tool_root("/home/u/.local/share/claude/versions/2.1.0", "/home/u", none),
            "/home/u/.local/share/claude/versions/2.1.0");
}

TEST(SandboxProbeFix, NamesTheSettingThatBlocksUserNamespaces) {
  UsernsSettings apparmor;
  apparmor.apparmor_restrict_unprivileged_userns = 1;
  EXPECT_NE(probe_fix("bwrap: setting up uid map: Permission denied", apparmor)
                .find("kernel.apparmor_restrict_unprivileged_userns=0"),
            std::string::npos);
  UsernsSettings debian_clone;
  debian_clone.unprivileged_userns_clone = 0;
  EXPECT_NE(probe_fix("bwrap: No permissions to creating new namespace", debian_clone)
                .find("kernel.unprivileged_userns_clone=1"),
            std::string::npos);
  UsernsSettings max;
  max.max_user_namespaces = 0;
  EXPECT_NE(probe_fix("bwrap: Creating new namespace failed", max).find("user.max_user_namespaces"),
            std::string::npos);
  EXPECT_NE(probe_fix("bwrap: Unknown option --disable-userns", {}).find("too old"),
            std::string::npos);
  EXPECT_FALSE(probe_fix("something else", {}).empty());
}

}  // namespace
}  // namespace hqt::sandbox
